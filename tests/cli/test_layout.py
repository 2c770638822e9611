"""Readable output: the verdict grid in an 80-column terminal and in pipes; ``list`` as lines and JSON."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rich.console import Console

from passcheck.cli import main
from passcheck.records import CellResult, Finding
from passcheck.report import terminal

BOX = set("┏┳┓┃┡━╇┩│└┴┘─")
PASSES = [
    "input",
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "passcheck", *args], capture_output=True, text=True)


def _cells():
    cells = []
    for case in ("optional-input/conv-bn-bias-control", "optional-input/pad-constant-value"):
        for form in ("common", "middle-empty-axes"):
            for p in PASSES:
                bad = form != "common" and p == "ort:basic"
                found = (
                    [Finding("missed-optimization", "parity", case, form, p, "fused in one form only")] if bad else []
                )
                cells.append(CellResult(case, form, p, "ok", findings=found))
    return cells


def _render(width: int) -> list[str]:
    console = Console(force_terminal=True, width=width, color_system=None)
    with console.capture() as cap:
        terminal.render(_cells(), console)
    return cap.get().splitlines()


def test_80_columns_compact_grid_one_line_per_form():
    lines = _render(80)
    grid = lines[: lines.index(next(x for x in lines if x.startswith("passes:")))]
    assert all(len(x) <= 80 for x in grid)
    forms = [x for x in grid if x.strip().startswith(("common", "middle-empty-axes"))]
    assert len(forms) == 4  # one line per (case, form): no cell wrapped over several lines
    assert forms[1].split()[1:] == ["✓", "✓", "M"] + ["✓"] * 6
    legend = "\n".join(lines)
    assert "3=ort:basic" in legend and "M=missed-opt" in legend and not BOX & set("".join(grid))


def test_wide_terminal_keeps_full_labels():
    lines = _render(240)
    assert "ort:symbolic-shape-infer" in lines[0] and any("missed-opt" in x for x in lines)
    assert sum(1 for x in lines if "optional-input/pad-constant-value" in x and "ok" in x) == 1  # case once per group


def test_pipe_is_one_plain_line_per_case_and_form():
    p = _cli("run", "--case", "optional-input/conv-bn", "--pass", "ort:basic")
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert not BOX & set(p.stdout)
    grid = [x for x in lines if x.startswith("optional-input/conv-bn ") and " | " not in x]  # not the finding lines
    assert grid == [
        "optional-input/conv-bn common input=ok ort:basic=ok",
        "optional-input/conv-bn empty-name input=ok ort:basic=missed-opt",
    ]


def test_list_is_plain_lines_in_a_pipe_and_json_on_request():
    p = _cli("list", "--case", "optional-input/conv-*")
    assert p.returncode == 0 and not BOX & set(p.stdout)
    bn = [x for x in p.stdout.splitlines() if x.startswith("optional-input/conv-bn\t")]
    assert len(bn) == 1 and "empty-name" in bn[0]
    cases = json.loads(_cli("list", "--json", "--case", "optional-input/conv-bn").stdout)
    assert cases[0]["id"] == "optional-input/conv-bn" and {f["id"] for f in cases[0]["forms"]} == {
        "common",
        "empty-name",
    }
    assert "ort:basic" in cases[0]["passes"] and "fusion" in cases[0]["tags"] and cases[0]["description"]


@pytest.mark.parametrize("flag,key,value", [("--passes", "id", "ort:basic"), ("--tags", "tag", "fusion")])
def test_list_passes_and_tags_json(capsys, flag, key, value):
    assert main(["list", flag, "--json"]) == 0
    assert value in {r[key] for r in json.loads(capsys.readouterr().out)}


def _matrix_cells():
    cells = []
    for env in ("onnx-1.16", "onnx-1.18", "onnx-1.20", "onnx-1.23", "ort-1.20-latest"):
        for form in ("common", "bias-constant-node"):
            for p in ("onnx:infer-shapes-strict", "ort:basic", "onnxscript:optimize"):
                bad = env == "onnx-1.16" and form != "common"
                found = (
                    [
                        Finding(
                            "rejected", "acceptance", "optional-input/conv-bn-bias-control", form, p, "refused", env=env
                        )
                    ]
                    if bad
                    else []
                )
                cells.append(CellResult("optional-input/conv-bn-bias-control", form, p, "ok", env=env, findings=found))
    return cells


def test_matrix_tables_fit_80_columns_and_are_plain_in_pipes():
    from passcheck.matrix.report import render_terminal

    console = Console(force_terminal=True, width=80, color_system=None)
    with console.capture() as cap:
        render_terminal(_matrix_cells(), {}, console)
    lines = cap.get().splitlines()
    rows = [x for x in lines if x.startswith("  bias-constant-node ")]
    assert len(rows) == 3 and all(x.split()[2:] == ["R", "✓", "✓", "✓", "✓"] for x in rows)
    assert "1=onnx-1.16" in "\n".join(lines) and all(len(x) <= 80 for x in lines[: lines.index(rows[-1]) + 1])
    plain = Console(force_terminal=False, width=80)
    with plain.capture() as cap:
        render_terminal(_matrix_cells(), {}, plain)
    text = cap.get()
    assert not BOX & set(text)
    assert (
        "conv-bn-bias-control bias-constant-node ort:basic onnx-1.16=rejected onnx-1.18=ok onnx-1.20=ok "
        "onnx-1.23=ok ort-1.20-latest=ok"
    ) in text.splitlines()
