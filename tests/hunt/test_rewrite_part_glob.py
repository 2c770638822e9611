"""``--rewrite ID:NAME`` (M275): a glob naming one neutral operator of ``neutral-op`` keeps that operator's sites in
the sampled and composed forms of a real library base, and the CLI accepts it (its id half names a rewrite)."""

import pytest

from passcheck.cases import load_builtin
from passcheck.errors import PasscheckError
from passcheck.hunt.scheduler import names_part
from passcheck.mutations import forms as hforms


def test_an_id_and_name_glob_names_only_the_sites_of_that_operator():
    globs = ("neutral-op:split-third",)
    assert names_part("neutral-op", "x->n4:split-third", globs)
    assert names_part("neutral-op", "y:split-third", globs)
    assert not names_part("neutral-op", "t:div-one", globs)
    assert not names_part("neutral-op", None, globs)  # all sites at once: not one operator's
    assert not names_part("concat-nested", "x:split-third", globs)
    assert names_part("neutral-op", None, ("neutral-op",)) and names_part("neutral-op", "t:div-one", ("neutral-*",))


def test_the_split_third_sites_of_a_library_base_pass_the_glob_and_the_others_do_not():
    case = load_builtin().get("broadcast/zero-sized-concat")
    model = case.forms["common"].build()
    labels = hforms.sites(model, "neutral-op")
    third = [lab for lab in labels if lab.endswith(":split-third")]
    other = [lab for lab in labels if not lab.endswith(":split-third")]
    assert third and other
    assert all(names_part("neutral-op", lab, ("neutral-op:split-third",)) for lab in third)
    assert not any(names_part("neutral-op", lab, ("neutral-op:split-third",)) for lab in other)


def test_the_cli_takes_the_glob_by_its_id_half():
    from passcheck.cli.hunt import _check_rewrites

    _check_rewrites(["neutral-op:split-third", "concat-nested"])
    with pytest.raises(PasscheckError, match="matches no rewrite id"):
        _check_rewrites(["neutral-opp:split-third"])
