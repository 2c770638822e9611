"""onnxruntime's per-kernel profile of one run, read as the shape and element type of every
main-graph node output (:class:`TensorMeta`), without exposing a value.

A session's copy of the model names its nodes ``passcheck.node.<index>`` (subgraph nodes
``passcheck.sub.<index>``); each kernel run is then a ``Node`` event ``<name>_kernel_time`` whose
``args.output_type_shape`` lists the outputs. :func:`profiled` reads those two fields only;
:class:`Untrusted` says the profile cannot vouch for what it shows.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

#: Node names given in the session's copy; a profiled kernel with another name was added by onnxruntime.
NODE_TAG = "passcheck.node."
KERNEL_SUFFIX = '_kernel_time"'
_OUTPUT_SHAPES = re.compile(r'"output_type_shape"\s*:\s*\[((?:\{"[^"]+":\[[0-9,]*\]\},?)*)\]')
_SHAPE_ENTRY = re.compile(r'\{"([^"]+)":\[([0-9,]*)\]\}')
TAGGED = re.compile(re.escape(NODE_TAG) + r"(\d+)")
#: Node names given to subgraph nodes in the session's copy: their kernels' events are skipped.
SUB_TAG = "passcheck.sub."
SUBTAGGED = re.compile(re.escape(SUB_TAG) + r"(\d+)")

@dataclasses.dataclass(frozen=True, slots=True)
class TensorMeta:
    """A tensor as the checker needs it: ``shape`` and numpy ``dtype``, without its data."""

    shape: tuple[int, ...]
    dtype: np.dtype


class Untrusted(Exception):
    """The fast run cannot vouch for what it saw; observe again with every value exposed."""


def meta(shape: Iterable[int], elem_type: int) -> TensorMeta:
    return TensorMeta(tuple(map(int, shape)), np_dtype(elem_type))


@functools.cache
def np_dtype(elem_type: int) -> np.dtype:
    import onnx.helper

    return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type))


@functools.cache
def elem_types() -> dict[str, int]:
    """onnxruntime's profile type names → TensorProto elem_type (``float``, ``int64``, ``Float8E4M3FN``, ``Int4x2``...)."""
    import onnx

    return {name.lower(): value for name, value in onnx.TensorProto.DataType.items() if value}


def profiled(outputs: list[tuple[str, ...]], trace: str) -> dict[str, TensorMeta]:
    """Output name → shape and elem_type of every main-graph node output, from one run's profile.

    ``trace`` is onnxruntime's profile (Chrome trace JSON, one event a line): each kernel run is a
    ``Node`` event named ``<node name>_kernel_time`` whose ``args.output_type_shape`` lists
    ``{"<type name>":[dims]}`` for each tensor output. Only those two fields are read, by
    pattern, so the (large) rest of each event is never decoded.

    ``outputs``: the (non-empty) outputs of each main-graph node, in node order.

    Raises:
        Untrusted: a kernel not of the model ran (onnxruntime rewrote the graph: inserted casts,
            expanded a function), or a kernel event is not in the expected form.
    """
    elem_types_ = elem_types()
    parsed: dict[str, list[TensorMeta | None]] = {}  # the output_type_shape text of an event → its outputs
    out: dict[str, TensorMeta] = {}
    pos = events = 0
    while (i := trace.find(KERNEL_SUFFIX, pos)) >= 0:
        events += 1
        eol = trace.find("\n", i)
        pos = eol = len(trace) if eol < 0 else eol
        name = trace[trace.rfind('"', 0, i) + 1:i]
        if name.startswith(SUB_TAG) and name[len(SUB_TAG):].isdigit():
            continue  # a subgraph's kernel: its values are not main-graph values
        at = trace.find('"output_type_shape"', i, eol)
        shapes = _OUTPUT_SHAPES.match(trace, at) if at >= 0 else None
        if shapes is None:
            raise Untrusted(f"a kernel event not in the expected form: {trace[i - 80:i + 80]!r}")
        if not name.startswith(NODE_TAG) or not name[len(NODE_TAG):].isdigit():
            raise Untrusted(name)
        names = outputs[int(name[len(NODE_TAG):])]
        text = shapes.group(1)
        metas = parsed.get(text)
        if metas is None:
            metas = parsed[text] = [_profiled_meta(elem_types_, type_name, dims) for type_name, dims in _SHAPE_ENTRY.findall(text)]
        if len(metas) != len(names):
            continue  # a non-tensor or absent output is not listed: these outputs stay unobserved here
        for output, meta in zip(names, metas):
            if meta is not None:
                out[output] = meta
    # counted in one pass: a bounded search per line is slow on the quote-dense event text
    if events != trace.count(KERNEL_SUFFIX):
        raise Untrusted("a line with more than one kernel event: not the expected form")
    return out


def _profiled_meta(elem_types: dict[str, int], type_name: str, dims: str) -> TensorMeta | None:
    elem = elem_types.get(type_name.lower().removesuffix("x2"))
    return None if elem is None else TensorMeta(tuple(map(int, dims.split(","))) if dims else (), np_dtype(elem))


def end_profiling(sess) -> str:
    """The session's profile text (empty if it cannot be read); its file is removed."""
    try:
        path = Path(sess.end_profiling())
        try:
            return path.read_text()
        finally:
            path.unlink(missing_ok=True)
    except (OSError, RuntimeError):
        return ""
