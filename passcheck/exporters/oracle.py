"""The exporter oracle: the exported model itself, judged against its source at several bindings.

At each binding of the dynamic dims: the exported model must run (onnxruntime, isolated), its own
annotations must hold on the values seen (seed 000; ``annotation-violated``), and every graph output
must equal the source framework's output within the exported dtype's tolerance
(:mod:`passcheck.oracles.numeric`; ``wrong-result``). A run that fails where the source ran is
``rejected``; a model the checker refuses is ``invalid-model``. All findings have oracle ``exporter``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from passcheck.records import Finding, brief

NAME = "exporter"


@dataclasses.dataclass
class BindingRun:
    """One binding: the sizes, the ONNX feeds, the source outputs and the exported model's run."""

    binding: dict[str, int]
    feeds: dict[str, Any]
    expected: list[np.ndarray]
    run: Any  # passcheck.runtime.session.RunResult


def as_exported(expected: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """The source value in the exported value's layout: same dtype, and reshaped when only the
    layout differs (skl2onnx writes ``predict`` ``[n]`` as ``[n, 1]``)."""
    e = np.asarray(expected)
    if e.shape != actual.shape and e.size == actual.size:
        e = e.reshape(actual.shape)
    return e.astype(actual.dtype) if e.dtype != actual.dtype and e.shape == actual.shape else e


def judge(
    model: Any,
    runs: Sequence[BindingRun],
    finding: Callable[..., Finding],
    framework: str,
    rtol: float | None = None,
    atol: float | None = None,
) -> list[Finding]:
    """Findings on the exported ``model`` over ``runs`` (see module doc).

    ``finding(kind, oracle, message, **details)`` makes a Finding for the export cell.
    """
    from passcheck.oracles.numeric import compare, tolerance
    from passcheck.oracles.shape_annotations import check as check_annotations

    found: list[Finding] = []
    seen: set[str] = set()
    out_names = [o.name for o in model.graph.output]
    for r in runs:
        at = ", ".join(f"{k}={v}" for k, v in r.binding.items()) or "the example shapes"
        if r.run.error:
            found.append(
                finding(
                    "rejected",
                    NAME,
                    f"the exported model does not run at {at} where {framework} does: {brief(r.run.error)}",
                    binding=r.binding,
                    error=r.run.error,
                )
            )
            continue
        for v in check_annotations(model, r.run.observed).violations:
            if v.message not in seen:
                seen.add(v.message)
                found.append(
                    finding(
                        "annotation-violated",
                        NAME,
                        f"the exporter's annotation does not hold at {at}: {v.message}",
                        binding=r.binding,
                        value=v.value,
                        role=v.role,
                        rule=v.rule,
                    )
                )
        if len(r.expected) != len(out_names):
            found.append(
                finding(
                    "wrong-result",
                    NAME,
                    f"the exported model has {len(out_names)} outputs, {framework} gives {len(r.expected)}",
                    binding=r.binding,
                )
            )
            continue
        for name, exp in zip(out_names, r.expected):
            act = np.asarray(r.run.outputs[name])
            c = compare(act, as_exported(exp, act), rtol, atol)
            if not c.ok:
                rt, at_ = tolerance(act.dtype, rtol, atol) if act.dtype.kind == "f" else (0.0, 0.0)
                found.append(
                    finding(
                        "wrong-result",
                        NAME,
                        f"output {name!r} at {at} differs from {framework}: {c.message}",
                        binding=r.binding,
                        output=name,
                        max_abs=c.max_abs,
                        max_rel=c.max_rel,
                        rtol=rt,
                        atol=at_,
                        worst=c.worst,
                    )
                )
    return found
