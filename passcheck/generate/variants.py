"""Recipe variants derived from the operator schema: the recipe again with its operands in the forms
graph passes key on (each a case of its own, ``generated/<op>-<since>.variant.<name>``, so a hunt
bases on it).

- ``const-operands``: every input after the first that the recipe feeds as a graph input is an
  initializer holding the feed it would get. Constant folding and fusions fire only on constant
  operands (onnxruntime's ``graph_utils::IsConstantInitializer``, onnxscript's rewrite rules'
  ``check`` functions, onnx shape inference's ``getInputData``).
- ``default-values``: the optional inputs whose default the domain table states (``defaults``, taken
  from the operator's spec text) written as initializers holding it, paired with the form that omits
  them (onnx Operators.md: an omitted optional input takes its stated default).
- ``const-operands.<attr>-<value>``: the same constant operands under each non-default attribute value
  :mod:`.attr_values` derives from the schema (``transB``, ``axis``, ``perm``, ``group``); an op with one data
  input has it constant (as an initializer, vs as a Constant node), so a pass folds the whole node.
- ``pairwise.<attr>-<value>…``: the same constant-operand forms under each row of a 2-wise covering array of the
  schema's enumerable attribute values (:mod:`.attr_pairs`: auto_pad, strides / dilations / pads / spatial rank of
  windowed ops, 0/1 flags), so every two allowed values meet in some case.
- ``broadcast``: for ops whose schema doc says *multidirectional* broadcasting (onnx
  docs/Broadcasting.md), the data inputs with size-1 dims ((2, 1, 4) with (1, 3, 1)); for
  *unidirectional* ones, the last data input with size-1 dims.

Element types of every type constraint are :mod:`.elem_variants`'.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnx.helper

from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.recipe import BF16, Input, Node, table_row

OPTIONAL = onnx.defs.OpSchema.FormalParameterOption.Optional
VARIADIC = onnx.defs.OpSchema.FormalParameterOption.Variadic


def _data(node: Node) -> list[Input]:
    """The tensor graph inputs (fed at random) of ``node``, in input order."""
    return [i for i in node.inputs if i.value is None and not i.empty and not i.wrap]


def _feeds(node: Node, subject_id: str, names: list[str]) -> dict[str, np.ndarray]:
    """The feeds the engine synthesizes for ``names`` of the static recipe of case ``subject_id`` (binding 0)."""
    from passcheck.engine import seed_for
    from passcheck.runtime.feeds import synthesize

    vis = [onnx.helper.make_tensor_value_info(i.name, i.elem, list(i.shape)) for i in _data(node)]
    g = onnx.helper.make_graph([], "g", vis, [])
    fed = synthesize(onnx.helper.make_model(g), {}, seed_for(subject_id, 0))
    return {n: fed[n] for n in names}


def const_operands(node: Node, subject_id: str) -> Node | None:
    """``node`` with every non-first data input an initializer holding its feed; None when it has none
    (bfloat16 inputs, fed as float and Cast inside, stay graph inputs)."""
    data = _data(node)
    later = [i for i in data[1:] if i.elem != BF16]
    if not data or not later or node.inputs.index(data[0]) != 0:
        return None
    fed = _feeds(node, subject_id, [i.name for i in later])
    v = node.copy()
    for i in v.inputs:
        if i.name in fed:
            i.value, i.mode = fed[i.name], "initializer"
    return v


def const_all(node: Node, subject_id: str) -> Node | None:
    """``node`` with its only data input an initializer holding its feed; None unless it has exactly one
    (bfloat16 stays a graph input)."""
    data = _data(node)
    if len(data) != 1 or data[0].elem == BF16:
        return None
    fed = _feeds(node, subject_id, [data[0].name])
    v = node.copy()
    for i in v.inputs:
        if i.name in fed:
            i.value, i.mode = fed[i.name], "initializer"
    return v


def const_attr_pairs(node: Node, subject_id: str) -> list[Pair]:
    """``const-operands.<label>`` per non-default attribute value of :func:`.attr_values.non_default`: the
    constant-operand variant (static vs symbolic), or, for a one-input op, the input constant as an initializer
    vs as a Constant node. None below IR 4 (opsets 1-7 of the default domain: :func:`.model.to_model` stamps IR 3),
    where IR.md makes every initializer a graph input too, a default the caller may override, not a constant."""
    from passcheck.generate.attr_values import non_default

    if not node.domain and node.opset <= 7:
        return []
    return _const_pairs([(f"const-operands.{label}", label, v) for label, v in non_default(node)], subject_id)


def pairwise_pairs(node: Node, subject_id: str) -> list[Pair]:
    """``pairwise.<label>`` per row of :func:`.attr_pairs.rows` (every pair of two attributes' allowed values held
    by some row), in the constant-operand forms of :func:`const_attr_pairs` (so folding passes evaluate the node
    too); the same IR 4 floor."""
    from passcheck.generate.attr_pairs import rows

    if not node.domain and node.opset <= 7:
        return []
    return _const_pairs([(label, label.removeprefix("pairwise."), v) for label, v in rows(node)], subject_id)


def _const_pairs(items: list[tuple[str, str, Node]], subject_id: str) -> list[Pair]:
    """Per ``(detail, label, node')``: ``node'``'s constant-operand pair (static vs symbolic), or, for a one-input
    op, the input constant as an initializer vs as a Constant node; neither applies: none."""
    out: list[Pair] = []
    for detail, label, v in items:
        if (c := const_operands(v, subject_id)) is not None:
            out.append(variant_pair(detail, c, f"constant operands with {label}"))
        elif (c := const_all(v, subject_id)) is not None:
            k = c.copy()
            for i in k.inputs:
                if i.value is not None and i.mode == "initializer" and i.name == _data(v)[0].name:
                    i.mode = "constant"
            forms = {"common": (c, "static", ""), "constant": (k, "static", "the operand as a Constant node")}
            out.append(Pair("variant", detail, forms, f"the only data input constant with {label}"))
    return out


def default_values(node: Node) -> tuple[Node, Node, list[str]] | None:
    """(``node`` with each defaulted optional input written as an initializer holding its default, the
    same node with those inputs omitted, their names); None when the table states no default for an
    optional input of this schema."""
    schema = node.schema
    defaults = table_row(schema).get("defaults", {})
    formals = list(schema.inputs)
    if any(f.option == VARIADIC for f in formals):
        return None
    slots: list[Input | None] = [None if i.empty else i for i in node.inputs]
    slots += [None] * (len(formals) - len(slots))
    written, omitted, names = list(slots), list(slots), []
    for k, f in enumerate(formals):
        if f.option != OPTIONAL or f.name not in defaults:
            continue
        d = defaults[f.name]
        given = slots[k]
        if given is not None and given.value is None:
            continue  # a data input fed at random: no constant to state
        elem = given.elem if given is not None else node.dtypes.get(f.type_str)
        if elem is None:
            from passcheck.generate.recipe import elem_type

            elem = elem_type(f.type_str)
        written[k] = Input(f.name, elem, tuple(np.shape(d)), value=d)
        omitted[k] = None
        names.append(f.name)
    if not names:
        return None
    return _node_with(node, written), _node_with(node, omitted), names


def _node_with(node: Node, slots: list[Input | None]) -> Node:
    v = node.copy()
    v.inputs = [s if s is not None else Input("", onnx.TensorProto.FLOAT, (), empty=True) for s in slots]
    while v.inputs and v.inputs[-1].empty:
        v.inputs.pop()
    return v


def broadcast_kind(node: Node) -> str:
    """``multidirectional`` | ``unidirectional`` | ``""``: the broadcasting the schema doc states."""
    doc = (node.schema.doc or "").lower()
    return next((k for k in ("multidirectional", "unidirectional") if k in doc), "")


def _ones_at(shape: tuple[int, ...], parity: int) -> tuple[int, ...]:
    """``shape`` with the dims at positions ``d`` where ``(rank - 1 - d) % 2 == parity`` set to 1."""
    r = len(shape)
    return tuple(1 if (r - 1 - d) % 2 == parity else s for d, s in enumerate(shape))


def broadcast(node: Node) -> Node | None:
    """``node`` with size-1 dims in its data inputs as its schema's broadcasting allows; None when the
    schema states none, or there is no second data input of the first's rank or lower."""
    kind = broadcast_kind(node)
    data = _data(node)
    if not kind or len(data) < 2 or node.opset < 7:  # before opset 7 broadcasting was the `broadcast` attribute
        return None
    v = node.copy()
    vdata = _data(v)
    first = vdata[0].shape
    if not first or any(len(i.shape) > len(first) or not i.shape for i in vdata[1:]):
        return None
    if kind == "multidirectional":
        if len(first) >= 2:
            vdata[0].shape = _ones_at(first, 1)
        for i in vdata[1:]:
            i.shape = _ones_at(i.shape, 0)
    else:
        vdata[-1].shape = _ones_at(vdata[-1].shape, 0)
    if all(i.shape == j.shape for i, j in zip(vdata, data)):
        return None
    return v


def variant_pair(name: str, node: Node, doc: str, extra: dict[str, tuple[Node, str, str]] | None = None) -> Pair:
    """A variant's pair ``name``: ``node`` static vs symbolic graph input dims (plus ``extra`` forms)."""
    forms = {
        "common": (node, "static", ""),
        "symbolic": (node, "symbolic", "graph input dims as dim_param"),
        **(extra or {}),
    }
    return Pair("variant", name, forms, doc)


def pairs(node: Node, ctx: Ctx, subject_id: str) -> list[Pair]:
    """Every variant of ``node`` that applies, each as a pair: the variant static vs symbolic (and, for
    ``default-values``, vs the defaulted inputs omitted). ``subject_id`` seeds the const-operands values
    (the recipe's own shape case id: the values are the feeds that case gets)."""
    out = []
    if (c := const_operands(node, subject_id)) is not None:
        names = [i.name for i in c.inputs if i.value is not None and i.name in {d.name for d in _data(node)}]
        out.append(variant_pair("const-operands", c, f"inputs {', '.join(names)} as initializers holding their feeds"))
    out += const_attr_pairs(node, subject_id)
    out += pairwise_pairs(node, subject_id)
    if (d := default_values(node)) is not None:
        written, omitted, names = d
        out.append(
            variant_pair(
                "default-values",
                written,
                f"optional inputs {', '.join(names)} written as initializers holding their stated default",
                {"omitted": (omitted, "static", f"{', '.join(names)} omitted (the default applies)")},
            )
        )
    if (b := broadcast(node)) is not None:
        shapes = " with ".join(str(i.shape) for i in _data(b))
        out.append(variant_pair("broadcast", b, f"{broadcast_kind(node)} broadcasting over size-1 dims: {shapes}"))
    return out


VARIANTS: dict[str, Callable] = {
    "const-operands": const_operands,
    "default-values": default_values,
    "broadcast": broadcast,
}
