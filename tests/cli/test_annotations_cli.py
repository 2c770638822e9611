"""passcheck annotations / show / export, in process through passcheck.cli.main."""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import parser

from passcheck.cli import main

GOOD = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x) => (float[N, 3] y) { h = Relu(x)  y = Neg(h) }"""


def _save(tmp_path, text, name="m.onnx", value_info=()):
    m = parser.parse_model(text)
    m.graph.value_info.extend(value_info)
    p = tmp_path / name
    onnx.save(m, p)
    return str(p)


def _vi(text):
    return parser.parse_graph(f"g ({text}) => (float u) {{ u = Identity(h) }}").input[0]


def test_all_hold_exit_0(tmp_path, capsys):
    assert main(["annotations", _save(tmp_path, GOOD), "--bind", "N=4"]) == 0
    out = capsys.readouterr().out
    assert "binding N=4" in out and "2 run(s)" in out and "every annotation was checked and holds" in out


def test_violations_exit_1_and_json(tmp_path, capsys):
    path = _save(tmp_path, GOOD, value_info=[_vi("float[N, 4] h")])
    js = tmp_path / "r.json"
    assert main(["annotations", path, "--json", str(js)]) == 1
    out = capsys.readouterr().out
    assert "VIOLATED" in out and "h: axis 1 annotated 4" in out
    data = json.loads(js.read_text())
    assert len(data["runs"]) == 2 and data["runs"][0]["violations"][0]["rule"] == "dim-value"


def test_reference_engine_sees_subgraphs(tmp_path, capsys):
    loop = """<ir_version: 8, opset_import: ["" : 18]>
    g (int64 trip, bool cond, float[N] x0) => (float[M] y) {
      y = Loop(trip, cond, x0) <body = body (int64 i, bool c, float[N] v) => (bool co, float[N] vo) {
          co = Identity(c)
          vo = Concat<axis=0>(v, v)
      }>
    }"""
    path = _save(tmp_path, loop)
    np.savez(tmp_path / "f.npz", trip=np.array(2, np.int64), cond=np.array(True), x0=np.ones(3, np.float32))
    assert (
        main(["annotations", path, "--feeds", str(tmp_path / "f.npz"), "--engine", "ort"]) == 1
    )  # not seen is not a pass
    out = capsys.readouterr().out
    assert "onnxruntime cannot expose subgraph values" in out and "were not checked" in out and "VIOLATED" not in out
    assert main(["annotations", path, "--feeds", str(tmp_path / "f.npz"), "--engine", "reference"]) == 1
    assert main(["annotations", path, "--feeds", str(tmp_path / "f.npz")]) == 1  # auto: the body's values too
    assert "VIOLATED" in capsys.readouterr().out


IF_MODEL = """<ir_version: 8, opset_import: ["" : 18]>
g (bool c, float[N] x) => (float[N] y) {
  y = If(c) <then_branch = t () => (float[K] a) { a = Identity(x) },
             else_branch = e () => (float[K] b) { b0 = Concat<axis=0>(x, x)  b = Identity(b0) }>
}"""


def _if_model(tmp_path):
    m = parser.parse_model(IF_MODEL)
    else_g = m.graph.node[0].attribute[1].g
    else_g.value_info.append(
        parser.parse_graph("g (float[N] b0) => (float u) { u = Identity(b0) }").input[0]
    )  # wrong: b0 is [2N]
    m.graph.output[0].type.tensor_type.ClearField("shape")  # the main graph holds; only the else branch is wrong
    p = tmp_path / "if.onnx"
    onnx.save(m, p)
    return str(p)


def test_if_branch_violation_exits_1_by_default(tmp_path, capsys):
    """Issue 11 item 2: a violation only inside an If branch is found by default (engine auto)."""
    path = _if_model(tmp_path)
    np.savez(tmp_path / "f.npz", c=np.array(False), x=np.ones(2, np.float32))
    assert main(["annotations", path, "--feeds", str(tmp_path / "f.npz")]) == 1
    out = capsys.readouterr().out
    assert "engine auto" in out and "VIOLATED" in out and "b0" in out


def test_branch_that_never_ran_is_not_a_failure(tmp_path, capsys):
    """A value of a branch that did not run has nothing to check: exit 0, and coverage says why."""
    path = _if_model(tmp_path)
    np.savez(tmp_path / "f.npz", c=np.array(True), x=np.ones(2, np.float32))
    js = tmp_path / "r.json"
    md = tmp_path / "r.md"
    assert (
        main(["annotations", path, "--feeds", str(tmp_path / "f.npz"), "--json", str(js), "--markdown", str(md)]) == 0
    )
    out = capsys.readouterr().out
    assert "| unobserved |" in md.read_text() and "never ran" in md.read_text()
    assert "never ran" in out and "every annotation was checked and holds" in out
    run = json.loads(js.read_text())["runs"][0]
    assert run["coverage"]["unobservable"] == 0 and run["coverage"]["unobserved"] >= 1


UNK = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x) => (float["?", "?"] y) { y = Transpose<perm=[1, 0]>(x) }"""


def test_unknown_dim_param_spelling(tmp_path, capsys):
    """Issue 11 item 6: '?' as a symbol conflicts (seed 000 default) and the finding names the
    convention; --unknown-dim-param makes matching names assert nothing."""
    path = _save(tmp_path, UNK)
    assert main(["annotations", path, "--bind", "N=4"]) == 1
    out = capsys.readouterr().out
    assert "'?' is bound to several sizes: the tool uses it for unknown dims" in out
    assert main(["annotations", path, "--bind", "N=4", "--unknown-dim-param", r"\?"]) == 0
    capsys.readouterr()
    assert main(["annotations", path, "--unknown-dim-param", "[unclosed"]) == 2
    assert "not a valid regex" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bind", "Q=3"], "no symbolic dim 'Q'"),
        (["--feeds", "missing.npz"], "no such file"),
        (["--feeds", "{wrong_dtype}"], "input annotations"),
        (["--feeds", "{wrong_rank}"], "input annotations"),
        (["--feeds", "{unknown_input}"], "does not have"),
    ],
)
def test_bad_input_exit_2_one_line(tmp_path, capsys, args, message):
    np.savez(tmp_path / "wrong_dtype.npz", x=np.ones((2, 3), np.int64))
    np.savez(tmp_path / "wrong_rank.npz", x=np.ones((2, 3, 1), np.float32))
    np.savez(tmp_path / "unknown_input.npz", x=np.ones((2, 3), np.float32), z=np.ones(1))
    args = [
        a.format(**{k: str(tmp_path / f"{k}.npz") for k in ("wrong_dtype", "wrong_rank", "unknown_input")})
        for a in args
    ]
    assert main(["annotations", _save(tmp_path, GOOD), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_rank_unknown_input_is_bad_input(tmp_path, capsys):
    m = parser.parse_model(GOOD)
    m.graph.input[0].type.tensor_type.ClearField("shape")
    onnx.save(m, tmp_path / "u.onnx")
    assert main(["annotations", str(tmp_path / "u.onnx")]) == 2
    assert "rank unknown" in capsys.readouterr().err


def test_show_every_kind_and_subgraphs(tmp_path, capsys):
    text = """<ir_version: 8, opset_import: ["" : 18]>
    g (float[1, N] x, seq(float[L]) s, optional(int64[?]) o, bool c) => (float[1, N] y) {
      y = If(c) <then_branch = t () => (float[1, N] a) { a = Identity(x) }, else_branch = e () => (float[1, N] b) { b = Neg(x) }>
    }"""
    path = _save(tmp_path, text)
    assert main(["show", path]) == 0
    out = capsys.readouterr().out
    for want in [
        'x: FLOAT [1, "N"]',
        's: seq(FLOAT ["L"])',
        "o: optional(INT64 [?])",
        "c: BOOL []",
        "subgraph If#0.then_branch",
        'a: FLOAT [1, "N"]',
    ]:
        assert want in out
    from passcheck.typestr import type_str

    tp = onnx.TypeProto()
    tp.map_type.key_type = onnx.TensorProto.INT64
    tp.map_type.value_type.tensor_type.elem_type = onnx.TensorProto.FLOAT
    assert type_str(tp) == "map(INT64, FLOAT)"
    sp = onnx.TypeProto()
    sp.sparse_tensor_type.elem_type = onnx.TensorProto.FLOAT
    sp.sparse_tensor_type.shape.dim.add().dim_param = "M"
    assert type_str(sp) == 'sparse(FLOAT ["M"])'
    op = onnx.TypeProto()
    op.opaque_type.domain, op.opaque_type.name = "com.x", "H"
    assert type_str(op) == "opaque(com.x.H)"


def test_export_then_check_with_feeds(tmp_path, capsys):
    assert main(["export", str(tmp_path), "--case", "shape/dynamic-1-3-output"]) == 0
    form = tmp_path / "shape/dynamic-1-3-output/common"
    assert (form / "test_data_set_1/input_0.pb").exists() and (form / "test_data_set_0/output_0.pb").exists()
    assert main(["annotations", str(form / "model.onnx"), "--feeds", str(form)]) == 0
    assert "set 1" in capsys.readouterr().out


STRINGS = """<ir_version: 8, opset_import: ["" : 19]>
g (string[N] x) => (bool[N] y) { t = Identity(x)  y = Equal(t, x) }"""


def test_string_inputs_are_fed_like_check(tmp_path, capsys):
    """STRING inputs go to onnxruntime as numpy (it makes no string OrtValues); feeds are check's."""
    from passcheck.api import check_model

    path = _save(tmp_path, STRINGS, value_info=[_vi("string[N] t")])
    assert main(["annotations", path, "--json", str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "every annotation was checked and holds" in out and "3 checked" in out
    assert check_model(path, ["ort:disabled"]).exit_code == 0


def test_annotations_feeds_are_checks_feeds(tmp_path):
    from passcheck.cli.annotations import feed_sets
    from passcheck.engine import feeds_for
    from passcheck.runtime import default_bindings

    path = _save(tmp_path, GOOD, name="mine.onnx")
    m = onnx.load(path)
    ours = [f for _label, f in feed_sets(m, None, {}, path)]
    theirs = feeds_for(m, "model/mine", default_bindings(m))
    assert len(ours) == len(theirs) == 2
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a["x"], b["x"])
