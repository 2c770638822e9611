"""Element types an attribute fixes: the recipe again with a type-selecting attribute and the type variables it
selects moved together (each a case of its own, ``generated/<op>-<since>.variant.attr.<attribute>.<type>``).

:mod:`.elem_variants` binds type constraints through the inputs that carry them (and, for a constraint only
outputs carry, through an integer data-type attribute: ``Cast.to``, ``EyeLike.dtype``). Some schemas let an
attribute's *own* type choose the element type (onnx Operators-ml.md, Operators.md), so no input retyping
reaches it:

- **typed sibling groups** (:func:`groups`): attributes named ``<stem>_<type>`` whose AttributeProto type is
  that type (``keys_strings`` STRINGS, ``keys_int64s`` INTS, ``keys_floats`` FLOATS; ``default_string`` STRING,
  ``default_int64`` INT, ``default_float`` FLOAT; ``classlabels_strings`` / ``classlabels_int64s`` /
  ``classlabels_ints``, ``cats_*``, ``pool_*``, ``imputed_value_*``), with a TENSOR sibling ``<stem>_tensor``
  holding any element type (LabelEncoder-4). Moving a list group to another member moves the scalar groups
  whose set member had the list's old type with it (LabelEncoder's ``default_*`` goes with its ``values_*``);
  a group with two members set (CategoryMapper's ``cats_*``, both required) is a mapping, not a choice;
- **a TENSOR attribute that types a constraint only outputs carry** (``Constant.value``,
  ``ConstantOfShape.value``: Operators.md, "the output's data type is that of value"), when the schema has no
  data-type integer attribute: the tensor retyped (its values converted, :func:`.elem_variants.as_type`);
- **a data-type integer attribute beside inputs** (QuantizeLinear-21's ``output_dtype``: "if both
  ``output_dtype`` and ``y_zero_point`` are specified, ``output_dtype`` must be T"): the inputs of the
  constraint retyped and the attribute stated, together.

Which type variables move is read off the schema's own type-inference function
(``onnx.shape_inference.infer_node_outputs``): an input constraint moves when its binding had the group's old
type and the schema accepts it moved (else it stays, if the schema accepts that); each output's element type is
what inference gives (so ``values_strings`` makes LabelEncoder's ``T2`` string, ``keys_strings`` its ``T1``). A
move the inference function rejects is not built; one onnxruntime's CPU provider has no kernel for is not built
(:func:`passcheck.runtime.kernels.runs_on_cpu`); the gate judges the rest like every variant.

Values crossing between strings and numbers keep their order: the k-th distinct value becomes the k-th of the
target's feed alphabet (``"a"``, ``"b"``, ``"c"``, …; 0, 1, 2, …), so keys still meet the synthesized feeds
(:func:`passcheck.runtime.feeds.synthesize`: strings ``a``–``c``, integers in [0, 4)). Types: per target, one per
family of :data:`.elem_variants.FAMILIES` the schema's constraints allow (a typed sibling group: its members'
types, and with a TENSOR sibling every family); each (op, attribute, type) at every schema that has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import onnx.defs

from passcheck.generate.node_types import inferred, settle
from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.recipe import Node, _param_of, np_dtype, type_name

A = onnx.AttributeProto
#: AttributeProto type → the element type it holds, for lists and scalars (onnx.proto AttributeProto).
LIST_TYPES = {A.STRINGS: "string", A.INTS: "int64", A.FLOATS: "float"}
SCALAR_TYPES = {A.STRING: "string", A.INT: "int64", A.FLOAT: "float"}
#: The name suffix each element type is spelled with in a typed sibling name (Operators-ml.md).
SUFFIXES = {"string": ("strings", "string"), "int64": ("int64s", "int64", "ints"), "float": ("floats", "float")}
TENSOR_SUFFIXES = ("tensor", "as_tensor")


def groups(schema: onnx.defs.OpSchema) -> dict[tuple[str, bool], dict[str, str]]:
    """(stem, is_list) → {element type name: attribute name} of ``schema``'s typed sibling groups (module docs):
    two or more members of different element types, each named ``<stem>_<suffix of its type>`` with that
    AttributeProto type; a TENSOR sibling ``<stem>_tensor`` is listed under ``"tensor"``."""
    out: dict[tuple[str, bool], dict[str, str]] = {}
    for name, a in schema.attributes.items():
        stem, _, suffix = name.rpartition("_")
        for table, is_list in ((LIST_TYPES, True), (SCALAR_TYPES, False)):
            t = table.get(a.type)
            if t and stem and suffix in SUFFIXES[t]:
                out.setdefault((stem, is_list), {})[t] = name
    for (stem, _is_list), members in out.items():
        for suffix in TENSOR_SUFFIXES:
            if f"{stem}_{suffix}" in schema.attributes and schema.attributes[f"{stem}_{suffix}"].type == A.TENSOR:
                members["tensor"] = f"{stem}_{suffix}"
    return {k: v for k, v in out.items() if len({t for t in v if t != "tensor"}) >= 2}


def _alphabet(t: str, n: int) -> list[Any]:
    if t == "string":
        letters = "abcdefghijklmnopqrstuvwxyz"
        return [letters[k % 26] + ("" if k < 26 else str(k // 26)) for k in range(n)]
    return [k if np_dtype(_code(t)).kind in "iub" else float(k) for k in range(n)]


def _code(t: str) -> int:
    return int(getattr(onnx.TensorProto, t.upper()))


def convert(values: Sequence[Any], to: str) -> list[Any]:
    """``values`` as element type ``to`` (a type name): numbers between numeric types cast (rounded to
    integers); across strings and numbers, the k-th distinct value (sorted) becomes the k-th of :func:`_alphabet`,
    so order and distinctness hold."""
    vals = list(values)
    text = any(isinstance(v, (str, bytes)) for v in vals)
    if (to == "string") != text:
        keys = sorted({v.decode() if isinstance(v, bytes) else v for v in vals}, key=lambda v: (str(type(v)), v))
        alpha = dict(zip(keys, _alphabet(to, len(keys)), strict=True))
        return [alpha[v.decode() if isinstance(v, bytes) else v] for v in vals]
    if to == "string":
        return [v.decode() if isinstance(v, bytes) else v for v in vals]
    arr = np.asarray(vals, dtype=np.float64)
    dt = np_dtype(_code(to))
    return (np.round(arr).astype(dt) if dt.kind in "iu" else arr.astype(dt)).tolist()


def _tensor(values: Sequence[Any], to: str, shape: Sequence[int] | None = None) -> dict[str, Any]:
    """A TENSOR attribute value in the recipe's form (:func:`passcheck.generate.model._attribute`)."""
    dt = np_dtype(_code(to))
    arr = np.asarray(values, dtype=object if to == "string" else dt)
    return {"value": arr.reshape(shape) if shape is not None else arr, "dtype": dt if to != "string" else object}


def _runs(node: Node) -> bool:
    from passcheck.generate.elem_variants import _runs, _types

    return _runs(node.schema, _types(node.schema, node.dtypes))


def _input_params(node: Node) -> dict[str, int]:
    """Type variable → element type of ``node``'s inputs (constants included)."""
    from passcheck.generate.elem_variants import formal_params

    return {p: i.elem for i, p in zip(node.inputs, formal_params(node), strict=True) if p and not i.empty}


def _allows(schema: onnx.defs.OpSchema, param: str, t: str) -> bool:
    return any(c.type_param_str == param and f"tensor({t})" in c.allowed_type_strs for c in schema.type_constraints)


def _with_inputs(node: Node, moved: Node, old: int, t: str) -> Node | None:
    """``moved`` (the attributes moved to ``t``) with its input type variables tied to the attributes: those
    bound to ``old`` moved to ``t`` first (where the schema allows ``t``), else none; the first the schema's
    inference function accepts, outputs settled (:func:`.node_types.settle`)."""
    from passcheck.generate.elem_variants import retyped

    tied = [p for p, e in _input_params(node).items() if e == old and _allows(node.schema, p, t)]
    tries: list[Node | None] = []
    if tied:
        v: Node | None = moved
        for p in tied:
            v = retyped(v, p, _code(t)) if v is not None else None
        tries.append(v)
    tries.append(moved.copy())
    for v in tries:
        if v is not None and (v := settle(v)) is not None:
            return v
    return None


def group_moves(node: Node) -> list[tuple[str, Node]]:
    """(detail ``attr.<stem>.<type>``, node) per typed list group of ``node`` with one member set, moved to each
    other member type (and to the TENSOR sibling for every family its constraints allow), the scalar groups of
    the list's old type moved along (module docs)."""
    from passcheck.generate.elem_variants import FAMILIES

    out = []
    gs = groups(node.schema)
    for (stem, is_list), members in gs.items():
        set_ = [t for t, a in members.items() if t != "tensor" and a in node.attrs]
        if not is_list or len(set_) != 1:
            continue
        old_t = set_[0]
        old = _code(old_t)
        scalars = []
        for (s_stem, s_list), s_members in gs.items():
            s_set = [t for t, a in s_members.items() if t != "tensor" and a in node.attrs]
            if not s_list and s_set == [old_t]:
                scalars.append((s_stem, s_members))
        targets = [t for t in members if t not in ("tensor", old_t)]
        if "tensor" in members:
            allowed = {t[7:-1] for c in node.schema.type_constraints for t in c.allowed_type_strs}
            targets += [t for t in FAMILIES if t in allowed and t not in targets and t != old_t]
        for t in targets:
            v = node.copy()
            values = v.attrs.pop(members[old_t])
            if t in members and t != "tensor":
                v.attrs[members[t]] = convert(values, t)
            else:
                v.attrs[members["tensor"]] = _tensor(convert(values, t), t)
            for _s_stem, s_members in scalars:
                value = v.attrs.pop(s_members[old_t])
                if t in s_members and t != "tensor":
                    v.attrs[s_members[t]] = convert([value], t)[0]
                elif "tensor" in s_members:
                    v.attrs[s_members["tensor"]] = _tensor(convert([value], t), t, (1,))
            if (w := _with_inputs(node, v, old, t)) is not None and _runs(w):
                out.append((f"attr.{stem}.{t}", w))
    return out


def _output_only(node: Node) -> list[str]:
    """The type variables of ``node``'s schema that only outputs carry."""
    ins = {_param_of(f.type_str) for f in node.schema.inputs}
    return [p for f in node.schema.outputs if (p := _param_of(f.type_str)) and p not in ins and p in node.dtypes]


def tensor_moves(node: Node, later: Sequence[onnx.defs.OpSchema] = ()) -> list[tuple[str, Node]]:
    """(detail ``attr.<name>.<type>``, node) per family a constraint only outputs carry allows, through the
    schema's one TENSOR attribute when it has no data-type integer attribute (module docs); a type a later
    schema of the op builds with a kernel is left to it (and to the newest such at or below opset 21, which every
    pinned environment loads: :func:`.elem_variants._left_to_later`)."""
    from passcheck.generate.elem_variants import FAMILIES, _left_to_later, _type_attr, as_type

    tensors = [n for n, a in node.schema.attributes.items() if a.type == A.TENSOR]
    params = _output_only(node)
    if len(tensors) != 1 or _type_attr(node.schema) is not None or len(params) != 1:
        return []
    (name,) = tensors
    (param,) = params
    given = node.attrs.get(name)
    base = np.asarray(given["value"]) if isinstance(given, dict) else np.ones(1)
    out = []
    for t in FAMILIES:
        if t == type_name(node.dtypes[param]) or not _allows(node.schema, param, t):
            continue
        if _left_to_later(node.schema, [s for s in later if _allows(s, param, t)], {param: f"tensor({t})"}):
            continue
        conv = as_type(base, _code(t))
        if conv is None:
            conv = as_type(np.ones(base.shape), _code(t))
        if conv is None:
            continue
        v = node.copy()
        v.attrs[name] = {"value": conv, "dtype": object if t == "string" else np_dtype(_code(t))}
        v.attr_types[name] = A.TENSOR
        if (w := settle(v)) is not None and _runs(w):
            out.append((f"attr.{name}.{t}", w))
    return out


def dtype_attr_moves(node: Node, later: Sequence[onnx.defs.OpSchema] = ()) -> list[tuple[str, Node]]:
    """(detail ``attr.<name>.<type>``, node) per family a constraint carried by inputs allows, with the schema's
    data-type integer attribute stated as that type beside the retyped inputs (module docs); only where the
    attribute is not stated in the recipe, inference gives an output that type and the attribute selects it
    (:func:`_selects`); a type a later schema with the attribute builds is left to it (as :func:`tensor_moves`)."""
    from passcheck.generate.elem_variants import FAMILIES, _left_to_later, _type_attr, retyped

    name = _type_attr(node.schema)
    if name is None or name in node.attrs:
        return []
    out = []
    for p, e in _input_params(node).items():
        if p in _output_only(node) or not any(_param_of(o.type_str) == p for o in node.schema.outputs):
            continue
        for t in FAMILIES:
            if not _allows(node.schema, p, t):
                continue
            same = [s for s in later if name in s.attributes and _allows(s, p, t)]
            if _left_to_later(node.schema, same, {p: f"tensor({t})"}):
                continue
            v = retyped(node, p, _code(t)) if _code(t) != e else node.copy()
            if v is None:
                continue
            v.attrs[name] = _code(t)
            if (w := settle(v)) is None or _code(t) not in w.out_elems.values() or not _runs(w):
                continue
            if _selects(v, name, p, t):
                out.append((f"attr.{name}.{t}", w))
    return out


def _selects(node: Node, name: str, param: str, t: str) -> bool:
    """Whether attribute ``name`` selects ``param``'s type: stated as another type the constraint allows, the
    schema's inference function rejects ``node`` or types its outputs otherwise (QuantizeLinear's ``output_dtype``
    does; Range-27's ``stash_type``, a precision for the intermediate values, does not)."""
    from passcheck.generate.elem_variants import FAMILIES

    base = inferred(node)
    for u in FAMILIES:
        if u != t and _allows(node.schema, param, u):
            other = node.copy()
            other.attrs[name] = _code(u)
            return inferred(other) != base
    return False


def pairs(node: Node, ctx: Ctx, later: Sequence[onnx.defs.OpSchema] = ()) -> list[Pair]:
    """Every attribute-typed variant of ``node`` (:func:`group_moves`, :func:`tensor_moves`,
    :func:`dtype_attr_moves`), each a pair: static vs symbolic graph input dims (``variant_pair``)."""
    from passcheck.generate.variants import variant_pair

    out = []
    seen = set()
    for detail, v in group_moves(node) + tensor_moves(node, later) + dtype_attr_moves(node, later):
        if detail in seen:
            continue
        seen.add(detail)
        outs = ", ".join(f"{o} {type_name(e)}" for o, e in v.out_elems.items())
        _attr, stem, t = detail.split(".")
        out.append(variant_pair(detail, v, f"attribute {stem} holding {t} (outputs {outs})"))
    return out
