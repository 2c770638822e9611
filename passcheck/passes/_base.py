"""The pass adapter contract and the record every pass run returns."""

from __future__ import annotations

import dataclasses
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from passcheck._versions import tool_version

if TYPE_CHECKING:
    from collections.abc import Callable

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


#: How the error of an ``unavailable`` outcome begins when the tool itself stated the limit.
STATED_LIMIT = "the tool states it does not support this: "


#: Resolves a step's pass id to its adapter (:meth:`PassAdapter.stated_limit`); the registry sets it when it loads
#: (:func:`set_step_lookup`), so this module imports no registry.
_STEP_LOOKUP: Callable[[str], PassAdapter] | None = None


def set_step_lookup(lookup: Callable[[str], PassAdapter]) -> None:
    """Give :meth:`PassAdapter.stated_limit` the registry's id lookup (``passcheck.passes._registry.get_pass``)."""
    global _STEP_LOOKUP
    _STEP_LOOKUP = lookup


class PassUnsupported(PassDeclined):
    """Raised by an adapter when the tool refused the model citing a limit it documents (e.g. the
    onnx version converter has no adapter for a step): ``unavailable`` with the tool's own words,
    not a finding, unless the tool accepts another form of the same computation (acceptance)."""


@dataclasses.dataclass(frozen=True)
class Capabilities:
    """What a pass adapter declares about its tool; oracles and ``list --passes`` read it.

    Attributes:
        optimizes: the pass rewrites the graph (fusions, folding), so op-type parity between
            forms applies; shape inference and the version converter do not.
        folds_constants: the pass is expected to fold constant subgraphs (missed-folding oracle).
        needs_feeds: the tool runs the model itself (on inputs it makes or is given, e.g. to
            fold or to verify its result), so it fails where onnxruntime cannot run the model.
        min_opset / max_opset: the ai.onnx opsets the tool documents it supports (inclusive,
            None = no bound); a model outside them is ``unavailable``, not run, and the hunt draws
            no base outside them (:mod:`passcheck.hunt.pass_range`).
        extra: the pip requirement that installs the tool when passcheck's own dependencies do
            not (e.g. ``onnxslim``), or None.
        precision: the element type the pass stores float values in (``float16`` for a float16
            conversion, ``uint8`` / ``int8`` for a quantizer), or None: it keeps float32. The numeric
            oracle judges its outputs at that type's precision
            (:func:`passcheck.oracles.numeric.pass_tolerance`).
    """

    optimizes: bool = False
    folds_constants: bool = False
    needs_feeds: bool = False
    min_opset: int | None = None
    max_opset: int | None = None
    extra: str | None = None
    precision: str | None = None

    def outside(self, model: onnx.ModelProto) -> str | None:
        """Why ``model``'s ai.onnx opset is outside [min_opset, max_opset], or None (no bound set:
        never outside)."""
        if self.min_opset is None and self.max_opset is None:
            return None
        opset = default_opset(model)
        low, high = self.min_opset, self.max_opset
        span = (
            f"{low} only"
            if low == high
            else f"{low}..{high}"
            if low is not None and high is not None
            else f"{low} and above"
            if low is not None
            else f"up to {high}"
        )
        if opset is None:
            return f"the tool supports ai.onnx opset {span}; this model imports no ai.onnx opset"
        if (low is not None and opset < low) or (high is not None and opset > high):
            return f"the tool supports ai.onnx opset {span}; this model imports ai.onnx opset {opset}"
        return None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


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
        input_mutated: what a pass that returned a new model changed in the ModelProto it was
            given (it must not), or None.
    """

    pass_id: str
    status: str
    model: onnx.ModelProto | None = None
    error: str | None = None
    versions: dict[str, str | None] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    input_mutated: str | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("changed", "unchanged")

    def to_json(self) -> dict[str, Any]:
        d = {
            "pass": self.pass_id,
            "status": self.status,
            "error": self.error,
            "versions": self.versions,
            "seconds": round(self.seconds, 4),
        }
        if self.input_mutated:
            d["input_mutated"] = self.input_mutated
        return d


class PassAdapter:
    """One tool and variant, with an id a user types.

    Subclasses set :attr:`id`, :attr:`tools` and implement :meth:`apply`. :meth:`run` wraps
    it: checks :meth:`why_not`, copies the input, times it, turns every exception into a status
    (never raised) and records whether a pass that returned a new model also changed the one it
    was given.

    Attributes:
        id: e.g. ``ort:extended``.
        tools: distribution names whose versions are recorded.
        folds_constants, optimizes, needs_feeds, min_opset, max_opset, extra, precision: see
            :class:`Capabilities` (read them together as :attr:`capabilities`).
        declines: exception types that mean the tool refused the model deliberately.
        carries_external_data: the tool's own source copies tensors it is given without reading their
            values, so a model whose initializers reference an external data file (IR.md §External Tensor
            Data) is within what it takes in memory (:mod:`passcheck.passes.external_data`).
        warm: modules :meth:`apply` imports whose import starts no thread: a worker template may
            import them ahead, before its forks (:func:`passcheck.passes.imports_of`).
        steps: ids of passes this one runs whole, first, on the model it is given (its tool's own source says
            so), so a defect documented for such a step is this pass's too when it shows the same way
            (:func:`passcheck.hunt.documented.which`).
        converts_opset: the tool is a version converter (its output imports another ai.onnx opset); a model
            its :meth:`precondition` refuses is one it does not convert (the hunt draws none: round 9e, M92).
    """

    id: str = ""
    tools: tuple[str, ...] = ()
    warm: ClassVar[tuple[str, ...]] = ()
    folds_constants: ClassVar[bool] = False
    optimizes: ClassVar[bool] = False
    needs_feeds: ClassVar[bool] = False
    min_opset: ClassVar[int | None] = None
    max_opset: ClassVar[int | None] = None
    extra: ClassVar[str | None] = None
    precision: ClassVar[str | None] = None
    #: Op types the tool states it treats by type alone (a block list, a registry), per its own source; parity
    #: reads it (:attr:`passcheck.oracles.FormRun.by_type`).
    by_type: frozenset[str] = frozenset()
    #: The tool writes the graph it was given, its graph-output declarations verbatim, when none of its rewrites
    #: changed it, and types from its own inference only on a graph it rewrote (onnxruntime: ``Graph::ToGraphProto``,
    #: ``core/graph/graph.cc``, returns the stored GraphProto unless ``GraphProtoSyncNeeded``); parity reads it
    #: (:attr:`passcheck.oracles.FormRun.writes_given_unchanged`).
    writes_given_unchanged: ClassVar[bool] = False
    declines: tuple[type[BaseException], ...] = ()
    carries_external_data: ClassVar[bool] = False
    converts_opset: ClassVar[bool] = False
    #: A pass that folds constants also folds values computed from graph inputs' static shapes (Shape, Size and what
    #: reads them); False when its own source folds only nodes whose every input is a constant (onnx-tool) or when it
    #: is told to leave them (Polygraphy's ``--no-fold-shapes``): the folding oracle then judges constant-only chains
    #: only, and parity excuses kept nodes that read a graph input or compute from its shape.
    folds_shapes: ClassVar[bool] = True
    #: The descriptions of the model itself the pass states it removes (names of
    #: :data:`passcheck.oracles.descriptions.MODEL_FIELDS`, e.g. ``graph doc_string``, or of
    #: :data:`passcheck.oracles.part_descriptions.FUNCTION_FIELDS` / ``BODY_FIELDS``): the pass contract does not
    #: call their loss a finding (onnx-ir's ClearMetadataAndDocStringPass clears the graph's, by its docstring).
    clears: ClassVar[frozenset[str]] = frozenset()
    steps: tuple[str, ...] = ()
    doc: str = ""

    @property
    def capabilities(self) -> Capabilities:
        """This adapter's :class:`Capabilities`, from its attributes."""
        return Capabilities(
            optimizes=bool(self.optimizes),
            folds_constants=bool(self.folds_constants),
            needs_feeds=bool(self.needs_feeds),
            min_opset=self.min_opset,
            max_opset=self.max_opset,
            extra=self.extra,
            precision=self.precision,
        )

    def unavailable_reason(self) -> str | None:
        """Why the tool cannot run here (missing package, too old), or None."""
        for t in self.tools:
            if tool_version(t) is None:
                extra = f" (pip install {self.extra})" if self.extra else ""
                return f"{t} is not installed{extra}"
        return None

    def why_not(self, model: onnx.ModelProto) -> str | None:
        """The one precondition check (engine and :meth:`run` alike): the tool is missing
        (:meth:`unavailable_reason`), the model's opset is outside :attr:`capabilities`, or the
        adapter's own :meth:`precondition`; None when the pass may run. Exceptions raised by a
        user adapter's :meth:`precondition` propagate (the engine records them as ``crashed``)."""
        return self.unavailable_reason() or self.capabilities.outside(model) or self.precondition(model)

    def precondition(self, model: onnx.ModelProto) -> str | None:
        """Why this tool does not support ``model`` by its own documentation (e.g. an opset below
        its minimum), or None. A model outside the documented range is ``unavailable``, not a
        finding: the pass is not run. Reads the model only; never raises."""
        return None

    def stated_limit(self, model: onnx.ModelProto) -> str | None:
        """The limit the tool's own source states ``model`` meets (its words), or None; :meth:`run` then records
        ``unavailable`` (:data:`STATED_LIMIT`) without running it. This adapter's own (:meth:`own_stated_limit`),
        else that of a pass in :attr:`steps`: a tool that runs another whole meets the other's stated limits too
        (Polygraphy's FoldConstants imports with onnx-graphsurgeon, which skips a SPARSE_TENSOR attribute). Reads
        the model only; a step id no registry knows is skipped."""
        from passcheck.errors import PasscheckError

        found = self.own_stated_limit(model)
        for step in self.steps if found is None or _STEP_LOOKUP is None else ():
            try:
                adapter = _STEP_LOOKUP(step)
            except PasscheckError:
                continue
            found = None if adapter.unavailable_reason() else adapter.stated_limit(model)
            if found is not None:
                return f"{step} (run whole by {self.id}): {found}"
        return found

    def own_stated_limit(self, model: onnx.ModelProto) -> str | None:
        """This tool's own stated limit ``model`` meets (:meth:`stated_limit`); None by default."""
        return None

    def apply(self, model: onnx.ModelProto, workdir: Path) -> onnx.ModelProto:
        """Run the tool on ``model`` (a private copy) and return its output model.

        A pass either edits ``model`` in place and returns it, or returns a new model and leaves
        ``model`` unchanged; :meth:`run` reports a new model returned with ``model`` changed as
        well as the pass mutating its input (``input-mutated``).

        Raises:
            PassDeclined: the tool refused the model with its own error.
            Exception: anything else is recorded as ``crashed``.
        """
        raise NotImplementedError

    def versions(self) -> dict[str, str | None]:
        return {t: tool_version(t) for t in self.tools}

    def run(self, model: onnx.ModelProto, workdir: Path) -> PassOutcome:
        """Apply the pass to a copy of ``model``; never raises for a tool failure."""
        import onnx

        reason = self.why_not(model)
        if reason:
            return PassOutcome(self.id, "unavailable", error=reason, versions=self.versions())
        limit = self.stated_limit(model)
        if limit is not None:
            return PassOutcome(self.id, "unavailable", error=STATED_LIMIT + _one_para(limit), versions=self.versions())
        copy = onnx.ModelProto()
        copy.CopyFrom(model)
        given = copy.SerializeToString(deterministic=True)
        start = time.perf_counter()
        try:
            out = self.apply(copy, Path(workdir))
        except PassUnsupported as exc:
            return PassOutcome(
                self.id,
                "unavailable",
                error=STATED_LIMIT + _one_para(str(exc)),
                versions=self.versions(),
                seconds=time.perf_counter() - start,
            )
        except PassDeclined as exc:
            return PassOutcome(
                self.id,
                "declined",
                error=_one_para(str(exc)),
                versions=self.versions(),
                seconds=time.perf_counter() - start,
            )
        except TimeoutError as exc:
            return PassOutcome(
                self.id, "timeout", error=str(exc), versions=self.versions(), seconds=time.perf_counter() - start
            )
        except self.declines as exc:  # type: ignore[misc]
            return PassOutcome(
                self.id,
                "declined",
                error=_one_para(f"{type(exc).__name__}: {exc}"),
                versions=self.versions(),
                seconds=time.perf_counter() - start,
            )
        except Exception as exc:  # noqa: BLE001 - a crash of the tool is a finding, not our error
            return PassOutcome(
                self.id,
                "crashed",
                error=_describe(exc, self.tools),
                versions=self.versions(),
                seconds=time.perf_counter() - start,
            )
        seconds = time.perf_counter() - start
        if not isinstance(out, onnx.ModelProto):
            return PassOutcome(
                self.id,
                "crashed",
                error=f"pass returned {type(out).__name__}, not a ModelProto",
                versions=self.versions(),
                seconds=seconds,
            )
        mutated = None
        if out is copy:  # an in-place pass: its output is the object it was given, by design
            out = onnx.ModelProto()
            out.CopyFrom(copy)
        elif copy.SerializeToString(deterministic=True) != given:  # a new output, and the input changed too
            mutated = mutation(model, copy) or None
        same = _graph_bytes(out) == _graph_bytes(model)
        return PassOutcome(
            self.id,
            "unchanged" if same else "changed",
            model=out,
            versions=self.versions(),
            seconds=seconds,
            input_mutated=mutated,
        )


def run_in_process(adapter: PassAdapter, model: onnx.ModelProto, workdir: Path) -> PassOutcome:
    """The in-process executor: ``adapter.run(model, workdir)`` (a crash ends the calling process)."""
    return adapter.run(model, workdir)


def mutation(before: onnx.ModelProto, after: onnx.ModelProto) -> str:
    """Which fields of a ModelProto differ between ``before`` and ``after`` (``graph.node``,
    ``opset_import``, …), for a finding's message; empty when none does, or when only the names of
    tensors held in node attributes differ (a Constant's ``value``: a node's outputs name its
    values, ONNX IR "Nodes"; onnxscript 0.7.2 and onnxslim 0.1.98 fill them in on the caller's
    model, which changes nothing a caller computes or reads back by value name)."""
    before, after = _without_attribute_tensor_names(before), _without_attribute_tensor_names(after)
    parts = []
    for field in before.DESCRIPTOR.fields:
        if field.name == "graph":
            for g in before.graph.DESCRIPTOR.fields:
                if _field_bytes(before.graph, g) != _field_bytes(after.graph, g):
                    parts.append(f"graph.{g.name}" + _counts(before.graph, after.graph, g))
        elif _field_bytes(before, field) != _field_bytes(after, field):
            parts.append(field.name + _counts(before, after, field))
    return ", ".join(parts)


def _without_attribute_tensor_names(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of ``model`` whose attribute tensors (``t``, ``tensors``; main graph, subgraphs and
    functions) have no name."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)

    def clear(nodes) -> None:
        for n in nodes:
            for a in n.attribute:
                for t in (*([a.t] if a.HasField("t") else []), *a.tensors):
                    t.ClearField("name")
                for g in (*([a.g] if a.HasField("g") else []), *a.graphs):
                    clear(g.node)

    clear(out.graph.node)
    for f in out.functions:
        clear(f.node)
    return out


def _field_bytes(msg, field) -> bytes:
    value = getattr(msg, field.name)
    if _repeated(field):
        return b"\0".join(
            v.SerializeToString(deterministic=True) if hasattr(v, "SerializeToString") else repr(v).encode()
            for v in value
        )
    return value.SerializeToString(deterministic=True) if hasattr(value, "SerializeToString") else repr(value).encode()


def _repeated(field) -> bool:
    flag = getattr(field, "is_repeated", None)  # protobuf >= 6; ``label`` before
    return bool(flag) if flag is not None else field.label == field.LABEL_REPEATED


def _counts(before, after, field) -> str:
    """`` (3 → 2)`` when a repeated field changed length; `` at #0 'k'`` (first entries that
    differ, by index and name) when it kept it."""
    if not _repeated(field):
        return ""
    old, new = getattr(before, field.name), getattr(after, field.name)
    if len(old) != len(new):
        return f" ({len(old)} → {len(new)})"
    at = [
        f"#{i}" + (f" {getattr(a, 'name', '') or getattr(a, 'op_type', '')!r}" if hasattr(a, "name") else "")
        for i, (a, b) in enumerate(zip(old, new))
        if a != b
    ]
    return f" at {', '.join(at[:3])}{'…' if len(at) > 3 else ''}" if at else ""


def default_opset(model: onnx.ModelProto) -> int | None:
    """The model's ``ai.onnx`` opset version (domain ``""`` or ``ai.onnx``), or None if it imports none."""
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def _describe(exc: BaseException, tools: tuple[str, ...] = ()) -> str:
    """First line: the innermost cause (where the tool really failed); then the chain, the innermost
    frame of the pass's own package (``tools[0]``, :mod:`passcheck.passes._frames`) and the last
    frames of the innermost traceback."""
    import re

    from passcheck.passes._frames import frame_line

    chain = [exc]
    while (nxt := chain[-1].__cause__ or chain[-1].__context__) is not None and len(chain) < 10:
        chain.append(nxt)
    root = chain[-1]
    clean = lambda e: re.sub(r" object at 0x[0-9a-f]+", "", f"{type(e).__name__}: {e}")  # noqa: E731
    lines = [_one_para(clean(root), 500)] + [f"  raised as {_one_para(clean(e), 300)}" for e in reversed(chain[:-1])]
    tb = traceback.format_exception(type(root), root, root.__traceback__)
    return "\n".join(lines) + "\n" + frame_line(chain, tools) + "".join(tb[-3:-1])


def _graph_bytes(model: onnx.ModelProto) -> bytes:
    return model.graph.SerializeToString(deterministic=True) + b"".join(
        f.SerializeToString(deterministic=True) for f in model.functions
    )


def _one_para(text: str, limit: int = 2000) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
