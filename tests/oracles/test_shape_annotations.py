"""The annotation checker on real runs: every rule of seed 000, every kind of seed 001."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnx.helper as oh
import pytest
from onnx import TensorProto, parser

from passcheck.oracles import shape_annotations as sa
from passcheck.runtime import run_ort
from passcheck.runtime.feed_files import SparseValue
from passcheck.runtime.observe import observe


def _model(text: str, opset: int = 18) -> onnx.ModelProto:
    return parser.parse_model(f'<ir_version: 8, opset_import: ["" : {opset}]>\n' + text)


def _run(m, feeds, engine="ort"):
    observed, unobservable = observe(m, feeds, engine)
    return sa.check(m, observed, unobservable=unobservable)


def _type(text: str) -> onnx.TypeProto:
    """A TypeProto from ONNX textual syntax, e.g. ``float[N, 3]``."""
    return parser.parse_graph(f"g ({text} t) => ({text} u) {{ u = Identity(t) }}").input[0].type


RELU = """g (float[N, 3] x) => (float{out} y) {{
  h = Relu(x)
  y = Identity(h)
}}"""


def _relu(out: str, h: str | None = None) -> onnx.ModelProto:
    m = _model(RELU.format(out=out))
    if not out:
        m.graph.output[0].type.tensor_type.ClearField("shape")  # rank unknown
    if h is not None:
        m.graph.value_info.append(onnx.helper.make_value_info("h", _type(h) if h else onnx.TypeProto()))
    return m


X = {"x": np.ones((2, 3), np.float32)}


@pytest.mark.parametrize("engine", ["ort", "reference"])
@pytest.mark.parametrize(
    ("out", "ok", "rule"),
    [
        ("", True, None),  # rank unknown (no shape) passes
        ("[N, 3]", True, None),  # symbol agrees with the input binding
        ("[2, 3]", True, None),  # dim_value equal
        ("[?, 3]", True, None),  # anonymous dim asserts nothing
        ("[N]", False, "rank"),  # rank mismatch fails
        ("[3, 3]", False, "dim-value"),  # dim_value differs
        ("[M, M]", False, "symbol"),  # M bound to 2 and 3 in one run
        ("[N, N]", False, "symbol"),  # N bound by the input to 2; axis 1 is 3
    ],
)
def test_seed_000_rules(engine, out, ok, rule):
    rep = _run(_relu(out), X, engine)
    assert rep.ok is ok, [v.message for v in rep.violations]
    if rule:
        assert {v.rule for v in rep.violations} == {rule}
        assert all(v.role == "assertion" for v in rep.violations)
    assert rep.checked == rep.annotated == 2


def test_elem_type_is_checked():
    rep = _run(_model("g (float[N] x) => (double[N] y) { y = Relu(x) }"), {"x": np.ones(2, np.float32)})
    assert [v.rule for v in rep.violations] == ["elem-type"]


def test_precondition_vs_assertion():
    m = _relu("[N, 3]")
    rep = sa.check(m, {"x": np.ones((2, 4), np.float32), "y": np.ones((2, 4), np.float32)})
    roles = {(v.value, v.role) for v in rep.violations}
    assert ("x", "precondition") in roles and rep.bad_input
    # the symbol is bound by the inputs: an output that disagrees is the model's fault
    rep = sa.check(m, {"x": np.ones((2, 3), np.float32), "y": np.ones((5, 3), np.float32)})
    assert [(v.value, v.role, v.rule) for v in rep.violations] == [("y", "assertion", "symbol")]
    assert not rep.bad_input


def test_all_violations_and_every_occurrence():
    m = _relu("[M, 7]", "float[3, M]")
    rep = _run(m, X)
    rules = sorted(v.rule for v in rep.violations)
    assert rules == ["dim-value", "dim-value", "symbol"]  # not only the first
    sym = next(v for v in rep.violations if v.rule == "symbol")
    assert [(o.value, o.axis, o.size) for o in sym.occurrences] == [("h", 1, 3), ("y", 0, 2)]


def test_order_independence():
    """Same verdict and same violations whatever order annotations and values are checked in."""
    base = _model("""g (float[N, 3] x) => (float[N, 3] y, float[K] z) {
      a = Relu(x)
      b = Neg(a)
      y = Identity(b)
      r = Reshape(x, s)
      z = Identity(r)
    }""")
    base.graph.initializer.append(onnx.numpy_helper.from_array(np.array([-1], np.int64), "s"))
    for name, t in [("a", "float[K, 3]"), ("b", "float[N, K]"), ("r", "float[N]")]:
        base.graph.value_info.append(oh.make_value_info(name, _type(t)))
    observed, _ = observe(base, X)
    want = sa.check(base, observed)
    assert not want.ok
    rnd = random.Random(0)
    for _ in range(6):
        m = onnx.ModelProto()
        m.CopyFrom(base)
        vis = list(m.graph.value_info)
        rnd.shuffle(vis)
        del m.graph.value_info[:]
        m.graph.value_info.extend(vis)
        items = list(observed.items())
        rnd.shuffle(items)
        got = sa.check(m, dict(items))
        assert [v.to_json() for v in got.violations] == [v.to_json() for v in want.violations]
        assert got.binding == want.binding


def test_sequence_elements_share_the_binding_map():
    m = _model("""g (float[N] a, float[M] b) => (seq(float[N]) s) { s = SequenceConstruct(a, b) }""")
    ok = _run(m, {"a": np.ones(2, np.float32), "b": np.ones(2, np.float32)})
    assert ok.ok and ok.checked == 3
    bad = _run(m, {"a": np.ones(2, np.float32), "b": np.ones(3, np.float32)})
    assert [(v.value, v.rule) for v in bad.violations] == [("s[1]", "symbol")]


def test_optional_absent_passes_present_checked():
    m = _model("""g (float[N] a) => (optional(float[3]) o) { o = Optional(a) }""")
    assert _run(m, {"a": np.ones(3, np.float32)}).ok
    bad = _run(m, {"a": np.ones(2, np.float32)})
    assert [v.rule for v in bad.violations] == ["dim-value"]
    tp = _type("optional(float[3])")
    empty = oh.make_model(oh.make_graph([], "g", [], [oh.make_value_info("o", tp)]))
    assert sa.check(empty, {"o": None}).ok


def test_map_key_and_value_types():
    tp = onnx.TypeProto()
    tp.map_type.key_type = TensorProto.STRING
    tp.map_type.value_type.tensor_type.elem_type = TensorProto.FLOAT
    g = oh.make_graph([], "g", [], [oh.make_value_info("m", tp)])
    model = oh.make_model(g)
    assert sa.check(model, {"m": {"a": 1.0, "b": np.float32(2)}}).ok
    rep = sa.check(model, {"m": {3: 1.0, "b": "text"}})
    assert sorted(v.rule for v in rep.violations) == ["elem-type", "key-type"]


def test_map_from_onnxruntime_zipmap():
    """A real map value: ai.onnx.ml ZipMap gives seq(map(STRING, FLOAT))."""
    m = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 3]>
    g (float[N, 2] x) => (seq(map(string, float)) z) { z = ai.onnx.ml.ZipMap<classlabels_strings = ["a", "b"]>(x) }""")
    rep = _run(m, {"x": np.ones((3, 2), np.float32)})
    assert rep.ok and rep.checked == 2
    m.graph.output[0].type.sequence_type.elem_type.map_type.key_type = TensorProto.INT64
    assert {v.rule for v in _run(m, {"x": np.ones((3, 2), np.float32)}).violations} == {"key-type"}


def test_sparse_tensor_dense_shape_and_elem_type():
    tp = onnx.TypeProto()
    tp.sparse_tensor_type.elem_type = TensorProto.FLOAT
    tp.sparse_tensor_type.shape.dim.add().dim_value = 4
    tp.sparse_tensor_type.shape.dim.add().dim_param = "N"
    model = oh.make_model(oh.make_graph([], "g", [], [oh.make_value_info("s", tp)]))
    good = SparseValue(np.ones(2, np.float32), np.array([0, 5]), (4, 3))
    assert sa.check(model, {"s": good}).ok
    bad = SparseValue(np.ones(2, np.int32), np.array([0, 5]), (5, 3))
    assert sorted(v.rule for v in sa.check(model, {"s": bad}).violations) == ["dim-value", "elem-type"]
    assert [v.rule for v in sa.check(model, {"s": np.ones((4, 3), np.float32)}).violations] == ["kind"]


def test_opaque_is_counted_unchecked():
    tp = onnx.TypeProto()
    tp.opaque_type.domain, tp.opaque_type.name = "com.example", "Handle"
    model = oh.make_model(oh.make_graph([], "g", [], [oh.make_value_info("h", tp)]))
    rep = sa.check(model, {"h": object()})
    assert rep.ok and rep.checked == 0 and rep.unchecked == {"h": sa.OPAQUE}


LOOP = """g (int64 trip, bool cond, float[N] x0) => (float[{out}] y) {{
  y = Loop(trip, cond, x0) <body = body (int64 i, bool c, float[N] v) => (bool co, float[N] vo) {{
      co = Identity(c)
      vo = {step}
  }}>
}}"""
LOOP_FEEDS = {"trip": np.array(2, np.int64), "cond": np.array(True), "x0": np.ones(3, np.float32)}


def test_subgraph_symbols_are_global():
    grows = _model(LOOP.format(out="M", step="Concat<axis=0>(v, v)"))
    rep = _run(grows, LOOP_FEEDS, "reference")
    bad = {v.value for v in rep.violations}
    assert {"Loop#0.body::v#1", "Loop#0.body::vo#0", "Loop#0.body::vo#1"} <= bad
    assert all(v.rule == "symbol" and v.role == "assertion" for v in rep.violations)
    steady = _model(LOOP.format(out="N", step="Neg(v)"))
    rep = _run(steady, LOOP_FEEDS, "reference")
    assert rep.ok and rep.unobserved == {} and rep.checked == rep.annotated == 9


def test_subgraph_value_cannot_be_observed_by_ort():
    grows = _model(LOOP.format(out="M", step="Concat<axis=0>(v, v)"))
    rep = _run(grows, LOOP_FEEDS, "ort")
    assert rep.ok  # nothing observed inside the body: never reported as checked
    assert rep.checked == 4 and len(rep.unobserved) == 5
    assert all("subgraph" in why and "--engine reference" in why for why in rep.unobserved.values())


def test_function_values_share_symbols():
    m = parser.parse_model("""<ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[N] x) => (float[N] y) { y = local.twice(x) }
    <domain: "local", opset_import: ["" : 18]>
    twice (a) => (b) { t = Concat<axis=0>(a, a)  b = Identity(t) }""")
    m.functions[0].value_info.append(oh.make_tensor_value_info("t", TensorProto.FLOAT, ["N"]))
    rep = _run(m, {"x": np.ones(2, np.float32)}, "reference")
    assert {v.value for v in rep.violations} >= {"function local.twice::t#0"}
    ort = _run(m, {"x": np.ones(2, np.float32)}, "ort")
    assert "function local.twice::t" in ort.unobserved


def test_value_not_produced_is_unobserved_not_checked():
    m = _relu("[N, 3]", "float[N, 3]")
    rep = sa.check(m, {"x": X["x"]}, unobservable={"h": "engine could not expose it"})
    assert rep.checked == 1 and rep.unobserved == {"h": "engine could not expose it", "y": "not produced in this run"}


def test_run_ort_values_feed_the_oracle():
    """The engine's observation (every node output through ORT) works with check()."""
    m = _relu("[3, 3]", "float[N, 3]")
    r = run_ort(m, X, expose=["h", "y"])
    assert [v.rule for v in sa.check(m, r.observed).violations] == ["dim-value"]


def test_a_float8e4m3fn_value_read_back_as_bytes_holds_its_annotation():
    """onnxruntime's Python API returns a float8e4m3fn tensor as its bytes (numpy uint8): the element type it states
    is the annotated one; a value of another one-byte type (int8) still breaks it (round 15c)."""
    text = """g (float[N] x) => (float[N] y) {{
      c = Cast<to = {to}, saturate = 0>(x)
      y = Cast<to = 1>(c)
    }}"""
    m = _model(text.format(to=TensorProto.FLOAT8E4M3FN), opset=19)
    m.graph.value_info.append(oh.make_tensor_value_info("c", TensorProto.FLOAT8E4M3FN, ["N"]))
    r = run_ort(m, {"x": np.array([1.0, 1000.0], np.float32)}, expose=["c", "y"])
    assert r.observed["c"].dtype == np.uint8  # the runtime's spelling
    assert sa.check(m, r.observed).violations == []
    wrong = _model(text.format(to=TensorProto.INT8).replace(", saturate = 0", ""), opset=19)
    wrong.graph.value_info.append(oh.make_tensor_value_info("c", TensorProto.FLOAT8E4M3FN, ["N"]))
    r = run_ort(wrong, {"x": np.array([1.0, 2.0], np.float32)}, expose=["c", "y"])
    assert [v.rule for v in sa.check(wrong, r.observed).violations] == ["elem-type"]
