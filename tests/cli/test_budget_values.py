"""``hunt --budget`` refuses a value that is not a positive time or item count in one line naming the
accepted forms, exit 2, before any work; ``-3m`` included (argparse 3.11-3.12 read it as an option)."""

from __future__ import annotations

import pytest

from passcheck.cli import main

FORMS = "expected a time like 90s, 10m, 1h or a count like 40items"


@pytest.mark.parametrize("budget", ["-3m", "-3", "0", "abc", "5x"])
def test_a_bad_budget_is_one_line_naming_the_forms_and_exit_2(budget, tmp_path, capsys):
    out = tmp_path / "h"
    assert main(["hunt", "--budget", budget, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{FORMS}, got {budget!r}" in err and err.count("\n") == 1 and not out.exists(), err
