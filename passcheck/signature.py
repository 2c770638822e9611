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

A refusal (a ``rejected`` or ``invalid-model`` finding that is no crash: a pass declining a form, the
checker refusing an output, onnxruntime refusing to run a form) is one behaviour per message: its
signature names only the op types the finding itself names (not those at the rewritten sites, which are
the base's), and its error is :func:`refusal_error`, the error class and the refusal's first
line with names, numbers and paths masked (:func:`refusal_phrase`), so two refusals of one class with
different words are two signatures and one refusal met on two bases is one. Its aliases hold the key
passcheck gave it before (op types and the bare class).

A pass-contract finding (the pass changed the ModelProto it was given, or dropped a description of
the interface) is one behaviour of the tool whatever the op or rewrite: its signature names neither;
a dropped description's names the fields dropped in its error slot (a release that stops dropping one
field is a window). Where a finding sits (case, form,
environment) is not part of it: one bug found through two routes
(``check --mutations`` and ``hunt`` on the same pair) has one signature.
"""

from __future__ import annotations

import dataclasses
import functools
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
#: Kinds a refusal is reported as: a pass declining a form or the runtime refusing it (acceptance,
#: runtime ``rejected``), the checker refusing an output (validity ``invalid-model``).
REFUSAL_KINDS = frozenset({"rejected", "invalid-model"})
#: A value, node or function name the way tools write them unquoted: a word holding ``_`` (``n0_Resize``,
#: ``Y_prelu_operand``), or the word after a ``name:`` / ``Name=`` label.
_SNAKE = re.compile(r"\b\w*_\w*\b")
#: Words holding ``_`` that are the format's own terms (IR.md's field names), not a model's names.
_FIELD_TERMS = frozenset(
    {"op_type", "elem_type", "dim_value", "dim_param", "value_info", "opset_import", "ir_version", "domain_version"}
)
_DIGITS = re.compile(r"\b\w*\d\w*\b")
_LABELLED = re.compile(r"(\b[Nn]ame\s*[:=]\s*)(?!'…')[^\s,;)]+")
#: A file or folder path: a token holding ``/`` or ``\\``, or a file name with a model or data suffix.
_PATH = re.compile(r"(?:[\w.~-]*[/\\][^\s,;:'\")]*)|\b[\w.-]+\.(?:onnx|data|pb|bin|json|txt)\b")
#: A refusal's phrase is longer than a runtime error's (checker messages name the node at their end).
REFUSAL_CHARS = 160


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
        models = list(models)
        ops = named_ops(finding)
        if models:
            ops |= site_ops(models, form_labels(form) if labels is None else labels)
            if not ops:  # sites that name no node (graph inputs, say): the base's own op types
                ops = {n.op_type for n in models[0].graph.node}
        sig = cls(finding.pass_id, finding.oracle, finding.kind, tuple(sorted(ops)), rewrite, error_class(finding))
        if finding.kind == "wrong-result" and (phrase := error_phrase(_details(finding).get("error"))):
            # one behaviour per runtime error; the alias keeps the op types, which a documented entry's ops_all reads,
            # with the phrase: without it, it would be the key of a value difference at those sites
            head = (finding.pass_id, finding.oracle, finding.kind)
            alias = (cls(*head, tuple(sorted(ops)), rewrite, phrase).key,) if ops else ()
            return cls(*head, (), rewrite, phrase, alias)
        names = model_names(models)
        if refusal := refusal_error(finding, names):  # one behaviour per message, whatever op sits beside it
            named = tuple(sorted(named_ops(finding)))  # the finding's own words; the sites' ops are the base's
            return cls(finding.pass_id, finding.oracle, finding.kind, named, rewrite, refusal, (sig.key,))
        if crash := crash_error(finding, names):  # one behaviour of the tool, whatever op sits beside it
            head = (finding.pass_id, finding.oracle, finding.kind, (), rewrite)
            # older spellings: op types and class; the frame with its module path; names and paths unmasked
            older = [sig.key, cls(*head, _crash(finding, True, None)).key, cls(*head, _crash(finding, False, None)).key]
            new = cls(*head, crash)
            return cls(*head, crash, tuple(k for k in dict.fromkeys(older) if k != new.key))
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


def crash_error(finding: Any, names: Iterable[str] = ()) -> str:
    """For a pass that raised (details ``status: crashed``, an error whose first line is ``Class: …``):
    ``<masked first line> @ <package>:<function>`` (:func:`refusal_phrase`, ``names`` masked too: the
    same crash on two bases, its message naming each base's tensor or a temporary path, is one; from
    the ``tool frame`` line
    the crashed outcome records, the module's top-level package and the function's qualified name, line
    number dropped), or the masked line alone when the traceback had no frame of the pass's own package;
    ``""`` for any other finding and for a worker that died without an exception (``the pass died …``:
    no phrase to tell two crashes apart by)."""
    return _crash(finding, False, names)


def _crash(finding: Any, module_path: bool, names: Iterable[str] | None) -> str:
    """:func:`crash_error`; with ``module_path`` the frame's full module, with ``names`` None the phrase of
    :func:`error_phrase` (how passcheck spelled them before)."""
    d = _details(finding)
    error = str(d.get("error") or "")
    if d.get("status") != "crashed" or not _RAISED.match(error):
        return ""
    frame = _FRAME_LINE.search(error)
    phrase = error_phrase(error) if names is None else refusal_phrase(error, names)
    if not frame:
        return phrase
    module, _, function = frame.group(1).replace("|", "/").partition(":")
    return f"{phrase} @ {module if module_path else module.split('.', 1)[0]}:{function}"


def refusal_error(finding: Any, names: Iterable[str] = ()) -> str:
    """For a refusal (a ``rejected`` or ``invalid-model`` finding whose details do not say ``status:
    crashed``): ``<error class>: <masked first line>`` (:func:`refusal_phrase`, ``names`` masked too; the
    class prefixed when the line does not start with it), or ``""`` for any other finding and for a
    refusal with no error text (its key stays the op types and the bare class)."""
    if finding.kind not in REFUSAL_KINDS:
        return ""
    d = _details(finding)
    if d.get("status") == "crashed":  # a crash: crash_error's, or a worker that died (op types kept)
        return ""
    phrase = refusal_phrase(d.get("error"), names)
    if not phrase:
        return ""
    klass = error_class(finding)
    return phrase if not klass or phrase.startswith(klass) else f"{klass}: {phrase}"


def refusal_phrase(error: Any, names: Iterable[str] = ()) -> str:
    """A refusal's words as a behaviour: the first line without onnxruntime's ``[ONNXRuntimeError] :
    N :`` prefix, with quoted text, paths, names (``names`` as whole words, words holding ``_`` but
    IR.md's field names, the word after ``name:``) masked as ``…`` and every word holding a digit as
    ``#``, at most :data:`REFUSAL_CHARS` characters; ``""`` for no error.

    ``ValidationError: Node(node_Unsqueeze_1) with schema(::Unsqueeze:11) has input size 2 …`` →
    ``ValidationError: Node(…) with schema(::Unsqueeze:#) has input size # …``: the op type and the
    schema's words stay, the model's own names go."""
    lines = str(error or "").strip().splitlines()
    if not lines:
        return ""
    text = _ORT_PREFIX.sub("", lines[0])
    text = _QUOTED.sub("'…'", text)
    text = _PATH.sub("…", text)
    text = _LABELLED.sub(lambda m: m.group(1) + "…", text)
    text = _SNAKE.sub(lambda m: m.group(0) if m.group(0) in _FIELD_TERMS else "…", text)
    if words := sorted({n for n in names if n and n.isidentifier()}, key=len, reverse=True):
        text = re.sub(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", "…", text)
    text = _DIGITS.sub("#", text).replace("|", "/")
    return " ".join(text.split())[:REFUSAL_CHARS]


def model_names(models: Iterable[onnx.ModelProto]) -> set[str]:
    """The names a pair gives its values and nodes (graph inputs, outputs, initializers, node names and
    the values nodes read and write, subgraphs included), less the operator schemas' own formal
    parameter names of three or more letters (``scale``, ``input``, ``sum`` …) and the words ``a``,
    ``an``, ``I``: tools quote those in their messages as their own words (``unavailable input:
    scale``), so a value named like one is left unmasked (two signatures rather than two refusals
    joined); a one- or two-letter name (``x``, ``W``) is the model's."""
    names: set[str] = set()
    for model in models:
        stack = [model.graph]
        while stack:
            g = stack.pop()
            names.update(v.name for v in (*g.input, *g.output, *g.initializer, *g.value_info))
            for n in g.node:
                names.update((n.name, *n.input, *n.output))
                for a in n.attribute:
                    stack.extend((a.g, *a.graphs) if a.HasField("g") else a.graphs)
    return names - _formal_names() if names else names


@functools.cache
def _formal_names() -> frozenset[str]:
    import onnx.defs  # the schemas the tools' messages quote; imported when a pair is at hand

    formal = {p.name for s in onnx.defs.get_all_schemas_with_history() for p in (*s.inputs, *s.outputs)}
    return frozenset({n for n in formal if len(n) > 2} | {"a", "A", "an", "I"})


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
