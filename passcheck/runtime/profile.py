"""onnxruntime's per-kernel profile of one run, read as the shape and element type of every
main-graph node output (:class:`TensorMeta`), without exposing a value.

A session's copy of the model names its nodes ``passcheck.node.<index>`` (subgraph nodes
``passcheck.sub.<index>``); each kernel run is then a ``Node`` event ``<name>_kernel_time`` whose
``args.output_type_shape`` lists the outputs. :func:`profiled` reads those two fields only;
:class:`Untrusted` says the profile cannot vouch for what it shows.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from passcheck.runtime.lru import kept
from passcheck.runtime.session import observation_copy

if TYPE_CHECKING:
    import onnx

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

    def __reduce__(self) -> tuple:
        return _unpickled, (self.shape, self.dtype)


def _unpickled(shape: tuple[int, ...], dtype: np.dtype) -> TensorMeta:
    """A :class:`TensorMeta` read back from a pickle (the isolation worker's reply). numpy unpickles
    a dtype as a new object; one equal to an ONNX element type's is replaced by that type's own
    (:func:`np_dtype`), so a check comparing dtypes by identity finds them alike on either side of
    the pipe."""
    return TensorMeta(shape, _canonical_dtypes().get(dtype, dtype))


@functools.cache
def _canonical_dtypes() -> dict[np.dtype, np.dtype]:
    """numpy dtype → the same dtype as :func:`np_dtype` gives it, for every ONNX element type numpy has."""
    out: dict[np.dtype, np.dtype] = {}
    for elem in elem_types().values():
        try:
            dtype = np_dtype(elem)
        except (KeyError, TypeError, ValueError):  # an element type numpy has no dtype for
            continue
        out.setdefault(dtype, dtype)
    return out


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
    """onnxruntime's profile type names → TensorProto elem_type (``float``, ``int64``,
    ``Float8E4M3FN``, ``Int4x2``...)."""
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
    # bound once: this loop runs once per kernel event (1,746 for DenseNet-121), its lookups are much of its cost
    find, rfind, shapes_at = trace.find, trace.rfind, _OUTPUT_SHAPES.match
    node_len, sub_len, end = len(NODE_TAG), len(SUB_TAG), len(trace)
    pos = events = 0
    while (i := find(KERNEL_SUFFIX, pos)) >= 0:
        events += 1
        pos = eol = find("\n", i)
        if eol < 0:
            pos = eol = end
        name = trace[rfind('"', 0, i) + 1 : i]
        if name[:sub_len] == SUB_TAG and name[sub_len:].isdigit():
            continue  # a subgraph's kernel: its values are not main-graph values
        at = find('"output_type_shape"', i, eol)
        shapes = shapes_at(trace, at) if at >= 0 else None
        if shapes is None:
            raise Untrusted(f"a kernel event not in the expected form: {trace[i - 80 : i + 80]!r}")
        index = name[node_len:]
        if name[:node_len] != NODE_TAG or not index.isdigit():
            raise Untrusted(name)
        names = outputs[int(index)]
        text = shapes.group(1)
        metas = parsed.get(text)
        if metas is None:
            metas = parsed[text] = [
                _profiled_meta(elem_types_, type_name, dims) for type_name, dims in _SHAPE_ENTRY.findall(text)
            ]
        if len(metas) != len(names):
            continue  # a non-tensor or absent output is not listed: these outputs stay unobserved here
        if len(names) == 1:  # most kernels: one output
            if metas[0] is not None:
                out[names[0]] = metas[0]
            continue
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


def ort_copy(
    model: onnx.ModelProto, expose: Iterable[str], tag_nodes: bool = False, untyped: bool = True
) -> onnx.ModelProto:
    """The session's model: annotations cleared, ``expose`` added as outputs, outputs untyped.

    Graph outputs carry no type (unless not ``untyped``: the copy :func:`run_ort` runs), so a
    wrong output annotation cannot stop the model from loading. With ``tag_nodes``, main-graph
    node i is renamed ``passcheck.node.<i>`` to find it in the profile.
    """
    copy, _ = observation_copy(model, expose)
    for vi in copy.graph.output if untyped else ():
        vi.ClearField("type")
    if tag_nodes:
        for i, n in enumerate(copy.graph.node):
            n.name = f"{NODE_TAG}{i}"
        for i, n in enumerate(subgraph_nodes(copy.graph)):
            n.name = f"{SUB_TAG}{i}"
    return copy


def subgraph_nodes(graph) -> list:
    """Every node of every subgraph (If/Loop/Scan bodies, nested), in one fixed order."""
    out = []
    for n in graph.node:
        for att in n.attribute:
            for g in [att.g] if att.type == att.GRAPH else att.graphs if att.type == att.GRAPHS else ():
                out.extend(g.node)
                out.extend(subgraph_nodes(g))
    return out


def copy_bytes(
    model: onnx.ModelProto, expose: list[str], tag_nodes: bool, untyped: bool, model_key: bytes | None
) -> bytes:
    """The bytes of ``ort_copy(model, expose, tag_nodes, untyped)``; with ``model_key`` (the sha256
    of ``model``'s bytes) kept for the last :data:`_COPIES_KEPT` models and observed names, so a
    model run on a second binding, or checked again, is not copied, tagged and serialized again."""
    if model_key is None:
        return ort_copy(model, expose, tag_nodes, untyped).SerializeToString()
    key = (model_key, tuple(expose), tag_nodes, untyped)
    return kept(_COPIES, key, lambda: ort_copy(model, expose, tag_nodes, untyped).SerializeToString(), _COPIES_KEPT)


#: Session copies kept by (model digest, exposed names, tagged, untyped outputs): their bytes.
_COPIES: collections.OrderedDict[tuple, bytes] = collections.OrderedDict()
_COPIES_KEPT = 2
