"""Whether onnx shape inference wrote a form's annotation (M195).

A form's ``value_info`` entries (IR.md §Graphs: optional, about intermediate values) may be the author's or copied
from onnx's shape inference (the ``inferred-value-info`` rewrite, :mod:`passcheck.mutations.value_info`). An
annotation of the form itself that a run violates is then onnx inference's statement, not the runtime's. The claim
is verified, not assumed: :func:`written_by_inference` removes the entries, runs onnx's inference on the rest of the
form and compares what it writes back."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: A dim_param onnx's inference generates for an unknown dim (``unk__<n>``: its counter, not a name of the model).
_GENERATED = re.compile(r"unk__\d+")


def written_by_inference(model: Any, names: Iterable[str]) -> str | None:
    """A sentence saying onnx shape inference writes the annotation of each of ``names`` (main-graph ``value_info``
    entries of ``model``) when they are removed, or None: a name that is not a value_info entry (a graph input or
    output: the author's; a subgraph value), inference failing, or writing another type. Types are compared as
    protos, with generated ``unk__<n>`` dim_params equal to one another (onnx's counter numbers them per run).
    Never raises."""
    import onnx

    names = set(names)
    held = {v.name: v for v in model.graph.value_info if v.name in names}
    if not names or set(held) != names:
        return None
    bare = onnx.ModelProto()
    bare.CopyFrom(model)
    keep = [v for v in bare.graph.value_info if v.name not in names]
    del bare.graph.value_info[:]
    bare.graph.value_info.extend(keep)
    try:
        inferred = onnx.shape_inference.infer_shapes(bare)
    except Exception:  # noqa: BLE001 - inference refuses the form: the annotation's origin is not shown
        return None
    wrote = {v.name: v for v in inferred.graph.value_info if v.name in names}
    if set(wrote) != names or any(_spelled(wrote[n].type) != _spelled(held[n].type) for n in names):
        return None
    listed = ", ".join(repr(n) for n in sorted(names))
    return f"onnx shape inference writes the annotation of {listed} when it is removed"


def _spelled(t: Any) -> str:
    """``t`` (a TypeProto) as text with each generated ``unk__<n>`` spelled ``unk__``."""
    return _GENERATED.sub("unk__", str(t))
