"""A rewrite of a neighbour (:mod:`.compose`) judged in pinned environments (``passcheck hunt --env``).

Both steps are model edits of this interpreter's onnx, as a pair's rewrite is under ``--env``
(:mod:`.windows`): the neighbour ``V`` and its rewrite ``R(V)`` are built here, ``V`` checked valid here as a
composed item's is without ``--env`` (:func:`.compose.valid_pair`: the checker, the interface, a run under
``ort:disabled`` on its own setting), and the pair ``(V, R(V))`` gated here on that setting (an elem neighbour's
cast feeds, its tolerances). Then the pair is judged in every environment from the same model bytes as a pair
item is (:func:`.windows.run_item`): the findings of each environment's cells the rewrite is to blame for,
counted under the composed kind ``vary:<kind>><rewrite kind>`` (:func:`.compose.kind`), each with its window.
A neighbour an environment's onnx or onnxruntime cannot take shows on both forms there, so it is no finding
of the rewrite; that environment judges the pair partly (:func:`.windows.fully_judged`). Pairs are not shrunk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from passcheck.hunt import compose

if TYPE_CHECKING:
    from passcheck.hunt.space import Base, Item
    from passcheck.hunt.windows import Judge


def run(store, rec: dict[str, Any], base: Base, item: Item, judge: Judge, executor) -> dict[str, Any]:
    """The record of the composed item ``item`` judged in every environment (see module docs): ``rec`` (its
    ``reason`` set) when ``V`` or ``R`` does not apply, ``rec`` made ``invalid-variation`` when ``V`` is no valid
    model here, else :func:`.windows.run_item`'s (``envs`` per environment, the signatures and their windows)."""
    from passcheck.hunt.windows import run_item

    if (ready := compose.valid_pair(rec, base, item.form, executor)) is None:
        return rec
    neighbour, mutant, labels, setting = ready
    rform = compose.split(item.form)[1]
    kind = compose.kind(item.form)
    return run_item(
        store, base, item, neighbour, mutant, labels, judge, executor, setting=setting, form=rform, kind=kind
    )
