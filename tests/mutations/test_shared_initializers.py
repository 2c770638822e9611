"""duplicate-shared-initializer / merge-duplicate-initializers (IR.md §Graphs, §Nodes): sites, the equivalence
gate with real onnxruntime and shape inference, what stays put, and a planted pass that scales a constant in
place without asking who else reads it, caught only on the merged form."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES
from passcheck.mutations.subject import mutation_subject

from ._models import assert_sites_gate_and_inverse, named, run_planted

C = np.array([0.5, -1.5, 2.0], np.float32)


def _separate():
    """Two equal constants (one raw_data, one in float_data), each read by its own chain, plus one shared by two
    slots of a node."""
    typed = onnx.helper.make_tensor("c2", onnx.TensorProto.FLOAT, [3], C.tolist())
    m = named(
        """g (float[N, 3] x) => (float[N, 3] y, float[N, 3] z, float[3] v) {
        a = Mul(x, c1)
        y = Mul(a, k)
        b = Mul(x, c2)
        z = Mul(b, k)
        v = Add(s, s)
    }""",
        opset=13,
        initializers=[tensor("c1", C), typed, tensor("k", np.array(3.0, np.float32)), tensor("s", C * 2)],
    )
    assert not m.graph.initializer[1].raw_data  # stored in the typed field: equal by value, not by bytes
    return m


def test_merge_finds_equal_values_whatever_their_storage_and_passes_the_gate():
    assert_sites_gate_and_inverse("merge-duplicate-initializers", _separate(), ["c2"])


def test_duplicate_gives_every_later_slot_its_own_copy_and_passes_the_gate():
    # k is read by two nodes, s by two slots of one node
    assert_sites_gate_and_inverse("duplicate-shared-initializer", _separate(), ["k", "s"])
    mutant, _ = REWRITES["duplicate-shared-initializer"].apply(_separate())
    add = next(n for n in mutant.graph.node if n.op_type == "Add")
    assert add.input[0] == "s" and add.input[1] != "s"


def test_graph_inputs_outputs_and_ir3_keep_their_one_name():
    m = _separate()
    m.graph.input.append(onnx.helper.make_tensor_value_info("c2", onnx.TensorProto.FLOAT, [3]))  # overridable
    m.graph.output.append(onnx.helper.make_tensor_value_info("k", onnx.TensorProto.FLOAT, []))
    assert REWRITES["merge-duplicate-initializers"].apply(m) is None
    assert [t for t in REWRITES["duplicate-shared-initializer"].apply(m)[1].nodes] == ["s"]
    old = _separate()
    old.ir_version = 3
    assert REWRITES["merge-duplicate-initializers"].apply(old) is None
    assert REWRITES["duplicate-shared-initializer"].apply(old) is None


def _scale_in_place(model: onnx.ModelProto) -> onnx.ModelProto:
    """Planted: Mul(Mul(x, c), k) with constants c, k → Mul(x, c * k), c overwritten in place whoever else
    reads it (the bug: a fold must copy a constant that has other readers)."""
    g = model.graph
    vals = {t.name: t for t in g.initializer}
    producer = {n.output[0]: n for n in g.node}
    for outer in [n for n in g.node if n.op_type == "Mul"]:
        inner = producer.get(outer.input[0])
        if inner is None or inner.op_type != "Mul" or inner.input[1] not in vals or outer.input[1] not in vals:
            continue
        c = vals[inner.input[1]]
        scaled = numpy_helper.to_array(c) * numpy_helper.to_array(vals[outer.input[1]])
        c.CopyFrom(numpy_helper.from_array(scaled.astype(np.float32), c.name))
        outer.input[:] = [inner.input[0], c.name]
        g.node.remove(inner)
        producer = {n.output[0]: n for n in g.node}
    return model


def test_a_fold_that_ignores_other_readers_is_caught_on_the_merged_form_only():
    subject, applied = mutation_subject(_separate(), "merge-duplicate-initializers")
    assert "merge-duplicate-initializers" in applied
    cells = run_planted(subject, "planted:scale-in-place", _scale_in_place)
    wrong = {c.form for c in cells for f in c.findings if f.oracle == "numeric"}
    assert "merge-duplicate-initializers" in wrong and "common" not in wrong, wrong
