"""What every exporter adapter provides, and the dynamic-dim spec they share.

An adapter lives in the process that has the framework; it exports, makes source inputs at a
binding of the dynamic dims, runs the source model and turns source inputs into ONNX feeds.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

#: input index → {axis → symbol}: which dims of which example input are dynamic.
Dynamic = Mapping[int, Mapping[int, str]]


def default_dynamic(n_inputs: int, symbol: str = "batch") -> dict[int, dict[int, str]]:
    """Axis 0 of every input is the dynamic dim ``symbol`` (a shared batch)."""
    return {i: {0: symbol} for i in range(n_inputs)}


def resample(
    x: np.ndarray, axes: Mapping[int, str], binding: Mapping[str, int], rng: np.random.Generator
) -> np.ndarray:
    """``x`` with each dynamic axis resized to its bound size: slices drawn (with repetition) from the
    example's own slices, float values jittered by N(0, 0.1) so rows are not exact copies.

    Shapes: ``x`` any shape; the result has ``binding[axes[a]]`` along each axis ``a`` in ``axes``.
    """
    out = np.asarray(x)
    for axis, sym in axes.items():
        idx = rng.integers(0, out.shape[axis], size=binding[sym])
        out = np.take(out, idx, axis=axis)
    if out.dtype.kind == "f":
        out = (out + rng.normal(0.0, 0.1, size=out.shape)).astype(out.dtype)
    return out


class Exporter(abc.ABC):
    """One exporter. ``id`` is what ``--exporter`` takes; ``framework`` names the source."""

    id: str = ""
    framework: str = ""

    @abc.abstractmethod
    def export(self, source: Any, example_inputs: Sequence[Any], dynamic: Dynamic) -> Any:
        """The exported ``onnx.ModelProto``; any exception the exporter raises propagates."""

    @abc.abstractmethod
    def inputs_at(
        self, example_inputs: Sequence[Any], dynamic: Dynamic, binding: Mapping[str, int], seed: int
    ) -> list[Any]:
        """Source inputs (framework values) of the same kinds as ``example_inputs`` at ``binding``."""

    @abc.abstractmethod
    def run_source(self, source: Any, inputs: Sequence[Any]) -> list[np.ndarray]:
        """The source model's outputs on ``inputs``, as numpy arrays in graph-output order."""

    @abc.abstractmethod
    def feeds(self, model: Any, inputs: Sequence[Any]) -> dict[str, np.ndarray]:
        """ONNX feeds (graph input name → array) for ``inputs``."""

    def versions(self) -> dict[str, str]:
        return {}
