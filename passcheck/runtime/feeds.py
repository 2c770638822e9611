"""Deterministic feeds synthesized from graph-input annotations and a binding map.

Sizes: ``dim_value`` as declared, ``dim_param`` from the binding (seed 000: one binding map per
run), anonymous dims from ``default_size``. Values: float types ~ N(0, 1); integer types
uniform in [0, 4); bool uniform; strings from a small alphabet. The same (model inputs,
binding, seed) always give the same arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.errors import FeedError

if TYPE_CHECKING:
    import onnx

#: Refuse to synthesize feeds larger than this (bytes) in total.
MAX_FEED_BYTES = 1 << 30
DEFAULT_SIZES = (2, 3)


def graph_symbols(model: onnx.ModelProto) -> list[str]:
    """dim_param names used by the main graph's inputs, in order of first use."""
    seen: dict[str, None] = {}
    for vi in runtime_inputs(model):
        for t in _tensor_types(vi.type):
            if t.HasField("shape"):
                for d in t.shape.dim:
                    if d.HasField("dim_param") and d.dim_param:
                        seen.setdefault(d.dim_param)
    return list(seen)


def default_bindings(model: onnx.ModelProto, overrides: Mapping[str, int] | None = None) -> list[dict[str, int]]:
    """Two bindings (every input symbol to 2, then to 3) with ``overrides`` applied to both.

    Raises:
        FeedError: an override names a symbol the model's inputs do not use.
    """
    symbols = graph_symbols(model)
    for s in overrides or {}:
        if s not in symbols:
            raise FeedError(
                f"--bind {s}: the model's inputs have no symbolic dim {s!r}"
                + (f" (they use: {', '.join(symbols)})" if symbols else " (they have no symbolic dims)")
            )
    return [{**{s: size for s in symbols}, **(overrides or {})} for size in DEFAULT_SIZES]


def runtime_inputs(model: onnx.ModelProto) -> list[onnx.ValueInfoProto]:
    """Graph inputs that need a feed (an input with an initializer keeps its default)."""
    inits = {t.name for t in model.graph.initializer}
    return [vi for vi in model.graph.input if vi.name not in inits]


def session_inputs(sess: Any) -> set[str]:
    """Names an onnxruntime ``InferenceSession`` accepts in a feed: its inputs and its overridable initializers
    (graph inputs with an initializer of the same name: IR.md §Graphs, the initializer is that input's default, which
    a feed replaces). A feed that names neither is not given to the session."""
    return {i.name for i in sess.get_inputs()} | {i.name for i in sess.get_overridable_initializers()}


def synthesize(
    model: onnx.ModelProto,
    binding: Mapping[str, int],
    seed: int,
    *,
    default_size: int = 2,
    max_bytes: int = MAX_FEED_BYTES,
) -> dict[str, Any]:
    """Feeds for every runtime input of ``model``.

    Returns:
        input name → numpy array (tensors), list of arrays (sequences) or None/array (optional).

    Raises:
        FeedError: an input with no shape (rank unknown), an unsupported type, or feeds larger
            than ``max_bytes`` (nothing is allocated in that case).
    """
    import onnx

    rng = np.random.default_rng(seed)
    plans = []
    total = 0
    for vi in runtime_inputs(model):
        kind = vi.type.WhichOneof("value")
        if kind == "tensor_type":
            shape, dtype = _plan(vi.name, vi.type.tensor_type, binding, default_size)
            size = int(np.prod(shape, dtype=object)) * dtype.itemsize
            total += size
            plans.append((vi.name, "tensor", shape, dtype, size))
        elif kind in ("sequence_type", "optional_type"):
            elem = vi.type.sequence_type.elem_type if kind == "sequence_type" else vi.type.optional_type.elem_type
            if elem.WhichOneof("value") != "tensor_type":
                raise FeedError(
                    f"input {vi.name!r}: cannot synthesize a {kind} of {elem.WhichOneof('value')}; "
                    "pass feeds with --feeds"
                )
            shape, dtype = _plan(vi.name, elem.tensor_type, binding, default_size)
            size = int(np.prod(shape, dtype=object)) * dtype.itemsize * 2
            total += size
            plans.append((vi.name, kind, shape, dtype, size))
        else:
            raise FeedError(f"input {vi.name!r}: cannot synthesize a value of kind {kind}; pass feeds with --feeds")
    if total > max_bytes:
        big = max(plans, key=lambda p: p[4])
        raise FeedError(
            f"synthesized feeds would take {total:,} bytes (limit {max_bytes:,}; input {big[0]!r} of shape "
            f"{list(big[2])} "
            f"alone {big[4]:,}); give real inputs with --feeds"
            + ("" if not binding else ", or smaller symbolic dims with --bind SYM=N")
        )
    del onnx
    feeds: dict[str, Any] = {}
    for name, kind, shape, dtype, _size in plans:
        if kind == "sequence_type":
            feeds[name] = [_values(rng, shape, dtype) for _ in range(2)]
        else:
            feeds[name] = _values(rng, shape, dtype)
    return feeds


def _tensor_types(tp: onnx.TypeProto):
    kind = tp.WhichOneof("value")
    if kind == "tensor_type":
        yield tp.tensor_type
    elif kind in ("sequence_type", "optional_type"):
        yield from _tensor_types(getattr(tp, kind).elem_type)


def _plan(name: str, tt, binding: Mapping[str, int], default_size: int) -> tuple[tuple[int, ...], np.dtype]:
    import onnx.helper

    try:
        dtype = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type))
    except (KeyError, TypeError, ValueError):
        raise FeedError(
            f"input {name!r}: elem_type {tt.elem_type} has no numpy dtype; pass feeds with --feeds"
        ) from None
    if not tt.HasField("shape"):
        raise FeedError(f"input {name!r} has no shape annotation (rank unknown); pass feeds with --feeds")
    shape = []
    for d in tt.shape.dim:
        if d.HasField("dim_value"):
            if d.dim_value < 0:
                raise FeedError(f"input {name!r}: negative dim_value {d.dim_value}")
            shape.append(d.dim_value)
        elif d.HasField("dim_param") and d.dim_param:
            shape.append(int(binding.get(d.dim_param, default_size)))
        else:
            shape.append(default_size)
    return tuple(shape), dtype


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype):
    if dtype.kind == "f" or dtype.name in ("bfloat16",) or dtype.kind == "V":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0, 4, shape).astype(dtype)
    if dtype.kind in "OUS":
        return rng.choice(np.array(["a", "b", "c"], dtype=object), shape)
    return np.zeros(shape, dtype)
