"""onnxoptimizer's passes one at a time: ``onnxoptimizer:pass-NAME`` runs ``onnxoptimizer.optimize(model,
[NAME])`` for each pass the installed onnxoptimizer lists in ``get_available_passes()`` (``_`` → ``-``:
``fuse_bn_into_conv`` → ``onnxoptimizer:pass-fuse-bn-into-conv``), and ``onnxoptimizer:opt-in`` runs
together the available passes its default (``get_fuse_and_elimination_passes()``, what ``optimize(model)``
applies) leaves out.

The passes are read from the installed onnxoptimizer, so a newer release's passes are reached without a
change here. Left out (:data:`NOT_COMPUTATION_PRESERVING`) are the passes whose own source (the pass
headers the wheel ships under ``onnxoptimizer/passes/``) says they change the model's interface or leave a
model ONNX does not define: no oracle of passcheck's applies to such an output as the same computation.
The passes whose source declares ``PassOptimizationType::None`` (``nop``, ``set_unique_name_for_nodes``)
do not rewrite the computation, so op-type parity does not apply to them (:data:`NOT_REWRITING`).
"""

from __future__ import annotations

import functools
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.passes._base import PassAdapter

PREFIX = "onnxoptimizer:pass-"
OPT_IN = "onnxoptimizer:opt-in"

#: Available passes not run, each with what its own source (onnxoptimizer 0.4.2, ``passes/*.h``) says.
NOT_COMPUTATION_PRESERVING = {
    "rename_input_output": "renames the graph inputs and outputs (input_%d / output_%d): the interface changes",
    "rewrite_input_dtype": "turns every int64 graph input into an int32 one (a Cast inserted): the interface changes",
    "split_init": "keeps only the 'init' net of the graph split in two: the outputs change",
    "split_predict": "keeps only the 'predict' net, which takes the init net's values as new inputs",
    "lift_lexical_references": "adds __control_inputs attributes; its source: 'a graph that does not conform to "
    "the ONNX spec'",
}
#: Passes whose source declares ``PassOptimizationType::None``: they keep every node's computation.
NOT_REWRITING = frozenset({"nop", "set_unique_name_for_nodes"})


@functools.cache
def available() -> tuple[str, ...]:
    """The passes ``onnxoptimizer.get_available_passes()`` lists, less :data:`NOT_COMPUTATION_PRESERVING`
    (empty when onnxoptimizer is not installed)."""
    try:
        import onnxoptimizer
    except ImportError:
        return ()
    return tuple(p for p in onnxoptimizer.get_available_passes() if p not in NOT_COMPUTATION_PRESERVING)


def opt_in() -> list[str]:
    """The :func:`available` passes the default ``optimize(model)`` (``get_fuse_and_elimination_passes()``)
    does not apply."""
    import onnxoptimizer

    default = set(onnxoptimizer.get_fuse_and_elimination_passes())
    return [p for p in available() if p not in default]


def pass_id(name: str) -> str:
    return PREFIX + name.replace("_", "-")


def pass_ids() -> list[str]:
    """``onnxoptimizer:pass-NAME`` for every :func:`available` pass, in the tool's order."""
    return [pass_id(p) for p in available()]


class OnnxoptimizerPassAdapter(PassAdapter):
    """``onnxoptimizer:pass-NAME`` (one pass) or ``onnxoptimizer:opt-in`` (the passes the default leaves
    out), through ``onnxoptimizer.optimize(model, passes)``."""

    tools = ("onnxoptimizer",)
    extra = "onnxoptimizer"

    def __init__(self, pid: str):
        self.id = pid
        self.name = None if pid == OPT_IN else pid.removeprefix(PREFIX).replace("-", "_")
        self.doc = (
            "onnxoptimizer.optimize(model, <each available pass get_fuse_and_elimination_passes() leaves out>)"
            if self.name is None
            else f"onnxoptimizer.optimize(model, [{self.name!r}])"
        )

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        return self.name not in NOT_REWRITING

    def passes(self) -> list[str]:
        return opt_in() if self.name is None else [self.name]

    def unavailable_reason(self) -> str | None:
        reason = super().unavailable_reason()
        if reason is None and self.name is not None and self.name not in available():
            reason = f"this onnxoptimizer has no pass {self.name!r} in get_available_passes()"
        return reason

    def apply(self, model, workdir: Path):
        import onnxoptimizer

        return onnxoptimizer.optimize(model, self.passes())


def adapter(pid: str) -> OnnxoptimizerPassAdapter:
    """The adapter for ``onnxoptimizer:pass-NAME`` / ``onnxoptimizer:opt-in``.

    Raises:
        PasscheckError: NAME is not an available pass, or one left out (the reason given).
    """
    name = pid.removeprefix(PREFIX).replace("-", "_")
    if pid != OPT_IN:
        if name in NOT_COMPUTATION_PRESERVING:
            raise PasscheckError(f"pass {pid!r} is left out: {NOT_COMPUTATION_PRESERVING[name]}")
        if available() and name not in available():
            known = ", ".join(p.replace("_", "-") for p in available())
            raise PasscheckError(f"pass {pid!r}: onnxoptimizer has no such pass; known: {known}")
    return OnnxoptimizerPassAdapter(pid)
