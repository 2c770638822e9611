"""The pass adapter contract and the record every pass run returns."""

from __future__ import annotations

import dataclasses
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from passcheck._versions import tool_version

if TYPE_CHECKING:
    import onnx

#: Outcome statuses. ``declined``: the tool refused the model with its own error;
#: ``crashed``: any other exception, a signal or a missing output; ``unavailable``: the tool
#: is missing, or the model is outside what the tool documents it supports (not run, no
#: finding); ``timeout`` / ``out-of-memory``: killed by passcheck's limits (see
#: passcheck.passes.isolation).
STATUSES = ("changed", "unchanged", "declined", "crashed", "unavailable", "timeout", "out-of-memory")
FAILED = frozenset({"declined", "crashed", "timeout", "out-of-memory"})


class PassDeclined(Exception):
    """Raised by an adapter when the tool under test refused the model with its own error."""


@dataclasses.dataclass
class PassOutcome:
    """What one pass did to one model.

    Attributes:
        pass_id: the adapter id, e.g. ``ort:basic``.
        status: one of :data:`STATUSES`.
        model: the output ModelProto (None unless status is changed/unchanged).
        error: the tool's error text, last lines of a traceback or of the command's output.
        versions: exact versions of the tools the adapter used.
        seconds: wall time of the pass alone.
    """

    pass_id: str
    status: str
    model: "onnx.ModelProto | None" = None
    error: str | None = None
    versions: dict[str, str | None] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status in ("changed", "unchanged")

    def to_json(self) -> dict[str, Any]:
        return {"pass": self.pass_id, "status": self.status, "error": self.error, "versions": self.versions, "seconds": round(self.seconds, 4)}


class PassAdapter:
    """One tool and variant, with an id a user types.

    Subclasses set :attr:`id`, :attr:`tools` and implement :meth:`apply`. :meth:`run` wraps
    it: copies the input, times it, and turns every exception into a status (never raised).

    Attributes:
        id: e.g. ``ort:extended``.
        tools: distribution names whose versions are recorded.
        folds_constants: the pass is expected to fold constant subgraphs, so the
            missed-folding oracle applies to its output.
        optimizes: the pass rewrites the graph (fusions, folding), so op-type parity between
            forms applies; shape inference and the version converter do not.
        declines: exception types that mean the tool refused the model deliberately.
    """

    id: str = ""
    tools: tuple[str, ...] = ()
    folds_constants: ClassVar[bool] = False
    optimizes: ClassVar[bool] = False
    declines: tuple[type[BaseException], ...] = ()
    doc: str = ""

    def unavailable_reason(self) -> str | None:
        """Why the tool cannot run here (missing package, too old), or None."""
        for t in self.tools:
            if tool_version(t) is None:
                return f"{t} is not installed"
        return None

    def precondition(self, model: "onnx.ModelProto") -> str | None:
        """Why this tool does not support ``model`` by its own documentation (e.g. an opset below
        its minimum), or None. A model outside the documented range is ``unavailable``, not a
        finding: the pass is not run. Reads the model only; never raises."""
        return None

    def apply(self, model: "onnx.ModelProto", workdir: Path) -> "onnx.ModelProto":
        """Run the tool on ``model`` (a private copy) and return its output model.

        Raises:
            PassDeclined: the tool refused the model with its own error.
            Exception: anything else is recorded as ``crashed``.
        """
        raise NotImplementedError

    def versions(self) -> dict[str, str | None]:
        return {t: tool_version(t) for t in self.tools}

    def run(self, model: "onnx.ModelProto", workdir: Path) -> PassOutcome:
        """Apply the pass to a copy of ``model``; never raises for a tool failure."""
        import onnx

        reason = self.unavailable_reason() or self.precondition(model)
        if reason:
            return PassOutcome(self.id, "unavailable", error=reason, versions=self.versions())
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        start = time.perf_counter()
        try:
            out = self.apply(copy, Path(workdir))
        except PassDeclined as exc:
            return PassOutcome(self.id, "declined", error=_one_para(str(exc)), versions=self.versions(), seconds=time.perf_counter() - start)
        except TimeoutError as exc:
            return PassOutcome(self.id, "timeout", error=str(exc), versions=self.versions(), seconds=time.perf_counter() - start)
        except self.declines as exc:  # type: ignore[misc]
            return PassOutcome(self.id, "declined", error=_one_para(f"{type(exc).__name__}: {exc}"), versions=self.versions(), seconds=time.perf_counter() - start)
        except Exception as exc:  # noqa: BLE001 - a crash of the tool is a finding, not our error
            return PassOutcome(self.id, "crashed", error=_describe(exc), versions=self.versions(), seconds=time.perf_counter() - start)
        seconds = time.perf_counter() - start
        if not isinstance(out, onnx.ModelProto):
            return PassOutcome(self.id, "crashed", error=f"pass returned {type(out).__name__}, not a ModelProto", versions=self.versions(), seconds=seconds)
        same = _graph_bytes(out) == _graph_bytes(model)
        return PassOutcome(self.id, "unchanged" if same else "changed", model=out, versions=self.versions(), seconds=seconds)


def default_opset(model: "onnx.ModelProto") -> int | None:
    """The model's ``ai.onnx`` opset version (domain ``""`` or ``ai.onnx``), or None if it imports none."""
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def _describe(exc: BaseException) -> str:
    """First line: the innermost cause (where the tool really failed); then the chain and the
    last frames of the innermost traceback."""
    import re

    chain = [exc]
    while (nxt := chain[-1].__cause__ or chain[-1].__context__) is not None and len(chain) < 10:
        chain.append(nxt)
    root = chain[-1]
    clean = lambda e: re.sub(r" object at 0x[0-9a-f]+", "", f"{type(e).__name__}: {e}")  # noqa: E731
    lines = [_one_para(clean(root), 500)] + [f"  raised as {_one_para(clean(e), 300)}" for e in reversed(chain[:-1])]
    tb = traceback.format_exception(type(root), root, root.__traceback__)
    return "\n".join(lines) + "\n" + "".join(tb[-3:-1])


def _graph_bytes(model: "onnx.ModelProto") -> bytes:
    return model.graph.SerializeToString(deterministic=True) + b"".join(f.SerializeToString(deterministic=True) for f in model.functions)


def _one_para(text: str, limit: int = 2000) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
