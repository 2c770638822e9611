"""Graph inputs declared with every dim unknown (:func:`passcheck.mutations.value_types.anonymous_input_dims`):
the sites, the equivalence gate on a real model, and a planted pass that compares shapes with unknown dims as
equal (a Slice whose input and output "have the same shape" replaced by Identity: onnxscript 0.3.2's
``collapse_slices`` did so, docs/recall.md R61) found on the anonymous spelling paired with its withheld twin, and
not on the base."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.mutations import withheld
from passcheck.mutations.registry import REWRITES

RID = "anonymous-input-dims"
PASS_ID = "planted:slice-same-shape-unknown-equal"


def model() -> onnx.ModelProto:
    """``y = Slice(x, [0], [1], [0], [1])`` of ``x: [2, "C"]`` (``y: [1, "C"]``), ``w`` an initializer input."""
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in [("st", [0]), ("en", [1]), ("ax", [0])]]
    inits.append(numpy_helper.from_array(np.array([1], np.int64), "sp"))
    node = helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], name="slice")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, "C"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "C"])
    graph = helper.make_graph([node], "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def dims(v: onnx.ValueInfoProto) -> list:
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in v.type.tensor_type.shape.dim]


def collapse_same_shape_slices(m: onnx.ModelProto) -> onnx.ModelProto:
    """Each Slice whose inferred input and output shapes compare equal, an unknown dim equal to an unknown one,
    becomes an Identity (the precondition a shape-equality check must not take from two unknowns)."""
    g = onnx.shape_inference.infer_shapes(m).graph

    def unknown_as_none(v):  # onnx names a dim it cannot know unk__N: no more than an unknown one
        return [None if isinstance(d, str) and d.startswith("unk__") else d for d in dims(v)]

    values = [*g.input, *g.value_info, *g.output]
    types = {v.name: unknown_as_none(v) for v in values if v.type.tensor_type.HasField("shape")}
    for n in m.graph.node:
        if n.op_type == "Slice" and n.input[0] in types and types[n.input[0]] == types.get(n.output[0]):
            del n.input[1:]
            n.op_type = "Identity"
    return m


def _register() -> None:
    from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

    if PASS_ID not in known_pass_ids():
        register_pass(FunctionAdapter(PASS_ID, collapse_same_shape_slices, doc="test pass: unknown dims equal"))


def test_each_fed_input_loses_its_dims_and_keeps_its_rank():
    m = model()
    assert REWRITES[RID].sites(m) == ["x"]
    mutant, labels = REWRITES[RID].apply(m, None)
    assert labels.nodes == ("x",)
    assert dims(mutant.graph.input[0]) == [None, None]
    assert dims(mutant.graph.output[0]) == [1, "C"]  # the values downstream keep their own declarations
    onnx.checker.check_model(mutant, full_check=True)
    feed = {"x": np.arange(6, dtype=np.float32).reshape(2, 3)}
    a, b = (
        ort.InferenceSession(k.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
        for k in (m, mutant)
    )
    assert np.array_equal(a, b)


def test_an_input_with_an_initializer_is_no_site():
    m = model()
    m.graph.input.append(helper.make_tensor_value_info("sp", TensorProto.INT64, [1]))
    assert REWRITES[RID].sites(m) == ["x"]


def test_the_mutant_passes_the_equivalence_gate():
    from passcheck.mutations.equivalence import verify_equivalent

    m = model()
    mutant, _ = REWRITES[RID].apply(m, None)
    feeds = [{"x": np.arange(k * 2, dtype=np.float32).reshape(2, k)} for k in (2, 3)]
    verify_equivalent(m, mutant, feeds, RID)  # raises when the mutant fails the checker or computes otherwise


def test_a_pass_equating_unknown_dims_is_found_on_the_anonymous_inputs_only():
    from passcheck.engine import Subject, evaluate
    from passcheck.passes.isolation import executor_for

    _register()
    m = model()
    form = f"anonymous-output-dims+{RID}"
    assert form in withheld.forms(["anonymous-output-dims", RID])
    common, uncommon, _ = withheld.pair(m, form)
    assert dims(common.graph.input[0]) == [2, "C"] and dims(uncommon.graph.input[0]) == [None, None]
    with executor_for(None, timeout=60) as ex:
        alone = evaluate(Subject(id="anon/slice", forms={"common": common}, bindings=[{}]), [PASS_ID], executor=ex)
        assert not [f for c in alone for f in c.findings], alone
        cells = evaluate(
            Subject(id="anon/slice", forms={"common": common, form: uncommon}, bindings=[{}]), [PASS_ID], executor=ex
        )
    found = [f for c in cells for f in c.findings if c.form == form and f.oracle == "numeric"]
    assert found, cells
