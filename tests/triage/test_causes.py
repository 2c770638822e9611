"""triage's index.md groups its candidates by root cause (passcheck.triage.index.causes_md), on candidates
of real onnxruntime sessions: FastGeluFusion missed on two spellings (``cube-mul``,
``megatron-square-first``: two candidates, their kept nodes have other producers) is one cause, the
Conv+Add+Relu fusion missed on ``add-swapped`` another."""

from __future__ import annotations


def test_index_lists_candidates_by_root_cause():
    from passcheck import api
    from passcheck.triage.bundle import Outcome
    from passcheck.triage.candidates import group
    from passcheck.triage.index import index_md

    report = api.run(["pattern-ort/conv-add", "fusion-gelu/fastgelu-r2"], ["ort:extended"], isolation=False)
    candidates = group(report.cells)
    assert len(candidates) == 3
    rows = [
        {"n": n, "candidate": c, "outcome": Outcome("reproduced" if n < 3 else "refused", ""), "upstream": None}
        for n, c in enumerate(candidates, 1)
    ]
    gelu = [r["n"] for r in rows if "Tanh" in r["candidate"].signature.ops]
    assert len(gelu) == 2
    md = index_md(rows, ["run.json"], {"onnxruntime": "x"}, None)
    assert "## By root cause (2 causes of 3 candidates)" in md
    lines = md.splitlines()
    first = lines[lines.index("| cause | tool | pass | oracle | kind | rule | candidates | status |") + 2]
    assert first.startswith("| 1 | onnxruntime | ort:level | parity | missed-optimization | kept [Add, Mul, Tanh] in")
    assert "com.microsoft::FastGelu" in first and f"#{gelu[0]}, #{gelu[1]} |" in first
    assert any(x.startswith("| 2 | onnxruntime |") and "kept [Add, Conv, Relu]" in x for x in lines)
