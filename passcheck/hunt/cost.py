"""Each pass's expected seconds per hunt item: the scheduler's cost model for sharing a budget's
time between the passes searched (:mod:`.scheduler`).

A fixed table, not the items' measured wall time: the scheduler's choice must depend only on the
seed and the items tried (``--resume`` and ``--shard``/``merge`` repeat an uninterrupted run's
items), and wall time differs between runs, shards and machine loads. The figures are the mean
seconds per item (``seconds`` in ``hunt-state.json``: the pass on both forms, oracles and
shrinking) of a 5-minute ``passcheck hunt --no-generated --seed 1`` over the hand-written library
(301 cases), 2 cores at load 15–19 (docs/hunt.md
"Time shared between the passes"). A pass adapter may state its own (``item_seconds``, e.g. a
plugin pass); any other pass counts :data:`DEFAULT_SECONDS`.
"""

from __future__ import annotations

from functools import cache

#: Seconds per item of a pass the table does not know and that states none.
DEFAULT_SECONDS = 1.0
#: Pass id (or the id before its ``-<opset>`` tail for the version converter) → seconds per item.
#: Measured at huntpass e7aa7eb (397 items; shrinking a new signature is most of a mean: the
#: medians are 0.05–0.35 s); a pass with few items there (ort:symbolic-shape-infer: 1) is a rough figure.
TABLE: dict[str, float] = {
    "ort:disabled": 0.06,
    "ort:basic": 0.76,
    "ort:extended": 0.77,
    "ort:all": 0.35,
    "onnx:infer-shapes": 0.10,
    "onnx:infer-shapes-strict": 0.08,
    "onnx:infer-shapes-data-prop": 0.90,
    "onnxscript:optimize": 0.19,
    "ort:symbolic-shape-infer": 0.13,
    "onnxscript:rewrite": 0.21,
    "onnxscript:optimize-for-ort": 3.06,
    "onnx:convert-opset": 0.28,  # -down 0.30 (7 items), -up 0.24 (5)
    "onnxsim:simplify": 0.46,
    "onnxslim:slim": 0.95,
    "onnxoptimizer:optimize": 0.15,
}


@cache
def item_seconds(pass_id: str) -> float:
    """Expected seconds (> 0) one hunt item of ``pass_id`` takes: the adapter's ``item_seconds``
    when it states one, else :data:`TABLE`, else :data:`DEFAULT_SECONDS`. Never raises: a pass id
    the registry cannot make counts the default."""
    try:
        from passcheck.passes import get_pass

        stated = getattr(get_pass(pass_id), "item_seconds", None)
    except Exception:  # noqa: BLE001 - an id the registry rejects here: the table or the default
        stated = None
    if isinstance(stated, (int, float)) and stated > 0:
        return float(stated)
    if pass_id.startswith("onnx:convert-opset-"):
        return TABLE.get("onnx:convert-opset", DEFAULT_SECONDS)
    return TABLE.get(pass_id, DEFAULT_SECONDS)
