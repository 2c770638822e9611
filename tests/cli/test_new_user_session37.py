"""A new user's trial (session 37, docs/recall.md round 16j): an unknown first word gets a guess read from the
parser (a subcommand flag it spells, else a close subcommand name), still one line and exit 2."""

from __future__ import annotations

import pytest

from passcheck.cli import main


@pytest.mark.parametrize(
    ("word", "guess"),
    [
        ("passes", "'passcheck list --passes'"),
        ("rewrites", "'passcheck list --rewrites'"),
        ("tags", "'passcheck list --tags'"),
        ("chek", "'passcheck check'"),
        ("Hunt", "'passcheck hunt'"),
    ],
)
def test_an_unknown_command_names_what_was_probably_meant(word, guess, capsys):
    assert main([word]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("passcheck: error:"), err
    assert f"did you mean {guess}?" in err[0], err[0]
    assert "Traceback" not in err[0]


def test_a_word_close_to_nothing_gets_no_guess(capsys):
    assert main(["zzzz"]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "invalid choice: 'zzzz'" in err, err


def test_a_subcommand_usage_error_is_left_as_it_was(capsys):
    assert main(["list", "--passess"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --passess" in err and "did you mean" not in err, err
