"""``hunt --vary-kind GLOB``: a glob that names no variation kind is a usage error before any work (exit 2,
one line), not a hunt of no item that exits 0; globs over kinds and families are accepted."""

from __future__ import annotations

import pytest

from passcheck.cli import main
from passcheck.cli.hunt import _check_vary_kinds
from passcheck.errors import PasscheckError


@pytest.mark.parametrize("glob", ["nope-*", "valu-zero", "intt-nudge", "zero"])
def test_a_glob_that_names_no_kind_is_refused_before_any_work(glob, tmp_path, capsys):
    code = main(["hunt", "--vary-kind", glob, "--budget", "1items", "--out", str(tmp_path / "h"), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "matches no variation kind" in err and "Traceback" not in err, (code, err)
    assert not (tmp_path / "h").exists()


@pytest.mark.parametrize(
    "glob", ["*", "int-*", "*zero", "value-nudge", "attr-axis", "elem-float16", "bind-*", "expose"]
)
def test_globs_over_kinds_and_families_are_accepted(glob):
    _check_vary_kinds([glob])


def test_one_bad_glob_among_good_ones_is_named():
    with pytest.raises(PasscheckError, match="'nope'"):
        _check_vary_kinds(["int-*", "nope"])


def test_a_rewrite_glob_that_names_no_rewrite_is_refused_and_one_that_does_is_kept_in_the_scope(tmp_path, capsys):
    """``hunt --rewrite GLOB``: a glob matching no rewrite id is a usage error before any work; a matching one is
    recorded in the state's scope (a resume keeps it) and every item tried has a matching part."""
    import json

    code = main(["hunt", "--rewrite", "no-such-rewrite*", "--budget", "1items", "--out", str(tmp_path / "h"), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "matches no rewrite id" in err and "Traceback" not in err, (code, err)
    assert not (tmp_path / "h").exists()
    out = tmp_path / "ok"
    argv = ["hunt", "--case", "attributes/leakyrelu-alpha", "--no-generated", "--no-coverage", "--pass", "ort:basic"]
    main([*argv, "--rewrite", "name-*", "--budget", "4items", "--out", str(out), "-q"])
    state = json.loads((out / "hunt-state.json").read_text())
    assert state["scope"]["rewrites"] == ["name-*"]
    assert state["items"] and all("name-" in i["form"] for i in state["items"]), [i["form"] for i in state["items"]]
