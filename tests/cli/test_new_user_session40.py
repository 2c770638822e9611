"""Round 19j (session 40): rough edges a new user met, each with the test that failed before its fix."""

from __future__ import annotations

from passcheck.hunt.passes import DECLARED, UNREACHED, PassPlan


def test_passes_missing_for_one_reason_share_one_line():
    """A fresh ``pip install .`` has no onnxoptimizer: ``passcheck hunt`` printed one line per
    ``onnxoptimizer:pass-NAME`` (21 lines of the same reason in a 2-minute hunt); one line per reason now."""
    why = "onnxoptimizer is not installed (pip install onnxoptimizer)"
    names = [f"onnxoptimizer:pass-{n}" for n in ("a", "b", "c", "d", "e")]
    plan = PassPlan(
        ["ort:basic"],
        unavailable={**dict.fromkeys(names, why), "onnxsim:simplify": "onnxsim is not installed"},
        wanted={
            **{n: (DECLARED, [f"pattern/{n[-1]}"]) for n in names},
            "onnxsim:simplify": (UNREACHED, ["x/one", "x/two"]),
        },
    )
    lines = plan.unavailable_lines()
    assert len(lines) == 2, lines
    grouped, single = lines
    assert grouped.count(why) == 1
    assert grouped.startswith("5 passes not searched, they cannot run here (onnxoptimizer is not installed")
    assert "onnxoptimizer:pass-a, onnxoptimizer:pass-b, onnxoptimizer:pass-c, onnxoptimizer:pass-d, …" in grouped
    assert grouped.endswith("wanted by 5 cases (pattern/a, pattern/b, pattern/c, …)")
    assert single == (
        "pass onnxsim:simplify not searched, it cannot run here (onnxsim is not installed): "
        "no entry reached: searched on all observed cases, wanted by 2 cases (x/one, x/two)"
    )


RESHAPE_CASE = """
from onnx import TensorProto, helper
from passcheck.cases import Case, Form, register

X = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3, 4]) for n in ("a", "b")]
Y = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
SHAPE = helper.make_tensor("shape", TensorProto.INT64, [3], [2, 3, 4])


def _model(nodes, inits=()):
    m = helper.make_model(helper.make_graph(nodes, "g", X, Y, list(inits)), opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def common():
    return _model([
        helper.make_node("Shape", ["b"], ["s"]),
        helper.make_node("Reshape", ["a", "s"], ["y"]),
    ])


def uncommon():
    return _model([helper.make_node("Reshape", ["a", "shape"], ["y"])], [SHAPE])


register(Case(
    id="nu40/reshape-to-shape",
    forms={"common": Form(common), "uncommon": Form(uncommon, "the target shape as an initializer")},
    doc="Reshape of a to b's shape, computed in the common form (no data propagation: its dims are unknown).",
    opset=17,
    passes=("onnx:infer-shapes",),
))
"""


def test_a_pair_finding_on_common_keeps_common_in_common_onnx(tmp_path):
    """onnx shape inference without data propagation types a Reshape to a computed shape [?, ?, ?] and one to a
    constant shape [2, 3, 4]: the parity finding sits on ``common`` (the session-40 case, ConcatFromSequence vs
    Concat, is no finding since a sequence's type cannot carry the concatenated dim:
    tests/oracles/test_parity_sequence_dims.py). ``repro`` wrote the finding's form as ``uncommon.onnx`` and the
    other as ``common.onnx``, while REPORT.md said "[2, unk__0, 4] in 'common'": a maintainer loading common.onnx
    saw [2, 6, 4]."""
    import json

    import onnx

    from passcheck.cli import main

    mod = tmp_path / "nu40_cases.py"
    mod.write_text(RESHAPE_CASE)
    report = tmp_path / "r.json"
    args = ["--cases-from", str(mod)]
    rc = main(["run", *args, "--case", "nu40/reshape-to-shape", "--pass", "onnx:infer-shapes", "--json", str(report)])
    assert rc == 1
    (fid,) = [
        f["id"]
        for cell in json.loads(report.read_text())["results"]
        for f in cell["findings"]
        if f["oracle"] == "parity" and f["kind"] == "less-precise"
    ]
    assert fid.startswith("nu40/reshape-to-shape:common|"), fid
    out = tmp_path / "out"
    assert main(["repro", str(report), *args, "--finding", fid, "--out", str(out)]) == 0
    ops = {n: [x.op_type for x in onnx.load(str(out / n)).graph.node] for n in ("common.onnx", "uncommon.onnx")}
    assert ops == {"common.onnx": ["Shape", "Reshape"], "uncommon.onnx": ["Reshape"]}
    assert "in 'common'" in (out / "REPORT.md").read_text()


RESIZE_CASE = """
import numpy as np
from onnx import TensorProto, helper, numpy_helper
from passcheck.cases import Case, Form, register

X = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 3, 3])]
Y = [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
SC = numpy_helper.from_array(np.array([1, 1, 5 / 3, 5 / 3], np.float32), "sc")
ROI = numpy_helper.from_array(np.array([0, 0, 0, 0, 1, 1, 1, 1], np.float32), "roi")


def _model(roi):
    node = helper.make_node("Resize", ["x", roi, "sc"], ["y"], mode="nearest")
    m = helper.make_model(helper.make_graph([node], "g", X, Y, [SC, ROI]), opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


register(Case(
    id="nu40/resize-floor",
    forms={"common": Form(lambda: _model("roi")), "empty-roi": Form(lambda: _model(""), "roi omitted as ''")},
    doc="Resize by float32(5/3) of a 3-wide axis: 3 * 1.6666666 floors to 4 (Operators.md Resize, output_dimension).",
    opset=18,
    passes=("onnx:infer-shapes",),
))
"""


def test_an_annotation_the_runtime_breaks_is_blamed_on_the_runtime_in_repro_py(tmp_path):
    """The annotations oracle asks onnx's reference evaluator before blaming the runtime (found.md row 175:
    onnxruntime's Resize rounds 3 * float32(5/3) up, the reference evaluator and onnx shape inference floor it to 4).
    REPORT.md said "the runtime deviates", but repro.py's BUG line said the type onnx shape inference gives 'y'
    does not hold, with no word of the reference evaluator: an onnxruntime maintainer read it as onnx's bug."""
    import json
    import subprocess
    import sys

    from passcheck.cli import main

    mod = tmp_path / "nu40_resize.py"
    mod.write_text(RESIZE_CASE)
    report = tmp_path / "r.json"
    args = ["--cases-from", str(mod)]
    assert (
        main(["run", *args, "--case", "nu40/resize-floor", "--pass", "onnx:infer-shapes", "--json", str(report)]) == 1
    )
    fids = [
        f["id"]
        for cell in json.loads(report.read_text())["results"]
        for f in cell["findings"]
        if f["oracle"] == "annotations" and f["id"].startswith("nu40/resize-floor:common|onnx:infer-shapes|")
    ]
    assert fids, "row 175 no longer shows: onnxruntime's Resize was fixed?"
    out = tmp_path / "out"
    assert main(["repro", str(report), *args, "--finding", fids[0], "--out", str(out)]) == 0
    r = subprocess.run([sys.executable, "repro.py"], cwd=out, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    (bug,) = [line for line in r.stdout.splitlines() if line.startswith("BUG:")]
    assert bug.startswith("BUG: onnxruntime ") and "unlike onnx's reference evaluator" in bug, bug
    assert "onnx's reference evaluator computes 'y' with shape [" in r.stdout
    assert "for 'y' is the one onnx's reference evaluator computes" in (out / "REPORT.md").read_text()
