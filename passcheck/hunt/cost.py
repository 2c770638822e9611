"""Each pass's expected seconds per hunt item: the scheduler's cost model for sharing a budget's
time between the passes searched (:mod:`.scheduler`).

A fixed table, not the items' measured wall time: the scheduler's choice must depend only on the
seed and the items tried (``--resume`` and ``--shard``/``merge`` repeat an uninterrupted run's
items), and wall time differs between runs, shards and machine loads. The figures are the mean seconds per item
(``seconds`` in ``hunt-state.json``: the pass on both forms, oracles and shrinking) of one 90-second
``passcheck hunt --pass P --no-generated --seed 1`` per pass over the hand-written library (301 cases,
variations on, coverage cache warm), 2 cores shared at load 10-22 (``python bench/cost.py --budget 90s``
re-measures them and prints the entries to paste; docs/hunt.md "Cost table"). A pass adapter may state
its own (``item_seconds``, e.g. a plugin pass); any other pass counts :data:`DEFAULT_SECONDS`.
"""

from __future__ import annotations

from functools import cache

#: Seconds per item of a pass the table does not know and that states none.
DEFAULT_SECONDS = 1.0
#: Pass id (or the id before its ``-<opset>`` tail for the version converter) → seconds per item.
#: Measured at lazymap c4da37a, one pass at a time (items in the comments; the medians are 0.05-0.42 s:
#: shrinking a new signature is most of a mean, so a pass that finds much is counted dear).
TABLE: dict[str, float] = {
    "ort:disabled": 0.29,  # 130 items, load 20
    "ort:basic": 1.33,  # 54, load 22
    "ort:extended": 1.49,  # 45, load 22
    "ort:all": 1.46,  # 45, load 16
    "onnx:infer-shapes": 0.14,  # 225, load 15
    "onnx:infer-shapes-strict": 0.08,  # 515, load 14
    "onnx:infer-shapes-data-prop": 0.72,  # 77, load 21
    "onnx:infer-shapes-data-prop-strict": 0.38,  # 59, load 17 (measured at prop25 a53687b)
    "onnxscript:optimize": 0.55,  # 114, load 21
    "ort:symbolic-shape-infer": 0.58,  # 87, load 17
    "onnxscript:rewrite": 0.31,  # 221, load 17
    "onnxscript:optimize-for-ort": 1.66,  # 39, load 20
    "onnx:convert-opset": 0.21,  # -down 0.24 (211 items), -up 0.20 (305), load 15
    "onnxsim:simplify": 0.68,  # 79, load 16
    "onnxslim:slim": 0.41,  # 170, load 12
    "onnxoptimizer:optimize": 0.10,  # 534, load 10
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
