"""broadcast-expand/*: an explicit Expand read by a broadcasting op, for every two-input op whose schema states
broadcasting, each operand in turn (M330).

Spec freedom: Operators.md Expand-13 broadcasts its input to a target shape, and every op whose doc (``onnx.defs``)
says it "supports multidirectional (i.e., Numpy-style) broadcasting" (Broadcasting.md) computes the same result
whether an operand arrives expanded to the op's output shape or as it is. For an op with *unidirectional*
broadcasting (PRelu: ``slope`` broadcasts to ``X``) the second operand may arrive expanded to ``X``'s shape, and
the first may arrive expanded to a shape its other operand then matches.

Each base reads the op's own recipe (:func:`passcheck.generate.recipe.build_node`: the attributes the domain table
gives, such as Mod's ``fmod = 1`` and BitShift's ``direction``, the element types the CPU provider runs, the
constant operands whose values matter, such as a divisor without zeros), at opset 18:

- the expanded operand, when it is a graph input, has a leading dim of 1 (``[1, 3, 4]``); the other one, when
  it is a graph input, has the full shape ``[2, 3, 4]``; a constant operand keeps its recipe shape;
- the target is the op's output shape (``numpy.broadcast_shapes`` of the two), an int64 initializer;
- common form: ``y = Op(Expand(a, target), b)`` (or the second operand expanded);
- uncommon form: the implicit broadcast ``y = Op(a, b)`` where the schema allows it (multidirectional, or the
  unidirectionally broadcast operand expanded), else the target read at run time, ``Expand(a, Shape(b))``.

Before this family only ``pattern-onnxscript-opt-in/expand-before-add`` (``Add``, second operand) held the
arrangement, so onnxscript's 38 ``ExpandFirst_<op>`` / ``ExpandSecond_<op>`` rules
(``rewriter/rules/common/_remove_expand_before_binary_op.py``) but one were listed untriggered by the coverage map.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs

from passcheck.cases.rules import onnxscript_case
from passcheck.generate import recipe

FAMILY = "broadcast-expand"
OPSET = 18
PASS = "onnxscript:rewrite-opt-in"
FULL = recipe.DEFAULT_SHAPE


def broadcast_kind(schema: onnx.defs.OpSchema) -> str:
    """``multi``, ``uni`` or "" (not broadcasting), from the schema's doc (Operators.md's wording)."""
    doc = schema.doc or ""
    return "multi" if "multidirectional" in doc else "uni" if "unidirectional" in doc else ""


def broadcasting_ops(opset: int = OPSET) -> list[onnx.defs.OpSchema]:
    """The default-domain schemas in force at ``opset`` with exactly two single inputs, one output and a doc that
    states broadcasting, sorted by name."""
    out = []
    for s in onnx.defs.get_all_schemas():
        if s.domain != "" or s.deprecated:
            continue
        try:
            at = onnx.defs.get_schema(s.name, opset, "")
        except onnx.defs.SchemaError:
            continue
        single = onnx.defs.OpSchema.FormalParameterOption.Single
        if len(at.inputs) == 2 and len(at.outputs) == 1 and all(i.option == single for i in at.inputs):
            if broadcast_kind(at) and not at.deprecated:
                out.append(at)
    return sorted(out, key=lambda s: s.name)


def _attr_text(attrs: dict) -> str:
    def one(v):
        return f'"{v}"' if isinstance(v, str) else repr(v)

    return f" <{', '.join(f'{k} = {one(v)}' for k, v in attrs.items())}>" if attrs else ""


def _out_type(schema: onnx.defs.OpSchema, node: recipe.Node) -> str:
    t = schema.outputs[0].type_str
    if t.startswith("tensor("):
        return t[len("tensor(") : -1]
    return recipe.type_name(node.dtypes[t])


def _register(schema: onnx.defs.OpSchema, k: int) -> None:
    try:
        node = recipe.build_node(schema, OPSET)
    except recipe.NoRecipe:
        return
    if any(i.wrap or i.empty for i in node.inputs) or len(node.inputs) != 2:
        return
    names = ("a", "b")
    shapes, consts, sig_in = [], {}, []
    for j, i in enumerate(node.inputs):
        if i.value is None:
            shape = (1, *FULL[1:]) if j == k else FULL
            sig_in.append(f"{recipe.type_name(i.elem)}[{','.join(map(str, shape))}] {names[j]}")
        else:
            arr = np.asarray(i.value, dtype=recipe.np_dtype(i.elem))
            shape = arr.shape
            consts[f"{names[j]}_{schema.name.lower()}"] = arr
        shapes.append(shape)
    target = tuple(np.broadcast_shapes(*shapes))
    opnd = [names[j] if node.inputs[j].value is None else f"{names[j]}_{schema.name.lower()}" for j in range(2)]
    consts["target"] = np.asarray(target, np.int64)
    attrs = _attr_text(node.attrs)
    expanded = list(opnd)
    expanded[k] = "e"
    common = f"e = Expand({opnd[k]}, target)\ny = {schema.name}{attrs}({', '.join(expanded)})"
    kind = broadcast_kind(schema)
    if kind == "multi" or k == 1:
        uncommon = ("implicit", f"y = {schema.name}{attrs}({', '.join(opnd)})", "no Expand: the op's own broadcast")
    elif tuple(shapes[1 - k]) == target:
        uncommon = (
            "target-from-shape",
            f"s = Shape({opnd[1 - k]})\ne = Expand({opnd[k]}, s)\ny = {schema.name}{attrs}({', '.join(expanded)})",
            "the target read at run time from the other operand",
        )
    else:
        return
    out = f"{_out_type(schema, node)}[{','.join(map(str, target))}] y"
    side = ("First", "Second")[k]
    onnxscript_case(
        f"{FAMILY}/{schema.name.lower()}-{schema.since_version}.{side.lower()}",
        f"Expand{side}_{schema.name}",
        f"""{schema.name}{attrs} with its {("first", "second")[k]} operand expanded to the output shape
{list(target)} ({kind}directional broadcasting, Operators.md {schema.name}-{schema.since_version}; Expand-13).

Uncommon: {uncommon[2]}.""",
        {"common": (common, ""), uncommon[0]: uncommon[1:]},
        f"({', '.join(sig_in)}) => ({out})",
        consts=consts,
        opset=OPSET,
        pass_id=PASS,
    )


for _schema in broadcasting_ops():
    for _k in (0, 1):
        _register(_schema, _k)
