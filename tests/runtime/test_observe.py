"""observe(): ORT fast path (annotated intermediates as extra outputs) and the reference engine."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import parser

from passcheck.errors import PasscheckError
from passcheck.runtime.observe import RunFailed, observe

M = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (double[N] y) {
  h = Relu(x)
  k = Neg(h)
  y = Identity(k)
}""")
M.graph.value_info.extend(parser.parse_graph("g (float[N] h) => (float[N] u) { u = Identity(h) }").input)


@pytest.mark.parametrize("engine", ["ort", "reference"])
def test_observes_annotated_values_despite_wrong_output_type(engine):
    observed, unobservable = observe(M, {"x": np.ones(2, np.float32)}, engine)
    assert {"x", "h", "y"} <= set(observed) and unobservable == {}
    assert observed["h"].shape == (2,) and observed["y"].dtype == np.float32


def test_ort_exposes_only_annotated_values():
    observed, _ = observe(M, {"x": np.ones(2, np.float32)}, "ort")
    assert "k" not in observed


def test_errors():
    with pytest.raises(PasscheckError, match="unknown engine"):
        observe(M, {}, "tvm")
    with pytest.raises(RunFailed, match="onnxruntime could not run"):
        observe(M, {"x": np.ones(2, np.int64)}, "ort")


def _with_value_info(text: str, opset: int = 18, ir: int = 8):
    """A model whose every intermediate is annotated (by onnx shape inference)."""
    import onnx

    m = parser.parse_model(f'<ir_version: {ir}, opset_import: ["" : {opset}]>\n' + text)
    return onnx.shape_inference.infer_shapes(m, strict_mode=True)


def _exposed(model, feeds):
    """Ground truth: every annotated main-graph value exposed and copied to numpy (plain session)."""
    from passcheck.runtime import all_node_outputs, run_ort

    r = run_ort(model, feeds, expose=all_node_outputs(model))
    assert r.error is None
    return {k: (tuple(v.shape), v.dtype) for k, v in r.observed.items()}


MULTI = """g (float[N, 4] x) => (float[N, 2] y) {
  a, b = Split <axis = 1, num_outputs = 2> (x)
  k = Constant <value = int64[1] {1}> ()
  v, i = TopK <axis = 1> (a, k)
  c = Concat <axis = 1> (v, b)
  n = NonZero (c)
  s = Shape (n)
  y = Neg (b)
}"""


def test_ort_fast_path_observes_every_intermediate_without_exposing(monkeypatch):
    import passcheck.runtime.observe as obs
    import passcheck.runtime.profile as prof

    m = _with_value_info(MULTI)
    feeds = {"x": np.arange(12, dtype=np.float32).reshape(3, 4) - 5}
    added = []
    real_copy = prof.observation_copy
    monkeypatch.setattr(
        prof, "observation_copy", lambda model, expose: (lambda r: (added.extend(r[1]), r)[1])(real_copy(model, expose))
    )
    monkeypatch.setattr(obs, "_run_exposed", lambda *a, **k: pytest.fail("fell back to exposing every value"))
    observed, _ = observe(m, feeds, "ort")
    truth = _exposed(m, feeds)
    annotated = {vi.name for vi in m.graph.value_info}
    assert annotated == {"a", "b", "k", "v", "i", "c", "n", "s"}
    assert added == ["k"]  # only the Constant output, which onnxruntime turns into an initializer
    for name in annotated | {"y"}:
        assert (observed[name].shape, observed[name].dtype) == truth[name], name
    x = feeds["x"]
    assert observed["n"].shape == (
        2,
        int(np.count_nonzero(np.concatenate([x[:, :2].max(1, keepdims=True), x[:, 2:]], 1))),
    )


def test_ort_fast_path_reports_violations_like_exposure():
    from passcheck.oracles.shape_annotations import check

    m = _with_value_info(MULTI)
    for vi in m.graph.value_info:
        if vi.name == "c":
            vi.type.tensor_type.shape.dim[1].dim_value = 7
        if vi.name == "i":
            vi.type.tensor_type.elem_type = 6  # INT32, the run produces INT64
    rep = check(m, observe(m, {"x": np.ones((2, 4), np.float32)}, "ort")[0])
    assert sorted((v.value, v.rule) for v in rep.violations) == [("c", "dim-value"), ("i", "elem-type")]
    assert rep.checked == rep.annotated


def test_ort_rewritten_graph_falls_back_to_exposure():
    """onnxruntime runs float16 Sin in float32 between inserted casts: the profile must not be believed."""
    from passcheck.oracles.shape_annotations import check

    m = _with_value_info("""g (float16[N] x) => (float16[N] y) {
  h = Sin (x)
  y = Relu (h)
}""")
    observed, _ = observe(m, {"x": np.ones(3, np.float16)}, "ort")
    assert observed["h"].dtype == np.float16 and observed["h"].shape == (3,)
    assert check(m, observed).ok


@pytest.mark.parametrize("elem", ["BFLOAT16", "FLOAT8E4M3FN", "INT4", "UINT8", "BOOL", "STRING", "DOUBLE"])
def test_ort_profile_element_types(elem):
    import onnx

    to = onnx.TensorProto.DataType.Value(elem)
    m = _with_value_info(
        f"""g (float[N] x) => (float[N] y) {{
  c = Cast <to = {to}> (x)
  y = Relu (x)
}}""",
        opset=21,
        ir=10,
    )
    observed, _ = observe(m, {"x": np.ones(3, np.float32)}, "ort")
    assert observed["c"].dtype == onnx.helper.tensor_dtype_to_np_dtype(to) and observed["c"].shape == (3,)


def sequence_annotated_as_tensor():
    """A model whose sequence ``s`` carries a tensor annotation (a ``kind`` violation in every run)."""
    m = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) {
  s = SequenceConstruct (x, x)
  y = SequenceAt (s, zero)
  zero = Constant <value = int64 {0}> ()
}""")
    m.graph.value_info.extend(parser.parse_graph("g (float[N] s) => (float[N] u) { u = Identity(s) }").input)
    return m


def test_ort_tensor_annotation_on_a_sequence_is_a_kind_violation():
    from passcheck.oracles.shape_annotations import check

    m = sequence_annotated_as_tensor()
    rep = check(m, observe(m, {"x": np.ones(2, np.float32)}, "ort")[0])
    assert [(v.value, v.rule) for v in rep.violations] == [("s", "kind")]


def test_ort_profile_files_removed_and_errors_name_user_nodes(tmp_path, monkeypatch):
    import tempfile

    import onnx

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    observe(M, {"x": np.ones(2, np.float32)}, "ort")
    with pytest.raises(RunFailed, match="Unexpected input data type"):
        observe(M, {"x": np.ones(2, np.int64)}, "ort")
    bad = onnx.ModelProto()
    bad.CopyFrom(M)
    bad.graph.node[1].op_type, bad.graph.node[1].name = "NoSuchOp", "my_neg"
    with pytest.raises(RunFailed, match=r'\("my_neg", NoSuchOp'):
        observe(bad, {"x": np.ones(2, np.float32)}, "ort")
    assert list(tmp_path.iterdir()) == []


def test_the_kernel_outputs_read_once_per_model_are_those_of_the_model_asked_about():
    """Mutant killed: ``_KERNELS[0] == model_key`` → ``<=`` in ``observe._kernel_outputs``, which handed the
    last model's node outputs to any model whose digest sorts after it (the profile is then mapped to the
    wrong nodes)."""
    import hashlib

    from passcheck.runtime import observe as observe_mod

    relu = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { y = Relu (x) }""")
    two = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { h = Neg (x) y = Abs (h) }""")
    first, second = sorted((relu, two), key=lambda m: hashlib.sha256(m.SerializeToString()).digest())
    for m in (first, second, second, first):
        key = hashlib.sha256(m.SerializeToString()).digest()
        assert observe_mod._kernel_outputs(m, key) == observe_mod._kernel_outputs(m)


def test_an_observation_plan_cannot_be_changed_once_made():
    """Mutant killed: ``frozen=True`` → ``False`` on ``ObservationPlan``. A plan is kept and shared (the
    engine keeps it by model digest, ``engine._PLANS``, for later runs of the same model): none may
    reassign its fields."""
    import dataclasses

    from passcheck.runtime.plan import ObservationPlan

    plan = ObservationPlan(requests={"numeric": ("h",)})
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.requests = {}
    assert plan.requests == {"numeric": ("h",)}


def test_a_failure_inside_a_subgraph_names_the_subgraph_node_as_the_user_wrote_it():
    """A model whose If branch fails in onnxruntime, read through the profile (an annotated main-graph
    value): the session copy tags subgraph nodes ``passcheck.sub.<i>`` and the failure names them back.
    The uncovered mutant on that line (``m.group(1)`` → ``m.group(2)``) showed the line never ran: it
    raised AttributeError (``_prof.SUB_TAGGED``, a name profile.py does not have), a crash instead of RunFailed."""
    import onnx

    m = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x, bool c, int64[2] s) => (float[?, ?] y) {
  h = Relu (x)
  y = If (c) <then_branch = g1 () => (float[?, ?] t) { t = Reshape (h, s) },
              else_branch = g2 () => (float[?, ?] e) { e = Reshape (h, s) }>
}""")
    m.graph.node[1].attribute[0].g.node[0].name = "then_reshape"
    m.graph.value_info.append(onnx.helper.make_tensor_value_info("h", onnx.TensorProto.FLOAT, [6]))
    feeds = {"x": np.ones(6, np.float32), "c": np.array(True), "s": np.array([4, 4], np.int64)}
    with pytest.raises(RunFailed, match=r"Reshape node\. Name:'then_reshape'") as err:
        observe(m, feeds, "ort")
    assert "passcheck.sub." not in str(err.value)


def test_every_graph_of_a_graphs_attribute_is_a_scope_of_its_own():
    """``plan.graph_scopes`` walks GRAPHS attributes as GRAPH ones, one scope per graph (``[i]``)
    (kills ``kind != graphs`` → ``==``, which skipped them; no standard op has one, a custom op may)."""
    import onnx
    from onnx import helper

    from passcheck.runtime.plan import graph_scopes

    def body(name):
        return helper.make_graph([helper.make_node("Neg", ["a"], ["b"])], name, [], [])

    custom = helper.make_node("Loops", ["x"], ["y"], name="n", domain="my.ops")
    custom.attribute.append(helper.make_attribute("bodies", [body("b0"), body("b1")]))
    assert custom.attribute[0].type == onnx.AttributeProto.GRAPHS
    g = helper.make_graph([custom], "g", [], [])
    assert [(scope, graph.name) for scope, graph in graph_scopes(helper.make_model(g))] == [
        ("", "g"),
        ("n.bodies[0]", "b0"),
        ("n.bodies[1]", "b1"),
    ]


def _optional_in_if(branch_shape: str):
    # found by a hunt (node-in-if-const on generated/optionalgetelement-15.shape): the branch holds an
    # OptionalGetElement of an Optional tensor; onnx.reference's Optional returns [x] and OptionalGetElement
    # passes the list on, so the branch output read as a list where onnxruntime gives the tensor
    then = f"then () => (float{branch_shape} t) {{ t = OptionalGetElement(o) }}"
    other = "other () => (float[2,3] e) { e = OptionalGetElement(o) }"
    return parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 15]>
g (float[2,3] x) => (float[2,3] y) <bool c = {{1}}> {{
  o = Optional(x)
  y = If(c) <then_branch = {then}, else_branch = {other}>
}}""")


@pytest.mark.parametrize(
    ("engine", "shape", "code"),
    [("reference", "[2,3]", 0), ("auto", "[2,3]", 0), ("reference", "[9]", 1)],  # [9]: a wrong annotation, caught
)
def test_an_optional_tensor_passed_on_in_a_branch_is_observed_as_the_tensor(tmp_path, engine, shape, code):
    import onnx

    from tests._inproc import cli

    path = tmp_path / "m.onnx"
    onnx.save(_optional_in_if(shape), path)
    done = cli("annotations", path, "--engine", engine, "-q")
    assert done.returncode == code, done.stdout + done.stderr
    assert "produced a list" not in done.stdout
