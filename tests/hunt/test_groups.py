"""A hunt's signatures grouped by root cause (passcheck.hunt.groups) and the summary's cause lines and
Markdown table, on findings of real onnxruntime sessions: two spellings of FastGelu that ORT's
FastGeluFusion misses (the library's ``fusion-gelu/fastgelu-r2``) are one cause whatever their rewrite
and op types; the Conv+Add fusion missed on ``pattern-ort/conv-add`` is another."""

from __future__ import annotations

import io

import pytest

from passcheck.hunt.groups import group, rule
from passcheck.hunt.summary import markdown, table


@pytest.fixture(scope="module")
def findings():
    from passcheck import api

    report = api.run(["pattern-ort/conv-add", "fusion-gelu/fastgelu-r2"], ["ort:extended"], isolation=False)
    found = {(f.case, f.form): f for f in report.findings if f.kind == "missed-optimization"}
    assert {("fusion-gelu/fastgelu-r2", "cube-mul"), ("pattern-ort/conv-add", "add-swapped")} <= set(found)
    return found


def _record(f, rewrite: str, ops: list[str], shrunk: bool) -> dict:
    """A hunt state's signature record for ``f`` (shrunk: the pair's forms are common/uncommon)."""
    message = f.message.replace(repr(f.form), "'uncommon'") if shrunk else f.message
    rec = {
        "signature": {"pass_id": f.pass_id, "oracle": f.oracle, "kind": f.kind, "ops": ops, "rewrite": rewrite},
        "hits": 1,
        "found_on": {"base": f"{f.case}:common", "form": f.form, "pass": f.pass_id, "message": f.message},
    }
    if shrunk:
        rec |= {"message": message, "nodes": [8, len(ops) + 8], "repro": f"passcheck run --case {f.case}"}
    return rec


@pytest.fixture(scope="module")
def signatures(findings):
    gelu_a = findings[("fusion-gelu/fastgelu-r2", "cube-mul")]
    gelu_b = findings[("fusion-gelu/fastgelu-r2", "megatron-square-first")]
    conv = findings[("pattern-ort/conv-add", "add-swapped")]
    return {
        "k1": _record(gelu_a, "neutral-where-not", ["Mul", "Tanh", "Where"], shrunk=True),
        "k2": _record(conv, "commute-operands", ["Add", "Conv"], shrunk=True),
        "k3": _record(gelu_b, "through-optional", ["Mul", "OptionalGetElement"], shrunk=False),
        "k4": {
            "signature": {
                "pass_id": "ort:extended",
                "oracle": "acceptance",
                "kind": "rejected",
                "ops": ["Clip"],
                "rewrite": "float64-compute",
                "error": "Fail",
            },
            "hits": 2,
            "found_on": {"base": "b:common", "form": "f", "pass": "ort:extended", "message": "declined"},
        },
    }


def test_one_fusion_missed_under_two_rewrites_is_one_cause(signatures):
    groups = group(signatures)
    assert [g.keys for g in groups] == [["k1", "k3"], ["k2"], ["k4"]]
    gelu = groups[0]
    assert gelu.rewrites == ["neutral-where-not", "through-optional"] and gelu.hits == 2
    assert "kept [Add, Mul, Tanh] in uncommon" in gelu.rule and "com.microsoft::FastGelu" in gelu.rule
    assert gelu.smallest() == "k1"  # k3 has no saved pair
    assert "kept [Add, Conv, Relu]" in groups[1].rule
    assert rule(signatures["k4"]) == "ops Clip; Fail"  # no parity message: op types and error


def test_summary_prints_each_cause_with_its_signatures(signatures):
    out = io.StringIO()
    table(signatures, out)
    lines = [x for x in out.getvalue().splitlines() if x.startswith(("root causes", "cause "))]
    assert lines[0] == "root causes: 3 groups of 4 signatures (pass, oracle, kind, pass rule):"
    assert lines[1].startswith("cause 1: ort:extended parity missed-optimization: kept [Add, Mul, Tanh]")
    assert "2 signatures (#1, #3), 2 hits; rewrites: neutral-where-not, through-optional; smallest pair: #1" in lines[1]
    md = markdown(signatures, [], None, "t")
    assert "### New signatures by root cause (3 causes)" in md
    row = next(x for x in md.splitlines() if x.startswith("| 1 | ort:extended"))
    assert "| 2: #1, #3 | 2 | neutral-where-not, through-optional | #1 |" in row
