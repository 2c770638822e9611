"""A planted pass that drops an Expand in front of a broadcasting op when each dim of its target is 1, or equals the
Expand input's or the other operand's dim at the same place counted from the right, and never asks whether the
target is longer than both operands' ranks (tests only; the check onnxscript's opt-in ``expand_before_binary_op``
rule makes, ``_remove_expand_before_binary_op.py``).

- ``planted:expand-drop``: ``y = Add(Expand(x, s), b)`` with ``s`` an int64 initializer becomes ``y = Add(x, b)``
  when that check holds. Right while ``len(s)`` is at most ``max(rank(x), rank(b))``; with a longer ``s`` the Add
  loses the leading dims the Expand wrote (Operators.md Expand-8/13: the output rank is ``max(rank, len(shape))``).

Base case ``target-test/expand-add``: ``y = Add(Expand(x, [2, 3]), b)``, x ``float[1, 3]``, b ``float[2, 3]``
(opset 13).
"""

from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:expand-drop"


def _dims(name, model):
    import onnx

    inferred = onnx.shape_inference.infer_shapes(model)
    for vi in [*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output]:
        if vi.name == name:
            return [d.dim_value for d in vi.type.tensor_type.shape.dim]
    return None


def _at(dims, i, target):
    """The dim of ``dims`` under ``target[i]`` counted from the right (Broadcasting.md), 1 where it has none."""
    j = len(dims) - len(target) + i
    return dims[j] if j >= 0 else 1


def expand_drop(model):
    """Drop each Expand read by an Add whose per-dim check holds (see module docs)."""
    inits = {t.name: numpy_helper.to_array(t).tolist() for t in model.graph.initializer}
    for expand in [n for n in model.graph.node if n.op_type == "Expand" and n.input[1] in inits]:
        target = inits[expand.input[1]]
        for add in [n for n in model.graph.node if n.op_type == "Add" and expand.output[0] in n.input]:
            other = add.input[1] if add.input[0] == expand.output[0] else add.input[0]
            x, y = _dims(expand.input[0], model), _dims(other, model)
            if x is None or y is None:
                continue

            if all(t == 1 or _at(x, i, target) == t or _at(y, i, target) == t for i, t in enumerate(target)):
                add.input[list(add.input).index(expand.output[0])] = expand.input[0]
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, expand_drop, doc="test pass: drops an Expand before Add, ranks unchecked"))


def base():
    """``y = Add(Expand(x, s), b)``, ``s = [2, 3]``, x ``float[1, 3]``, b ``float[2, 3]`` (opset 13)."""
    vi = helper.make_tensor_value_info
    nodes = [helper.make_node("Expand", ["x", "s"], ["e"], name="ex"), helper.make_node("Add", ["e", "b"], ["y"])]
    graph = helper.make_graph(
        nodes,
        "expand_add",
        [vi("x", TensorProto.FLOAT, [1, 3]), vi("b", TensorProto.FLOAT, [2, 3])],
        [vi("y", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor("s", TensorProto.INT64, [2], [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id="target-test/expand-add", forms=FORMS, doc="y = Add(Expand(x, [2, 3]), b)", opset=13))
