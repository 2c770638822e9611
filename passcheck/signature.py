"""The signature of a finding: what makes two findings the same bug (data layer).

``Signature(pass, oracle, kind, op types, rewrite, error class)``, one type for everything that
asks "is this the same bug?": hunt's de-duplication and its store, reduce's "does the smaller pair
still show it", root-cause grouping, baselines and triage.

- **op types**: those the finding names (a parity finding's ``kept_op_types``, a folding finding's
  ``op_type``) plus, when the models are at hand, those at the sites the rewrite changed (node
  labels, ``#index:OpType`` labels, the nodes reading or writing a changed value); when the sites
  name no node (a graph input retyped), the op types of the base.
- **rewrite**: the rewrite kind of the form, site labels dropped (``commute-operands``, not
  ``commute-operands@Add_0``; ``a+b`` for a pair); ``""`` for ``common`` and for a form that is no
  rewrite (a hand-written or generated form, a compared file).
- **error class**: for a crash, a rejection or an invalid output, the class of the error reported
  (``AttributeError``, ``ValidationError``, ``Fail`` …), so that one crash is not taken for another.

An output that fails to run (a ``wrong-result`` whose details carry the runtime's ``error``) is one
behaviour of the pass per error phrase: its signature names no op, and its error is the runtime's
message with names and numbers masked (:func:`error_phrase`), so a pass that breaks every model-local
function is one signature, not one per op wrapped in a function.

A pass that crashes (a finding whose details say ``status: crashed``, raised as an exception) is one
behaviour per exception: its signature names no op, and its error is :func:`crash_error`, the exception
class and its masked phrase plus the innermost frame of the pass's own package when the traceback has
one, as the tool's top-level package and the function (``ValueError: zero-size array … @
onnxscript:_fold``), so one crash seen beside twenty different ops is one signature, and two crashes with
the same message in different functions stay two. The module path is left out: a release that moves the
function to another module (onnxscript 0.3.2 and 0.7.2 place their rewriter's functions in different
modules) raises the same crash, and ``hunt --env`` must not call it fixed in one environment and new in
the other. A worker that died without an exception (a signal, no traceback) keeps the op types. Such a
signature's :attr:`Signature.aliases` hold the keys an older passcheck spelled it with (op types and the
bare class; the frame with its module path), so baselines and hunt states written before still match it.

A pass-contract finding (the pass changed the ModelProto it was given, or dropped a description of
the interface) is one behaviour of the tool whatever the op or rewrite: its signature names neither;
a dropped description's names the fields dropped in its error slot (a release that stops dropping one
field is a window). Where a finding sits (case, form,
environment) is not part of it: one bug found through two routes
(``check --mutations`` and ``hunt`` on the same pair) has one signature.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

#: The oracle of findings about the pass's contract with its input (input-mutated): one behaviour of
#: the tool whatever the model, so its signature names no op, rewrite or error.
PASS_CONTRACT = "pass-contract"
#: Kinds whose error text names what crashed.
CRASH_KINDS = frozenset({"rejected", "invalid-model", "crashed", "crash", "out-of-memory", "timeout"})
_ERROR = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Fail|Failure|Aborted))\b")
_SITE_LABEL = re.compile(r"#\d+:(\w+)")
_ORT_PREFIX = re.compile(r"\[ONNXRuntimeError\]\s*:\s*\d+\s*:\s*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBERED = re.compile(r"[\w.:/-]*\d[\w.:/-]*")
#: How a crashed outcome's error names the innermost frame of the pass's own package
#: (``passcheck.passes._frames`` writes it): ``  tool frame: <module>:<function> (line N)``.
TOOL_FRAME = "tool frame: "
_FRAME_LINE = re.compile(r"^\s*" + re.escape(TOOL_FRAME) + r"(\S+)", re.MULTILINE)
_RAISED = re.compile(r"[A-Z]\w*:")


@dataclasses.dataclass(frozen=True)
class Signature:
    """What makes two findings the same bug (see the module docs).

    Attributes:
        pass_id: the pass (``input`` for a form itself).
        oracle: the oracle that reported it (``Finding.oracle``).
        kind: the finding kind (``wrong-result``, ``rejected`` …).
        ops: sorted op types involved.
        rewrite: the rewrite kind of the form, ``""`` when the form is no rewrite.
        error: the error class of a crash (``""`` otherwise); for a pass that raised,
            :func:`crash_error`.
        aliases: keys an older passcheck gave the same signature (not compared, not part of the key):
            what a baseline or hunt state written before is matched by.
    """

    pass_id: str
    oracle: str
    kind: str
    ops: tuple[str, ...] = ()
    rewrite: str = ""
    error: str = ""
    aliases: tuple[str, ...] = dataclasses.field(default=(), compare=False)

    @property
    def key(self) -> str:
        """One string, stable across runs and versions (hunt's store keys on it; without an error
        class it is the five-field key hunt stores were written with)."""
        key = "|".join((self.pass_id, self.oracle, self.kind, ",".join(self.ops), self.rewrite))
        return f"{key}|{self.error}" if self.error else key

    @property
    def case_id(self) -> str:
        """The id of the case module a shrunk pair of this signature is saved as: ``hunt/<…>-<hash>``."""
        digest = hashlib.sha256(self.key.encode()).hexdigest()[:8]
        words = re.sub(r"[^a-z0-9_.+-]+", "-", f"{self.rewrite}-{self.pass_id}-{self.kind}".lower())
        return f"hunt/{words.strip('-')[:60].rstrip('-')}-{digest}"

    @property
    def keys(self) -> tuple[str, ...]:
        """:attr:`key` then the :attr:`aliases`: every spelling a stored entry of this signature may have."""
        return (self.key, *self.aliases)

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        if self.aliases:
            d["aliases"] = list(self.aliases)
        else:
            del d["aliases"]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Signature:
        """Read :meth:`to_json` (a store written before ``error`` existed reads as no error class)."""
        return cls(
            d["pass_id"],
            d["oracle"],
            d["kind"],
            tuple(d.get("ops") or ()),
            d.get("rewrite", ""),
            d.get("error", ""),
            tuple(d.get("aliases") or ()),
        )

    @classmethod
    def of(
        cls,
        finding: Any,
        rewrite: str | None = None,
        models: Iterable[onnx.ModelProto] = (),
        labels: Iterable[str] | None = None,
    ) -> Signature:
        """The signature of ``finding`` (a :class:`~passcheck.records.Finding`).

        Args:
            rewrite: the rewrite kind; by default read from the finding's form id (:func:`rewrite_kind`).
            models: the pair (base first) when at hand, for the op types at the rewritten sites.
            labels: the site labels the rewrite changed; by default those in the form id.
        """
        if finding.oracle == PASS_CONTRACT:  # how the pass treats the ModelProto it is given: one per tool
            fields = _details(finding).get("fields") if finding.kind == "description-dropped" else None
            return cls(finding.pass_id, finding.oracle, finding.kind, error=",".join(fields or ()))
        form = getattr(finding, "form", "") or ""
        rewrite = rewrite_kind(form) if rewrite is None else rewrite
        if finding.kind == "wrong-result" and (phrase := error_phrase(_details(finding).get("error"))):
            return cls(finding.pass_id, finding.oracle, finding.kind, (), rewrite, phrase)
        models = list(models)
        ops = named_ops(finding)
        if models:
            ops |= site_ops(models, form_labels(form) if labels is None else labels)
            if not ops:  # sites that name no node (graph inputs, say): the base's own op types
                ops = {n.op_type for n in models[0].graph.node}
        sig = cls(finding.pass_id, finding.oracle, finding.kind, tuple(sorted(ops)), rewrite, error_class(finding))
        if crash := crash_error(finding):  # one behaviour of the tool, whatever op sits beside it
            head = (finding.pass_id, finding.oracle, finding.kind, (), rewrite)
            older = dict.fromkeys([sig.key, cls(*head, _crash(finding, True)).key])  # the frame with its module path
            return cls(*head, crash, tuple(older))
        return sig

    def replace(self, **changes: Any) -> Signature:
        return dataclasses.replace(self, **changes)


def named_ops(finding: Any) -> set[str]:
    """The op types a finding's details name (``kept_op_types``, ``op_type``)."""
    d = _details(finding)
    ops = {o for o in d.get("kept_op_types") or () if isinstance(o, str)}
    if isinstance(d.get("op_type"), str):
        ops.add(d["op_type"])
    return ops


def _details(finding: Any) -> dict:
    return getattr(finding, "details", None) or {}


def error_phrase(error: Any) -> str:
    """The runtime error an output fails with, as a behaviour: its first line without onnxruntime's
    ``[ONNXRuntimeError] : N :`` prefix, quoted text and every token holding a digit masked (value and
    function names, versions, shapes), at most 100 characters; ``""`` for no error."""
    text = str(error or "").strip().splitlines()[0] if str(error or "").strip() else ""
    text = _ORT_PREFIX.sub("", text)
    text = _QUOTED.sub("'…'", text)
    text = _NUMBERED.sub("#", text).replace("|", "/")
    return " ".join(text.split())[:100]


def crash_error(finding: Any) -> str:
    """For a pass that raised (details ``status: crashed``, an error whose first line is ``Class: …``):
    ``<masked first line> @ <package>:<function>`` (:func:`error_phrase`; from the ``tool frame`` line
    the crashed outcome records, the module's top-level package and the function's qualified name, line
    number dropped), or the masked line alone when the traceback had no frame of the pass's own package;
    ``""`` for any other finding and for a worker that died without an exception (``the pass died …``:
    no phrase to tell two crashes apart by)."""
    return _crash(finding, False)


def _crash(finding: Any, module_path: bool) -> str:
    """:func:`crash_error`; with ``module_path`` the frame's full module (how passcheck spelled it before)."""
    d = _details(finding)
    error = str(d.get("error") or "")
    if d.get("status") != "crashed" or not _RAISED.match(error):
        return ""
    frame = _FRAME_LINE.search(error)
    phrase = error_phrase(error)
    if not frame:
        return phrase
    module, _, function = frame.group(1).replace("|", "/").partition(":")
    return f"{phrase} @ {module if module_path else module.split('.', 1)[0]}:{function}"


def error_class(finding: Any) -> str:
    """The class of the error a crash, rejection or invalid output reports, else ``""``."""
    if finding.kind not in CRASH_KINDS:
        return ""
    d = _details(finding)
    found = _ERROR.search(str(d.get("error") or finding.message or ""))
    return found.group(1) if found else ""


#: A hunt neighbour's form id starts so: ``vary:<kind>@<site>`` (:mod:`passcheck.hunt.variation`).
VARY = "vary:"
#: Joins a neighbour's form id to the rewrite form applied to that neighbour (:mod:`passcheck.hunt.compose`:
#: ``vary:<kind>@<site>><rewrite>@<site>``); a neighbour's form id never holds it before it.
THEN = ">"


def composed_parts(form: str) -> tuple[str, str] | None:
    """``(neighbour form, rewrite form)`` of a rewrite of a neighbour's form id, else None."""
    if not form.startswith(VARY) or THEN not in form:
        return None
    v, _, r = form.partition(THEN)
    return v, r


def rewrite_kind(form: str) -> str:
    """The rewrite kind of a form id, site labels dropped: ``a@x+a@y`` → ``a``, ``a@x+b`` → ``a+b``;
    ``vary:k@s>a@x`` → ``vary:k>a`` (a rewrite of a neighbour: both steps); ``""`` for ``common``. The id
    grammar is :mod:`passcheck.mutations.forms`' (which resolves a ``+`` inside a label with the rewrite
    registry; callers that hold it pass ``rewrite=``). Any other form name (a hand-written or generated form, a
    compared file) is its own kind."""
    if not form or form == "common":
        return ""
    if (both := composed_parts(form)) is not None:
        return f"{rewrite_kind(both[0])}{THEN}{rewrite_kind(both[1])}"
    return "+".join(dict.fromkeys(part.split("@", 1)[0] for part in form.split("+")))


def form_labels(form: str) -> set[str]:
    """The site labels a form id names (``ID@SITE`` → ``{"SITE"}``)."""
    return {part.split("@", 1)[1] for part in (form or "").split("+") if "@" in part}


def site_ops(models: Iterable[onnx.ModelProto], labels: Iterable[str]) -> set[str]:
    """Op types of the main-graph nodes a rewrite's site labels name in any of ``models``."""
    labels = set(labels)
    ops: set[str] = set()
    for label in labels:
        if m := _SITE_LABEL.fullmatch(label):
            ops.add(m.group(1))
    for model in models:
        for n in model.graph.node:
            if n.name in labels or labels & set(n.output) or labels & set(n.input):
                ops.add(n.op_type)
    return ops
