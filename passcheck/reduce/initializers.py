"""Simpler initializer values: each floating-point initializer of a reduced pair replaced by zeros,
else ones, of the same shape and dtype, where the pair still shows the finding (the predicate also
keeps both forms valid and equal). A fill is written by ``passcheck repro`` as one ``np.full``
instead of a hex blob, and tells the reader the values do not matter.

All at once first (one test when values are irrelevant, the usual case for a missed
optimization), then one initializer at a time, largest first. Integer initializers are left:
they are mostly shapes, axes and indices, which carry structure.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any


def candidates(model) -> dict[str, Any]:
    """Initializer name → array for the floating-point initializers of ``model`` that hold more
    than one element and are not a fill of 0 or 1 already, largest first."""
    import numpy as np
    from onnx import numpy_helper

    out = {}
    for t in model.graph.initializer:
        try:
            arr = numpy_helper.to_array(t)
        except Exception:  # noqa: BLE001 - a type numpy cannot hold: left as is
            continue
        if arr.dtype.kind == "f" and arr.size > 1 and not any(np.all(arr == v) for v in (0, 1)):
            out[t.name] = arr
    return dict(sorted(out.items(), key=lambda kv: -kv[1].size))


def simplify(arrays: Mapping[str, Any], holds: Callable[[dict[str, Any]], bool], deadline: float) -> dict[str, Any]:
    """The replacements (name → array of zeros or ones) for which ``holds(replacements)`` is true,
    greedily (see module docs); stops at ``deadline`` (``time.monotonic()``) with what it has."""
    import numpy as np

    for fill in (np.zeros_like, np.ones_like):
        every = {k: fill(v) for k, v in arrays.items()}
        if every and time.monotonic() < deadline and holds(every):
            return every
    kept: dict[str, Any] = {}
    if len(arrays) < 2:  # one array: the tries above were the only ones
        return kept
    for name, arr in arrays.items():
        for fill in (np.zeros_like, np.ones_like):
            if time.monotonic() > deadline:
                return kept
            trial = {**kept, name: fill(arr)}
            if holds(trial):
                kept = trial
                break
    return kept
