"""Baseline entries (``report/baseline.py``): what an id matches, which cells it can name, and the
one-line error for a file that is not JSON."""

from __future__ import annotations

import pytest

from passcheck.errors import PasscheckError
from passcheck.records import CellResult
from passcheck.report.baseline import Known, load

ID = "conv:common|ort:basic|numeric|wrong-result|0123abcd"


def test_an_id_matches_itself_or_its_pattern_and_nothing_else():
    k = Known(ID, "known")
    assert k.matches_id(ID, "local")
    assert not k.matches_id(ID[:-1] + "c", "local") and not k.matches_id(ID[:-1] + "e", "local")
    assert Known(ID[:-8] + "*", "known").matches_id(ID, "local")


def test_an_id_of_three_parts_names_the_cells_of_its_case_form_and_pass():
    cell = CellResult("conv", "common", "ort:basic", "ok")
    assert Known("conv:common|ort:basic|numeric", "r").covers_cell(cell)
    assert not Known("conv:common|ort:extended|numeric", "r").covers_cell(cell)


def test_a_baseline_that_is_not_json_is_a_one_line_error(tmp_path):
    p = tmp_path / "baseline.json"
    p.write_text('{"known": [', encoding="utf-8")
    with pytest.raises(PasscheckError, match=r"baseline is not valid JSON \(line 1: "):
        load(p)
