"""Pass contract: a pass that returns a new model leaves the one it is given unchanged (an
in-place pass returns the model it was given: its edits are its output).

:meth:`PassAdapter.run <passcheck.passes.PassAdapter.run>` compares the ModelProto it handed the
tool before and after (for a command, the ``{in}`` file) and records what changed in
``PassOutcome.input_mutated``; this oracle turns that into an ``input-mutated`` finding: a caller
that keeps using its model after the pass would see it altered.
"""

from __future__ import annotations

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.records import Finding

NAME = "pass-contract"


def check(run: FormRun) -> list[Finding]:
    """``input-mutated`` when the pass changed its input (``run.outcome.input_mutated`` names the
    fields); nothing otherwise."""
    what = run.outcome.input_mutated
    if not what:
        return []
    return [
        run.finding(
            "input-mutated",
            NAME,
            f"{run.pass_id} changed the model it was given ({what}); "
            "a caller that reuses its model after the pass sees it altered",
            fields=what,
        )
    ]


class PassContract(BaseOracle):
    """``input-mutated``: the pass returned a new model and changed the one it was given too."""

    id = "pass_contract"
    reports_as = NAME

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = PassContract()
