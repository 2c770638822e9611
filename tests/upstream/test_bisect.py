"""``passcheck bisect``: the search over versions (untestable versions skipped, both directions),
the version range, the probe's verdict, bad input, and a real bisection over onnxruntime releases
whose window was measured (issue 16.3)."""

from __future__ import annotations

import json

import pytest

from passcheck.bisect.probe import judge
from passcheck.bisect.search import Verdict, bisect
from passcheck.bisect.versions import in_range
from passcheck.cli import main
from passcheck.records import CellResult, Finding

VERSIONS = [f"1.{i}.0" for i in range(20, 33)]


def _probe(bad_from: int | None = None, good_from: int | None = None, skip=(), log=None):
    def probe(v: str) -> Verdict:
        if log is not None:
            log.append(v)
        minor = int(v.split(".")[1])
        if minor in skip:
            return Verdict(v, "skip", "no wheel")
        if bad_from is not None:
            return Verdict(v, "bad" if minor >= bad_from else "good")
        return Verdict(v, "good" if minor >= good_from else "bad")

    return probe


@pytest.mark.parametrize("first_bad", [21, 26, 32])
def test_regression_found_with_few_probes(first_bad):
    log = []
    out = bisect(VERSIONS, _probe(bad_from=first_bad, log=log))
    assert (out.direction, out.first_bad, out.last_good) == ("regression", f"1.{first_bad}.0", f"1.{first_bad - 1}.0")
    assert len(log) <= 6 and len(set(log)) == len(log)


def test_fix_found():
    out = bisect(VERSIONS, _probe(good_from=31))
    assert (out.direction, out.first_new, out.last_old) == ("fix", "1.31.0", "1.30.0")
    assert out.first_bad is None and "fixed in 1.31.0, last bad 1.30.0" in out.conclusion


def test_untestable_versions_are_skipped_and_named_when_they_hide_the_change():
    out = bisect(VERSIONS, _probe(bad_from=26, skip={25, 26}))
    assert (out.first_new, out.last_old) == ("1.27.0", "1.24.0")
    assert out.skipped_between == ("1.25.0", "1.26.0") and "may be in any of these" in out.conclusion


def test_untestable_ends_use_the_nearest_testable_version():
    out = bisect(VERSIONS, _probe(bad_from=24, skip={20, 32}))
    assert (out.first_bad, out.last_good) == ("1.24.0", "1.23.0")
    assert [v.version for v in out.probes][:4] == ["1.32.0", "1.31.0", "1.20.0", "1.21.0"]


@pytest.mark.parametrize(
    "probe, words",
    [
        (_probe(bad_from=0), "there in every tested version"),
        (_probe(bad_from=99), "absent in every tested version"),
        (_probe(bad_from=0, skip=set(range(20, 33))), "no version in the range could be tested"),
    ],
)
def test_no_change_is_no_window(probe, words):
    out = bisect(VERSIONS, probe)
    assert out.direction == "none" and out.first_new is None and words in out.conclusion


def test_range_is_prefix_bounded_and_final_releases_only():
    available = ["1.32.0", "1.31.1", "1.31.0", "1.30.0", "1.30.0rc1", "1.20.1", "1.20.0", "1.19.2", "1.32.1.dev3"]
    assert in_range(available, "1.20", "1.31") == ["1.20.0", "1.20.1", "1.30.0", "1.31.0", "1.31.1"]
    assert in_range(available, "1.31.1", None) == ["1.31.1", "1.32.0"]


def test_probe_verdict_needs_a_fully_judged_cell():
    f = Finding(
        kind="missed-optimization", oracle="parity", case="c", form="uncommon", pass_id="ort:basic", message="m"
    )
    bad = CellResult("c", "uncommon", "ort:basic", "changed", findings=[f])
    good = CellResult("c", "uncommon", "ort:basic", "changed")
    crashed = CellResult("c", "uncommon", "ort:basic", "crashed", error="SIGSEGV")
    unchecked = CellResult(
        "c", "uncommon", "ort:basic", "changed", unchecked={"output 'y'": "the unoptimized run fails"}
    )
    other_form = CellResult("c", "common", "ort:basic", "changed")
    assert judge(f, [bad], "1").state == "bad"
    assert judge(f, [good], "1").state == "good"
    assert judge(f, [crashed], "1").state == "skip" and "SIGSEGV" in judge(f, [crashed], "1").reason
    assert judge(f, [unchecked], "1").state == "skip"
    blind_elsewhere = CellResult(
        "c", "uncommon", "ort:basic", "changed", unchecked={"annotation 'Loop.body::i'": "unobservable"}
    )
    assert judge(f, [blind_elsewhere], "1").state == "good"
    annotation = Finding(
        kind="annotation-violated", oracle="annotations", case="c", form="uncommon", pass_id="ort:basic", message="m"
    )
    assert judge(annotation, [blind_elsewhere], "1").state == "skip"
    assert judge(f, [other_form], "1").state == "skip"


@pytest.mark.parametrize(
    "argv, words",
    [
        (
            ["--finding", "no-pipes-here", "--package", "onnxruntime", "--versions", "1.30.0"],
            "expected case:form|pass|oracle|kind",
        ),
        (
            [
                "--finding",
                "c:f|ort:basic|parity|missed-optimization",
                "--package",
                "onnxruntime",
                "--versions",
                "1.30.0",
                "--from",
                "1.31",
            ],
            "no released onnxruntime version",
        ),
        (
            [
                "--finding",
                "c:f|ort:basic|parity|missed-optimization",
                "--package",
                "onnxruntime",
                "--versions",
                "1.30.0",
                "--from",
                "one",
            ],
            "not a version",
        ),
        (["--package", "onnxruntime", "--versions", "1.30.0"], "give a REPORT.json or --finding"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, words, tmp_path, capsys):
    assert main(["bisect", *argv, "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.matrix
def test_real_bisection_finds_the_measured_window(tmp_path, capsys):
    """Measured 2026-12-01 over onnxruntime 1.20.0–1.32.0 (23 releases, onnx 1.23.2 beside each):
    onnxruntime's symbolic shape inference annotates the zero-sized reduce case with a shape
    that does not hold at run time up to 1.30.0 and no longer from 1.31.0."""
    finding = "broadcast/zero-sized-reduce:common|ort:symbolic-shape-infer|annotations|annotation-violated"
    out = tmp_path / "b"
    rc = main(
        [
            "bisect",
            "--finding",
            finding,
            "--package",
            "onnxruntime",
            "--from",
            "1.30",
            "--to",
            "1.31",
            "--out",
            str(out),
            "--progress",
            "none",
        ]
    )
    doc = json.loads((out / "bisect.json").read_text())
    assert rc == 0, doc
    assert (doc["direction"], doc["last_old"], doc["first_new"]) == ("fix", "1.30.0", "1.31.0")
    probed = {p["version"]: p for p in doc["probes"]}
    assert probed["1.30.0"]["state"] == "bad" and probed["1.31.0"]["state"] == "good"
    assert probed["1.31.0"]["versions"].get("onnxruntime") == "1.31.0"
    assert "fix: fixed in 1.31.0, last bad 1.30.0" in capsys.readouterr().out
