"""A planted BatchNormalization fold that takes a grouped ConvTranspose weight's axis 0 for its output channels,
and a base case for it, loaded by the group-neighbour tests (tests only).

- ``planted:fold-bn-group-axis0``: ``BatchNormalization(ConvTranspose(x, W[, B]))`` (inference mode) becomes one
  ConvTranspose with ``W' = W × s`` and ``B' = (B − mean) × s + bias``, ``s = scale / sqrt(var + epsilon)``.
  Operators.md ConvTranspose: ``W`` is ``[C, M/group, k…]``, output channel ``o`` is computed from
  ``W[(o // (M/group)) × C/group : …, o % (M/group)]``. The pass scales axis 1 at ``group`` 1 (right) and axis 0
  at ``group`` > 1 (wrong: axis 0 holds the input channels); applied only where that axis has M entries.

Base case ``group-test/convtranspose-bn``: ``y = BatchNormalization(ConvTranspose(x, W))``, x ``float[1, 4, 3, 3]``,
W ``[4, 4, 3, 3]`` (C = M = 4), per-channel parameters of 4 entries (opset 17).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:fold-bn-group-axis0"
CASE_ID = "group-test/convtranspose-bn"


def fold_bn(model):
    """Fold each BatchNormalization into the ConvTranspose it reads (see module docs)."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    producer = {o: n for n in g.node for o in n.output}
    drop = []
    for bn in g.node:
        ct = producer.get(bn.input[0]) if bn.op_type == "BatchNormalization" else None
        if ct is None or ct.op_type != "ConvTranspose" or ct.input[1] not in inits:
            continue
        scale, bias, mean, var = (numpy_helper.to_array(inits[v]) for v in bn.input[1:5])
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        s = scale / np.sqrt(var + eps)
        w = numpy_helper.to_array(inits[ct.input[1]])
        group = next((a.i for a in ct.attribute if a.name == "group"), 1)
        axis = 1 if group == 1 else 0
        if w.shape[axis] != s.size:
            continue
        shape = [1] * w.ndim
        shape[axis] = s.size
        b = numpy_helper.to_array(inits[ct.input[2]]) if len(ct.input) > 2 and ct.input[2] else np.zeros_like(s)
        inits[ct.input[1]].CopyFrom(numpy_helper.from_array((w * s.reshape(shape)).astype(w.dtype), ct.input[1]))
        bname = f"{ct.name}_folded_B"
        g.initializer.append(numpy_helper.from_array(((b - mean) * s + bias).astype(w.dtype), bname))
        del ct.input[2:]
        ct.input.append(bname)
        ct.output[0] = bn.output[0]
        drop.append(bn)
    for n in drop:
        g.node.remove(n)
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, fold_bn, doc="test pass: folds BatchNormalization, group-blind axis"))


def base():
    """``y = BatchNormalization(ConvTranspose(x, W))``, C = M = 4 (opset 17)."""
    rng = np.random.default_rng(0)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 3, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 5, 5])
    inits = [
        numpy_helper.from_array(rng.standard_normal((4, 4, 3, 3)).astype(np.float32), "W"),
        numpy_helper.from_array(np.array([0.5, 1.5, 2.0, 0.75], np.float32), "scale"),
        numpy_helper.from_array(np.array([0.1, -0.2, 0.3, 0.0], np.float32), "bias"),
        numpy_helper.from_array(np.array([0.2, 0.0, -0.1, 0.4], np.float32), "mean"),
        numpy_helper.from_array(np.array([1.0, 2.0, 0.5, 1.5], np.float32), "var"),
    ]
    nodes = [
        helper.make_node("ConvTranspose", ["x", "W"], ["t"], name="ct"),
        helper.make_node("BatchNormalization", ["t", "scale", "bias", "mean", "var"], ["y"], name="bn"),
    ]
    graph = helper.make_graph(nodes, "ctbn", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id=CASE_ID, forms=FORMS, doc="y = BatchNormalization(ConvTranspose(x, W)), C = M = 4", opset=17))
