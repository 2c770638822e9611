"""Annotation-check behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on real
onnxruntime observations (``passcheck.runtime.observe``)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
from onnx import TensorProto, parser

from passcheck.oracles import shape_annotations as sa
from passcheck.runtime.observe import observe
from passcheck.runtime.plan import Observed

#: ``y`` keeps ``x``'s length N, or a fixed ``{out}`` where a pass output states one.
RELU = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[{out}] y) {{ y = Relu (x) }}"""
X = {"x": np.array([-1.0, 2.0, 3.0], np.float32)}


def test_observations_carrying_another_models_plan_are_checked_against_the_models_own():
    """Mutants killed: ``is not model`` → ``is`` and ``or`` → ``and`` in ``check``'s plan choice: the plan
    an :class:`Observed` carries for the model it was observed on was used for another model (a pass
    output annotating ``y`` as ``[5]``), whose annotation then went unchecked."""
    common = parser.parse_model(RELU.format(out="N"))
    observed, unobservable = observe(common, X, "ort")
    assert isinstance(observed, Observed) and observed.of is common
    assert sa.check(common, observed, unobservable=unobservable).ok
    stated = parser.parse_model(RELU.format(out="5"))
    report = sa.check(stated, observed, unobservable=unobservable)
    assert [(v.value, v.rule) for v in report.violations] == [("y", "dim-value")], report.violations


def test_observations_of_the_model_without_a_plan_get_the_models_plan():
    """Mutants killed: ``not isinstance(plan, AnnotationPlan)`` → ``not not …`` or ``isinstance(…)`` in
    ``check``: an :class:`Observed` of this very model that carries no plan (``plan=None``, as
    ``completion`` copies one from a plain dict) was checked with no plan at all."""
    model = parser.parse_model(RELU.format(out="5"))
    observed, unobservable = observe(model, X, "ort")
    bare = Observed(dict(observed), of=model)
    assert bare.plan is None
    report = sa.check(model, bare, unobservable=unobservable)
    assert report.checked == 2 and [(v.value, v.rule) for v in report.violations] == [("y", "dim-value")]


def test_an_output_smaller_than_its_symbols_input_binding_is_a_violation():
    """Mutant killed: ``o.size != bound`` → ``o.size > bound`` in ``_symbol_violations``: an output
    annotated ``N`` that came out shorter than the input bound ``N`` to passed."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) <int64[1] s = {1}, int64[1] e = {100}> { y = Slice (x, s, e) }""")
    observed, unobservable = observe(model, X, "ort")
    (v,) = sa.check(model, observed, unobservable=unobservable).violations
    assert (v.value, v.role, v.rule) == ("y", sa.ASSERTION, "symbol")
    assert v.message.startswith("y: axis 0 annotated 'N', bound to 3 by the inputs, run produced 2"), v.message


def test_a_map_where_a_sparse_tensor_is_annotated_is_a_kind_violation():
    """Mutant killed: ``dense is None or vals is None`` → ``and`` in ``_sparse_parts``: a value with a
    ``values`` attribute but no ``dense_shape`` (a map: ZipMap's dict, which onnxruntime returns) was
    read as a sparse tensor, and the check raised instead of reporting the kind."""
    zipmap = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 3]>
g (float[1, 2] x) => (seq(map(string, float)) z) { z = ai.onnx.ml.ZipMap <classlabels_strings = ["a", "b"]> (x) }""")
    observed, _ = observe(zipmap, {"x": np.ones((1, 2), np.float32)}, "ort")
    (the_map,) = observed["z"]
    assert isinstance(the_map, dict)
    sparse = onnx.TypeProto()
    sparse.sparse_tensor_type.elem_type = TensorProto.FLOAT
    model = oh.make_model(oh.make_graph([], "g", [], [oh.make_value_info("s", sparse)]))
    (v,) = sa.check(model, {"s": the_map}).violations
    assert (v.rule, v.message) == ("kind", "s: annotated as a sparse tensor but the run produced a dict")


def test_a_python_int_is_of_any_integer_element_type_signed_or_not():
    """Mutant killed: ``{want.kind, got.kind} <= set("iu")`` → ``<`` in ``_dtype_ok``: a map value that
    arrives as a Python int (numpy reads it as int64, kind ``i``) where the map's values are declared
    uint64 (kind ``u``) was an elem-type violation; a runtime's Python scalar says its kind, not its width
    or signedness."""
    tp = parser.parse_graph("g (map(int64, uint64) m) => (map(int64, uint64) n) { n = Identity (m) }").input[0].type
    model = oh.make_model(oh.make_graph([], "g", [], [oh.make_value_info("m", tp)]))
    assert sa.check(model, {"m": {1: 2, 3: 4}}).ok
    assert [v.rule for v in sa.check(model, {"m": {1: 2.5}}).violations] == ["elem-type"]


STATIC = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => ({out} y) {{ y = {op} (x) }}"""


def test_a_profiled_tensor_of_the_annotated_shape_but_another_dtype_is_a_violation():
    """Mutant killed: ``value.dtype is rule[0]`` → ``is not`` in ``check``'s shortcut for profiled tensors
    matching a fully static annotation: a tensor of the annotated shape was let through whatever its dtype."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y) {
  h = Relu (x)
  y = Identity (h)
}""")
    model.graph.value_info.append(oh.make_tensor_value_info("h", TensorProto.INT32, [2, 3]))
    observed, unobservable = observe(model, {"x": np.ones((2, 3), np.float32)}, "ort")
    assert type(observed["h"]).__name__ == "TensorMeta"  # read from onnxruntime's profile
    report = sa.check(model, observed, unobservable=unobservable)
    assert [(v.value, v.rule, v.message) for v in report.violations] == [
        ("h", "elem-type", "h: annotated elem_type INT32, run produced float32")
    ]


def test_a_profiled_tensor_where_the_model_checked_annotates_a_sequence_is_a_kind_violation():
    """Mutant killed: ``rule is not None`` → ``is None`` in that shortcut: a tensor observed on one model
    (onnxruntime's profile: a TensorMeta) checked against a model annotating the value as a sequence
    (no tensor rule) raised instead of reporting the kind."""
    tensors = parser.parse_model(STATIC.format(out="float[2, 3]", op="Relu"))
    observed, _ = observe(tensors, {"x": np.ones((2, 3), np.float32)}, "ort")
    sequence = parser.parse_model(STATIC.format(out="seq(float[2, 3])", op="SequenceConstruct"))
    (v,) = sa.check(sequence, observed).violations
    assert (v.value, v.rule, v.message) == ("y", "kind", "y: annotated as a sequence but the run produced a TensorMeta")


def test_a_profiled_scalar_where_a_tensor_of_symbolic_dims_is_annotated_is_a_rank_violation():
    """Mutant killed: ``value.shape == rule[2]`` (the exact shape) → ``rule[3]`` (the fixed dims: none for
    ``float[N]``) in ``check``'s shortcut for profiled tensors: a scalar's empty shape equals the empty
    tuple of fixed dims, and the rank-0 value annotated rank 1 was let through."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float y) {
  h = ReduceSum <keepdims = 0> (x)
  y = Identity (h)
}""")
    model.graph.value_info.append(oh.make_tensor_value_info("h", TensorProto.FLOAT, ["N"]))
    observed, unobservable = observe(model, {"x": np.ones((2, 3), np.float32)}, "ort")
    assert type(observed["h"]).__name__ == "TensorMeta" and observed["h"].shape == ()
    (v,) = sa.check(model, observed, unobservable=unobservable).violations
    assert (v.value, v.rule) == ("h", "rank"), v
