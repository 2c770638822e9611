"""What to say when the first word of ``passcheck WORD`` names no subcommand.

Two guesses, both read from the parser itself (nothing listed by hand): a subcommand whose name is close to the
word (:func:`difflib.get_close_matches`, ``chek`` → ``check``), and a subcommand flag the word spells
(``passcheck passes`` → ``passcheck list --passes``: a new user asks for what ``list`` lists by its name).
"""

from __future__ import annotations

import argparse
import difflib


def command_hint(word: str, commands: dict[str, argparse.ArgumentParser]) -> str:
    """``"; did you mean 'passcheck X'?"`` for an unknown subcommand ``word``, or ``""`` with no guess.

    ``commands``: subcommand name → its parser. A flag is offered when ``--WORD`` is a flag taking no value
    (``store_true``) of exactly one subcommand, else the (at most two) close names."""
    flag = "--" + word.lower()
    owners = [
        name
        for name, p in sorted(commands.items())
        for a in p._actions  # argparse keeps no public list of a parser's options
        if flag in a.option_strings and a.nargs == 0 and not isinstance(a, argparse._HelpAction)
    ]
    if len(owners) == 1:  # the word names what a flag asks for: that, not a look-alike name
        guesses = [f"passcheck {owners[0]} {flag}"]
    else:
        guesses = [f"passcheck {c}" for c in difflib.get_close_matches(word.lower(), sorted(commands), n=2)]
    return "; did you mean " + " or ".join(f"'{g}'" for g in guesses) + "?" if guesses else ""
