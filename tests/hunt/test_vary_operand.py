"""``operand-computed`` (:mod:`passcheck.hunt.vary_operand`, M191): an initializer a node reads beside a computed
value, read through an Identity listed right before that node and annotated; judged with real onnxruntime runs.

A planted MatMul + Add → Gemm fusion that writes the Gemm where the MatMul stood is right on the base (its bias an
initializer, known before every node) and wrong on this neighbour (the Gemm reads the bias before its producer:
IR.md "Graphs", the node list is topologically sorted); the same fusion writing the Gemm where the Add stood gives
no finding on either.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_operand, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.mutations.forms import named
from tests.hunt.conftest import judge_planted


def _base() -> onnx.ModelProto:
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4) / 7, "w")
    b = numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 0.25], np.float32), "b")
    nodes = [helper.make_node("MatMul", ["a", "w"], ["m"], name="mm"), helper.make_node("Add", ["m", "b"], ["y"])]
    return helper.make_model(
        helper.make_graph(nodes, "mmadd", [a], [y], [w, b]), opset_imports=[helper.make_opsetid("", 13)]
    )


def _fuse_matmul_add(at_add: bool):
    """``Add(MatMul(a, w), c)`` → ``Gemm(a, w, c)``, the Gemm written where the Add stood (``at_add``) or where
    the MatMul stood (reading ``c`` before a producer listed between the two)."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        model = onnx.ModelProto.FromString(model.SerializeToString())
        nodes = list(model.graph.node)
        mm = next(i for i, n in enumerate(nodes) if n.op_type == "MatMul")
        add = next(i for i, n in enumerate(nodes) if n.op_type == "Add" and n.input[0] == nodes[mm].output[0])
        gemm = helper.make_node("Gemm", [*nodes[mm].input, nodes[add].input[1]], list(nodes[add].output))
        nodes[add if at_add else mm] = gemm
        del nodes[mm if at_add else add]
        del model.graph.node[:]
        model.graph.node.extend(nodes)
        return model

    return rewrite


def test_the_sites_are_constant_operands_of_nodes_reading_a_computed_value_too():
    """The MatMul's weight and the Add's bias are sites; a node reading initializers only is not."""
    base = _base()
    base.graph.node.append(helper.make_node("Mul", ["w", "w"], ["ww"], name="sq"))
    base.graph.output.append(helper.make_tensor_value_info("ww", TensorProto.FLOAT, [3, 4]))
    assert list(vary_operand.candidates(named(base))) == [
        (vary_operand.KIND, "mm=1"),
        (vary_operand.KIND, "n1_Add=1"),
    ]


def test_a_computed_bias_listed_after_the_matmul_shows_a_fusion_that_writes_where_the_matmul_stood(inproc_executor):
    """The neighbour lists ``b__computed = Identity(b)`` between the MatMul and the Add, annotated ``float[4]``,
    keeps the base's interface and values (a real onnxruntime run, by the gate); the planted fusion writing the
    Gemm at the MatMul is ``invalid-model`` on it and nothing on the base, the one writing it at the Add nothing."""
    ex = inproc_executor
    base = _base()
    form = "vary:operand-computed@n1_Add=1"
    assert (vary_operand.KIND, "n1_Add=1") in set(variation._candidates(named(base)))
    out, _ = variation.build(base, form)
    assert [(n.op_type, list(n.input)) for n in out.graph.node] == [
        ("MatMul", ["a", "w"]),
        ("Identity", ["b"]),
        ("Add", ["m", "b__computed"]),
    ]
    assert not out.graph.node[2].name  # the base's unnamed Add stays unnamed
    (vi,) = out.graph.value_info
    assert (vi.name, vi.type.tensor_type.elem_type, [d.dim_value for d in vi.type.tensor_type.shape.dim]) == (
        "b__computed",
        TensorProto.FLOAT,
        [4],
    )
    onnx.checker.check_model(out, full_check=True)
    assert vary_probe.invalid(Setting("vary-test/mmadd"), base, out, ex, form) is None
    found = {
        at_add: judge_planted(
            "vary-test/mmadd", base, form, f"planted:fuse-matmul-add-{at_add}", _fuse_matmul_add(at_add), ex
        )
        for at_add in (False, True)
    }
    assert found[False].status == found[True].status == "done", found
    assert ("validity", "invalid-model") in {(f.oracle, f.kind) for f in found[False].findings}, found[False]
    assert found[True].findings == [], found[True]
