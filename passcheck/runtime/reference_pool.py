"""Array-at-once AveragePool and MaxPool for ``onnx.reference.ReferenceEvaluator`` (its ``new_ops``), equal
to the installed onnx's own implementations, which visit one output element at a time in Python (0.3–1 s per
node on a light net's 56×56 maps; most of a reference run of one).

Each op computes its result itself only where every pinned onnx (1.16 … 1.23) defines it the same way and
plainly (Operators.md §AveragePool, §MaxPool: explicit ``pads``, ``auto_pad`` NOTSET, ``ceil_mode`` 0, a
floating input without NaN, every window holding at least one input element; MaxPool's ``Y`` alone, with a
stride or dilation other than 1); every
other case (``auto_pad``, ``ceil_mode``, NaN inputs, whose handling differs between those versions,
``Indices``, integer inputs, attributes linked to a function's) is handed to the installed implementation for
the node's opset, so a run's values are the evaluator's own either way. The equality, bit for bit, is tested
over the attribute space in tests/runtime/test_reference_pool.py.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np


def _attribute(reference: Any, name: str, default: Any = None) -> Any:
    """The value ``reference`` (an installed op instance) passes its ``_run`` for attribute ``name``:
    its loaded attribute where its ``_run`` takes the keyword, else ``default`` (AveragePool before opset 19
    ignores ``dilations``)."""
    if name not in inspect.signature(type(reference)._run).parameters:
        return default
    return getattr(reference, name, default)


def _geometry(reference: Any, x: np.ndarray) -> tuple[list[int], list[int], list[int], list[int]] | None:
    """(kernel, strides, dilations, pads) of the plain case, or None where the installed op must decide."""
    kernel, auto_pad = _attribute(reference, "kernel_shape"), _attribute(reference, "auto_pad")
    if kernel is None or auto_pad not in (None, "NOTSET") or _attribute(reference, "ceil_mode"):
        return None
    n = len(kernel)
    if x.ndim != n + 2 or x.dtype.kind != "f" or x.size == 0 or np.isnan(x).any():
        return None
    strides = list(_attribute(reference, "strides") or [1] * n)
    dilations = list(_attribute(reference, "dilations") or [1] * n)
    pads = list(_attribute(reference, "pads") or [0] * 2 * n)
    kernel = list(kernel)
    if len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
        return None
    if min(kernel + strides + dilations) < 1 or min(pads) < 0:
        return None
    for i in range(n):
        size, extent = x.shape[2 + i], (kernel[i] - 1) * dilations[i] + 1
        out = (size + pads[i] + pads[n + i] - extent) // strides[i] + 1
        if out < 1:
            return None
        start = np.arange(out)[:, None] * strides[i] + np.arange(kernel[i])[None, :] * dilations[i] - pads[i]
        if not ((start >= 0) & (start < size)).any(axis=1).all():
            return None  # a window of padding only
    return kernel, strides, dilations, pads


def windows(x: np.ndarray, kernel, strides, dilations, pads, value: float) -> np.ndarray:
    """The pooling windows of ``x`` (N, C, D1, …, Dn) padded with ``value``: shape (N, C, O1, …, On, K),
    K = prod(kernel), each window's elements in row-major order of the kernel's offsets."""
    n = len(kernel)
    padded = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[n + i]) for i in range(n)], constant_values=value)
    index = []
    for i in range(n):
        out = (padded.shape[2 + i] - (kernel[i] - 1) * dilations[i] - 1) // strides[i] + 1
        at = np.arange(out)[:, None] * strides[i] + np.arange(kernel[i])[None, :] * dilations[i]
        shape = [1] * (2 * n)
        shape[i], shape[n + i] = out, kernel[i]
        index.append(at.reshape(shape))
    w = padded[(slice(None), slice(None), *index)]
    return np.ascontiguousarray(w.reshape(*w.shape[: 2 + n], -1))


def _mean_without_nan(w: np.ndarray) -> np.ndarray:
    """The mean of each last-axis row's non-NaN elements, each row summed as numpy sums a 1-D array of them
    (pairwise summation depends on the count, so rows are grouped by it)."""
    missing = np.isnan(w)
    if not missing.any():
        return w.mean(axis=-1)
    flat = w.reshape(-1, w.shape[-1])
    counts = flat.shape[1] - missing.reshape(flat.shape).sum(axis=1)
    kept = np.take_along_axis(flat, np.argsort(missing.reshape(flat.shape), axis=1, kind="stable"), axis=1)
    out = np.empty(flat.shape[0], dtype=w.dtype)
    for c in np.unique(counts):
        rows = counts == c
        out[rows] = np.ascontiguousarray(kept[rows, :c]).mean(axis=-1)
    return out.reshape(w.shape[:-1])


def average_pool(reference: Any, x: np.ndarray) -> np.ndarray | None:
    """AveragePool's ``Y`` as the installed op computes it, or None where it must be asked: padding holds NaN
    and NaNs are left out of a window's mean unless ``count_include_pad`` is 1 (padding 0, every element
    counted)."""
    if (geometry := _geometry(reference, x)) is None:
        return None
    include = _attribute(reference, "count_include_pad")
    w = windows(x, *geometry, value=np.nan if include == 0 else 0)
    return (w.mean(axis=-1) if include == 1 else _mean_without_nan(w)).astype(x.dtype)


def max_pool(reference: Any, x: np.ndarray) -> np.ndarray | None:
    """MaxPool's ``Y`` as the installed op computes it (the largest input element of each window), or None.
    Only where a stride or dilation is not 1: the installed op then visits each window's elements inside the
    input (1–3 spatial dims); with all of them 1 it takes another route, whose reading of ``pads`` is its own."""
    strides, dilations = _attribute(reference, "strides"), _attribute(reference, "dilations")
    if all(not v or set(v) == {1} for v in (strides, dilations)) or x.ndim not in (3, 4, 5):
        return None
    if len(reference.onnx_node.output) != 1 or (geometry := _geometry(reference, x)) is None:
        return None
    w = windows(x, *geometry, value=-np.inf)
    first = np.argmax(w, axis=-1)[..., None]  # the first largest element, as the installed op keeps it (0 before -0)
    return np.take_along_axis(w, first, axis=-1)[..., 0].astype(x.dtype)


def _fast(op_type: str, compute) -> type:
    from onnx.reference.op_run import OpRun
    from onnx.reference.ops import load_op

    def __init__(self, onnx_node, run_params, schema=None):
        OpRun.__init__(self, onnx_node, run_params, schema)
        version = run_params["opsets"][onnx_node.domain]
        self.reference = load_op(onnx_node.domain, op_type, version)(onnx_node, run_params)

    def run(self, *args, **kwargs):
        if not kwargs and len(args) == 1 and isinstance(args[0], np.ndarray):
            if (y := compute(self.reference, args[0])) is not None:
                return (y,)
        return self.reference.run(*args, **kwargs)

    def _run(self, *args, **kwargs):  # OpRun's abstract method; run() above never reaches it
        return self.reference._run(*args, **kwargs)

    return type(op_type, (OpRun,), {"op_domain": "", "__init__": __init__, "run": run, "_run": _run})


def new_ops() -> list[type]:
    """The evaluator's ``new_ops``: classes named AveragePool and MaxPool (domain ``""``) standing in for the
    installed ones."""
    return [_fast("AveragePool", average_pool), _fast("MaxPool", max_pool)]
