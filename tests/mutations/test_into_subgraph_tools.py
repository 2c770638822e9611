"""What the tools do with a node moved into a control-flow body (passcheck.mutations.into_subgraph):
the evidence behind the report's notes on those forms, pinned at the installed versions."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx.reference import ReferenceEvaluator

from passcheck.mutations import REWRITES
from passcheck.mutations.into_subgraph import LOOP_ONCE

from ._models import named


def _loop_output_exposed(m: onnx.ModelProto) -> onnx.ModelProto:
    """``m`` after node-in-loop-once, the Squeeze dropped and the Loop's scan output a graph output."""
    mutant, _ = LOOP_ONCE.apply(m)
    loop = next(n for n in mutant.graph.node if n.op_type == "Loop")
    mutant.graph.node.remove(next(n for n in mutant.graph.node if n.op_type == "Squeeze"))
    del mutant.graph.output[:]
    mutant.graph.output.append(onnx.helper.make_value_info(loop.output[0], onnx.helper.make_tensor_type_proto(1, None)))
    return mutant


def test_reference_evaluator_loop_drops_the_iteration_axis_of_a_scan_output():
    """onnx shape inference (LoopInferenceFunction) and onnxruntime give a scan output one more leading
    axis, the iteration (M = 1: [1, N, 3]); onnx's ReferenceEvaluator (reference/ops/op_loop.py, 1.23)
    joins the iterations' values with np.vstack, no new axis: [N, 3]. So the annotation oracle's
    reference-evaluator fallback fails on every node-in-loop-once form (Squeeze at axis 0 of size N):
    those cells are unchecked, with that reason."""
    m = named("g (float[N, 3] x) => (float[N, 3] y) { y = Relu(x) }", opset=13)
    mutant = _loop_output_exposed(m)
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    session = ort.InferenceSession(mutant.SerializeToString(), providers=["CPUExecutionProvider"])
    assert session.run(None, {"x": x})[0].shape == (1, 2, 3)
    inferred = onnx.shape_inference.infer_shapes(mutant).graph.output[0].type.tensor_type.shape
    assert [d.dim_param or d.dim_value for d in inferred.dim][1:] == ["N", 3]  # [iterations, N, 3]
    assert ReferenceEvaluator(mutant).run(None, {"x": x})[0].shape == (2, 3)


def test_onnxscript_if_folding_leaves_a_dead_producer_the_other_branch_read():
    """onnxscript's optimizer inlines If on a constant condition (optimizer/_constant_folding.py if_op)
    but the discarded branch's nodes stay users of the outer values they read: a Pad whose only reader
    was moved into the If outlives the Pad→Conv fusion (dead, not removed); a second run removes it."""
    from onnxscript import optimizer

    w = onnx.numpy_helper.from_array(np.linspace(-1, 1, 2 * 2 * 3 * 3, dtype=np.float32).reshape(2, 2, 3, 3), "w")
    m = named(
        """g (float[N, 2, 5, 5] x) => (float[N, 2, 5, 5] y) {
        pads = Constant<value = int64[8] {0, 0, 1, 1, 0, 0, 1, 1}>()
        p = Pad(x, pads)
        y = Conv(p, w)
    }""",
        opset=18,
        initializers=[w],
    )
    ops = [n.op_type for n in optimizer.optimize(m).graph.node]
    assert ops == ["Conv"]  # the common form: Pad fused into Conv
    mutant, _ = REWRITES["node-in-if-const"].apply(m, ["n2"])
    once = optimizer.optimize(mutant)
    assert [n.op_type for n in once.graph.node] == ["Pad", "Conv"]
    assert "p" not in {x for n in once.graph.node for x in n.input}  # nothing reads the Pad
    assert [n.op_type for n in optimizer.optimize(once).graph.node] == ["Conv"]


def test_onnxscript_if_folding_blocks_batchnorm_fusion_through_the_other_branch():
    """The same stale uses: the discarded branch's Conv still reads the weight initializer, so
    onnxscript's Conv+BatchNormalization fusion (which rewrites an initializer only its own node
    uses: rewriter/rules/common/_fuse_batchnorm.py) no longer applies after the If is inlined."""
    from onnxscript import optimizer

    def init(name, *shape):
        return onnx.numpy_helper.from_array(
            np.linspace(0.5, 1.5, int(np.prod(shape)), dtype=np.float32).reshape(shape), name
        )

    m = named(
        """g (float[N, 2, 5, 5] x) => (float[N, 2, 3, 3] y) {
        c = Conv(x, w)
        y = BatchNormalization(c, s, b, mean, var)
    }""",
        opset=18,
        initializers=[init("w", 2, 2, 3, 3), init("s", 2), init("b", 2), init("mean", 2), init("var", 2)],
    )
    assert [n.op_type for n in optimizer.optimize(m).graph.node] == ["Conv"]
    mutant, _ = REWRITES["chain-in-if-const"].apply(m)
    assert [n.op_type for n in optimizer.optimize(mutant).graph.node] == ["Conv", "BatchNormalization"]
