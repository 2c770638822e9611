"""derived-name-decoys (IR.md §Names Within a Graph): sites, the equivalence gate with real onnxruntime and shape
inference, names already taken left alone, real onnx 1.23's Softmax 12 -> 13 adapter refusing nothing on the base
and writing a non-SSA model on the decoy form (docs/found.md row 612), and a planted pass that appends a suffix
without asking, caught on the rewritten form only."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES
from passcheck.mutations.derived_names import SUFFIXES
from passcheck.mutations.subject import mutation_subject

from ._models import assert_sites_gate_and_inverse, named, run_planted

RID = "derived-name-decoys"


def _model() -> onnx.ModelProto:
    return named(
        """g (float[N, 3] x) => (float[N, 3] y) {
        a = Mul(x, c)
        y = Relu(a)
    }""",
        opset=13,
        initializers=[tensor("c", np.array([0.5, -1.5, 2.0], np.float32))],
    )


def test_each_node_output_gets_an_unread_decoy_per_suffix_and_passes_the_gate():
    assert_sites_gate_and_inverse(RID, _model(), ["a", "y"])
    mutant, _ = REWRITES[RID].apply(_model())
    names = {o for n in mutant.graph.node for o in n.output}
    assert {v + s for v in ("a", "y") for s in SUFFIXES} <= names
    read = {x for n in mutant.graph.node for x in n.input}
    assert not any(v + s in read for v in ("a", "y") for s in SUFFIXES)


def test_a_taken_name_is_left_alone():
    m = _model()
    m.graph.node[0].output[0] = "y_intermediate"
    m.graph.node[1].input[0] = "y_intermediate"
    mutant, applied = REWRITES[RID].apply(m)
    writers = [o for n in mutant.graph.node for o in n.output]
    assert len(writers) == len(set(writers))
    assert "y_intermediate_output" in writers and writers.count("y_intermediate") == 1


def test_onnx_softmax_12_13_adapter_collides_on_the_decoy_form_only():
    from onnx import helper, version_converter

    g = helper.make_graph(
        [helper.make_node("Softmax", ["x"], ["y"], axis=1)],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3, 4])],
    )
    base = helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)], ir_version=7)
    onnx.checker.check_model(version_converter.convert_version(base, 13), full_check=True)
    mutant, _ = REWRITES[RID].apply(base)
    onnx.checker.check_model(mutant, full_check=True)
    out = version_converter.convert_version(mutant, 13)
    writers = [o for n in out.graph.node for o in n.output]
    assert writers.count("y_intermediate") == 2, writers  # row 612: fixed upstream when this fails


def _suffix_blindly(model: onnx.ModelProto) -> onnx.ModelProto:
    """Planted: y = Relu(a) → Relu writes y + "_intermediate", then y = Identity(y_intermediate)."""
    g = model.graph
    for i, n in enumerate(list(g.node)):
        if n.op_type == "Relu":
            out = n.output[0]
            n.output[0] = out + "_intermediate"
            g.node.insert(i + 1, onnx.helper.make_node("Identity", [n.output[0]], [out]))
            break
    return model


def test_a_pass_that_appends_a_suffix_without_asking_is_caught_on_the_decoy_form_only():
    subject, applied = mutation_subject(_model(), RID)
    assert RID in applied
    cells = run_planted(subject, "planted:suffix-blindly", _suffix_blindly)
    flagged = {c.form for c in cells if c.findings}
    assert RID in flagged and "common" not in flagged, flagged
