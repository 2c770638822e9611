"""A draw frozen by a pass: a graph output the given model computes from a random op that the pass output no longer
computes from one.

The ops onnx's schemas mark ``NodeDeterminism.NonDeterministic`` (:mod:`passcheck.oracles.random_ops`:
``RandomNormal``, ``RandomUniform``, their ``*Like`` forms, ``Bernoulli`` and ``Multinomial`` in onnx 1.23; If / Loop /
Scan / SequenceMap only through their bodies; AffineGrid's mark left out as a schema slip) and a ``Dropout`` in
training mode draw anew on every run (Operators.md: "generate a tensor with random values"; Dropout: "If
``training_mode`` is true then the output Y will be a random dropout"; ``seed`` only makes the sequence
reproducible). A pass that evaluates such a node once and writes its sample as a constant
turns a per-run draw into a fixed tensor: every later run returns the same "random" values. onnxruntime's and
onnxscript's constant folding skip these ops for that reason; the numeric oracle cannot see it (a drawn output is
compared by dtype and shape only). Judged on the main graph (:func:`~passcheck.oracles.numeric.drawn`: through
main-graph nodes, model-local functions and control-flow bodies that hold a random op); a drawn output the pass
removed is the interface's business, not this check's.
"""

from __future__ import annotations

from passcheck.oracles._context import FormRun
from passcheck.oracles.numeric import drawn
from passcheck.records import Finding

NAME = "folding"


def check(run: FormRun) -> list[Finding]:
    """One ``wrong-result`` finding per graph output of ``run.model`` computed from a draw whose namesake in the
    pass output (``run.output``; None when the pass failed: no finding) is computed from none. Message names the
    outputs; details ``outputs`` (sorted names)."""
    out = run.output
    if out is None or out is run.model:
        return []
    kept = {o.name for o in out.graph.output}
    frozen = sorted((drawn(run.model) & kept) - drawn(out))
    if not frozen:
        return []
    return [
        run.finding(
            "wrong-result",
            NAME,
            f"output(s) {', '.join(map(repr, frozen))} are drawn from a random op on every run, but after "
            f"{run.pass_id} no random op computes them: the pass froze one sample into a constant",
            outputs=frozen,
        )
    ]
