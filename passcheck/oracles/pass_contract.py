"""Pass contract: a pass that returns a new model leaves the one it is given unchanged (an
in-place pass returns the model it was given: its edits are its output).

:meth:`PassAdapter.run <passcheck.passes.PassAdapter.run>` compares the ModelProto it handed the
tool before and after (for a command, the ``{in}`` file) and records what changed in
``PassOutcome.input_mutated``; this oracle turns that into an ``input-mutated`` finding: a caller
that keeps using its model after the pass would see it altered.

A pass also keeps what its input says of the model's interface: ``description-dropped`` when the
model it wrote no longer states a doc_string, metadata_props entry, type denotation or dim denotation
of a main-graph input or output it kept (:mod:`passcheck.oracles.descriptions`: IR.md §Graphs,
§Other Metadata, §Type Denotation; DimensionDenotation.md), or what the model says of itself: its and its main
graph's doc_string and metadata_props, its model_version and domain (IR.md §Models), and those of the
model-local functions and body graphs it kept (IR.md §Functions, §Graphs; :mod:`passcheck.oracles.part_descriptions`),
less what the pass states it clears.
"""

from __future__ import annotations

from passcheck.oracles import descriptions, part_descriptions
from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.records import Finding

NAME = "pass-contract"


def check(run: FormRun) -> list[Finding]:
    """``input-mutated`` when the pass changed its input (``run.outcome.input_mutated`` names the
    fields); ``description-dropped`` when its output lost a description of the interface
    (:func:`described`); nothing otherwise."""
    return mutated(run) + described(run)


def described(run: FormRun) -> list[Finding]:
    """``description-dropped`` when the pass's output no longer states a description its input gave a
    main-graph input or output it kept (details: ``fields``, the sorted field names of
    :data:`descriptions.FIELDS` dropped, and ``dropped``, one line each); a second one when it no longer states
    what the model said of itself (:func:`descriptions.model_dropped`; ``fields`` from
    :data:`descriptions.MODEL_FIELDS`); one more each when it no longer states the doc_string or metadata_props of
    a model-local function it kept or of a body graph whose node it kept (:mod:`part_descriptions`; ``fields``
    from :data:`part_descriptions.FUNCTION_FIELDS`, :data:`part_descriptions.BODY_FIELDS`) — all less what the pass
    states it clears (:attr:`FormRun.clears`)."""
    out = run.output
    if out is None:
        return []
    found = []
    if descriptions.describes(run.model) and (lost := descriptions.dropped(run.model, out)):
        found.append(_dropped(run, lost, "the graph's interface"))
    if descriptions.describes_itself(run.model):
        lost = [d for d in descriptions.model_dropped(run.model, out) if d.field not in run.clears]
        if lost:
            found.append(_dropped(run, lost, "the model itself"))
    if part_descriptions.describes_parts(run.model):
        for of, lost in (
            ("its model-local functions", part_descriptions.functions_dropped(run.model, out)),
            ("its subgraphs", part_descriptions.bodies_dropped(run.model, out)),
        ):
            if lost := [d for d in lost if d.field not in run.clears]:
                found.append(_dropped(run, lost, of))
    return found


def _dropped(run: FormRun, lost: list, of: str) -> Finding:
    fields = sorted({d.field for d in lost})
    return run.finding(
        "description-dropped",
        NAME,
        f"{run.pass_id} dropped what its input says of {of} ({', '.join(fields)}): "
        + "; ".join(map(str, lost[:4]))
        + (f"; and {len(lost) - 4} more" if len(lost) > 4 else ""),
        fields=fields,
        dropped=[str(d) for d in lost],
    )


def mutated(run: FormRun) -> list[Finding]:
    """``input-mutated`` when the pass changed its input (``run.outcome.input_mutated`` names the fields)."""
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
    """``input-mutated``: the pass returned a new model and changed the one it was given too;
    ``description-dropped``: its output lost a description of an input or output it kept."""

    id = "pass_contract"
    reports_as = NAME

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = PassContract()
