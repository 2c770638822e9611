"""``passcheck triage``'s follow-ups per candidate (issue 31): reduce the pair, attribute it, re-check it on the
version installed here, and name the first bad version or say why not; each in REPORT.md and candidate.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import onnx
import onnx.parser
import onnxruntime
import pytest

from passcheck.cli import main
from tests._inproc import cli
from tests.triage._planted import renaming

#: A planted pass (run as a ``cmd:`` pass) that writes Neg for Relu: a wrong result on any feed but 0 (so on the
#: one-element feeds of a reduced pair too, whatever their sign).
WRONG = renaming("Relu", "Neg")
#: Five nodes, of which the wrong result needs one (Relu).
MODEL = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x) => (float[2,3] y) {
  a = Neg(x)
  b = Relu(a)
  c = Exp(x)
  d = Add(b, c)
  y = Mul(d, x)
}"""


def _isolated(folder, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-I", "repro.py", *args], cwd=folder, capture_output=True, text=True, timeout=300, env=env
    )


def _bundles(out):
    rows = sorted(p for p in out.iterdir() if p.is_dir())
    return rows, [json.loads((p / "candidate.json").read_text()) for p in rows]


@pytest.fixture(scope="module")
def planted_report(tmp_path_factory):
    d = tmp_path_factory.mktemp("follow")
    (d / "wrong.py").write_text(WRONG)
    onnx.save(onnx.parser.parse_model(MODEL), d / "five.onnx")
    code = main(
        ["check", str(d / "five.onnx"), "--pass", f"cmd:{sys.executable} {d / 'wrong.py'} {{in}} {{out}}"]
        + ["--json", str(d / "r.json"), "-q"]
    )
    assert code == 1
    return d / "r.json"


def test_the_planted_wrong_result_is_reduced_to_its_one_node_and_the_reduced_pair_reproduces(planted_report, tmp_path):
    from passcheck.triage.run import triage

    done = triage([planted_report], tmp_path / "t", reduce_seconds=120)
    rows, cands = _bundles(tmp_path / "t")
    (i,) = [k for k, c in enumerate(cands) if c["rank"] == "wrong result"]
    folder, cand = rows[i], cands[i]
    assert cand["status"] == "reproduced", cand["why"]
    assert cand["reduced"]["nodes"] == [5, 1], cand["reduced"]
    module = next(folder.glob("reduced_*.py"))
    assert cand["reduced"]["said"].startswith("5 → 1 nodes") and module.name in cand["reduced"]["said"]
    assert module.name in cand["files"]
    assert [n.op_type for n in onnx.load(str(next(folder.glob("*.onnx")))).graph.node] == ["Relu"]
    r = _isolated(folder)
    assert r.returncode == 1 and "BUG:" in r.stdout, r.stdout + r.stderr
    md = (folder / "REPORT.md").read_text()
    assert "- reduced: 5 → 1 nodes" in md and "- re-checked: still in the command as given" in md
    # attribution and bisection say why not, in REPORT.md and candidate.json alike
    assert "## Attribution\nnot attributed: attribution covers" in md
    assert "## First bad version\nnot bisected: cmd has no released versions" in md
    assert cand["attribution"]["names"] == [] and cand["attribution"]["note"].startswith("not attributed:")
    assert cand["first_bad_version"]["said"].startswith("not bisected: cmd") and done.rows


def test_without_reduction_the_recorded_pair_is_scripted(planted_report, tmp_path):
    from passcheck.triage.run import triage

    triage([planted_report], tmp_path / "t", reduce_seconds=0)
    rows, cands = _bundles(tmp_path / "t")
    (i,) = [k for k, c in enumerate(cands) if c["rank"] == "wrong result"]
    assert cands[i]["status"] == "reproduced" and cands[i]["reduced"]["nodes"] is None
    assert cands[i]["reduced"]["said"] == "no (not asked: --reduce-seconds 0)"
    assert not list(rows[i].glob("reduced_*.py"))


@pytest.fixture(scope="module")
def layernorm_report(tmp_path_factory):
    """onnxruntime's extended level kills its process on LayerNormalization with an empty optional bias."""
    path = tmp_path_factory.mktemp("ln") / "r.json"
    assert main(["run", "--case", "optional-input/layernorm-bias", "--pass", "ort:extended", "--json", str(path)]) == 1
    return path


def test_an_onnxruntime_crash_is_attributed_rechecked_and_bisected_when_asked(layernorm_report, tmp_path):
    """Attribution by disabled_optimizers names SkipLayerNormFusion; the re-check names the onnxruntime here; the
    bisector (given: --bisect builds environments, so a recording one stands in for passcheck bisect's) is asked
    once, with onnxruntime and the scripted finding, and its words land in REPORT.md and candidate.json."""
    from passcheck.triage.run import triage

    asked = []

    def bisector(finding, package, folder, cases_from):
        asked.append((finding.id, package))
        return "**onnxruntime 1.20.1** (last good: 1.18.1) (bisected over planted probes).", {"direction": "regression"}

    triage([layernorm_report], tmp_path / "t", reduce_seconds=0, bisector=bisector)
    rows, cands = _bundles(tmp_path / "t")
    assert cands[0]["rank"] == "crash" and cands[0]["status"] == "reproduced", cands[0]["why"]
    assert cands[0]["attribution"]["names"] == ["SkipLayerNormFusion"], cands[0]["attribution"]
    md = (rows[0] / "REPORT.md").read_text()
    assert "## Attribution\n`SkipLayerNormFusion` (checked: with SkipLayerNormFusion disabled" in md
    assert f"- re-checked: still in onnxruntime {onnxruntime.__version__} (repro.py exits 1 here)" in md
    assert cands[0]["recheck"].startswith(f"still in onnxruntime {onnxruntime.__version__}")
    assert asked == [(cands[0]["scripted"], "onnxruntime")]
    assert "## First bad version\n**onnxruntime 1.20.1** (last good: 1.18.1)" in md
    assert cands[0]["first_bad_version"]["bisect"] == {"direction": "regression"}


def test_without_bisect_the_report_says_why_not(layernorm_report, tmp_path):
    from passcheck.triage.run import triage

    triage([layernorm_report], tmp_path / "t", reduce_seconds=0)
    rows, cands = _bundles(tmp_path / "t")
    md = (rows[0] / "REPORT.md").read_text()
    assert "## First bad version\nnot bisected: --bisect was not given" in md
    section = md.split("## First bad version\n")[1].split("\n## ")[0].strip()
    assert cands[0]["first_bad_version"] == {"said": section, "bisect": None}


def test_bisect_ranges_over_the_versions_the_pinned_environments_name(tmp_path):
    from packaging.version import Version

    from passcheck.bisect.versions import pinned

    here = pinned("onnxruntime")  # ci/envs: one onnxruntime per onnx line
    assert len(here) >= 2 and here == sorted(set(here), key=Version), here
    (tmp_path / "a.txt").write_text("onnx==1.20.1\nonnx-ir==1.1.0\n")
    (tmp_path / "b.txt").write_text("# b\nONNX==1.9.0\n")
    assert pinned("onnx", tmp_path) == ["1.9.0", "1.20.1"] and pinned("onnx_ir", tmp_path) == ["1.1.0"]


def test_envs_dir_without_bisect_is_one_line_exit_2(planted_report, tmp_path):
    r = cli("triage", planted_report, "--out", tmp_path / "t", "--envs-dir", tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "passcheck: error: --envs-dir goes with --bisect", r.stderr


@pytest.mark.matrix
def test_triage_bisect_probes_the_pinned_onnxruntime_versions_for_real(layernorm_report, tmp_path):
    """--bisect builds one environment per pinned onnxruntime (two pins files here) and names what it found."""
    envs = tmp_path / "envs"
    envs.mkdir()
    for ort_version in ("1.22.1", onnxruntime.__version__):
        (envs / f"ort-{ort_version}.txt").write_text(f"onnx=={onnx.__version__}\nonnxruntime=={ort_version}\n")
    out = tmp_path / "t"
    argv = ["triage", str(layernorm_report), "--out", str(out), "--reduce-seconds", "0", "--bisect"]
    assert main([*argv, "--envs-dir", str(envs)]) == 0
    rows, cands = _bundles(out)
    doc = json.loads((rows[0] / "bisect.json").read_text())
    assert doc["range"] == ["1.22.1", onnxruntime.__version__] and doc["probes"], doc
    assert cands[0]["first_bad_version"]["bisect"] == doc
    md = (rows[0] / "REPORT.md").read_text()
    assert f"(bisected over onnxruntime 1.22.1 … {onnxruntime.__version__}, 2 releases" in md, md
