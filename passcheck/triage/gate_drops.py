"""What the gates drop: every candidate pair a gate refused, grouped by (tool, op, reason class) and triaged.

The generated set's gate (:mod:`passcheck.generate.gate`) and the schema-built families' gate
(:mod:`passcheck.cases.schema_gate`) keep a pair only when every tool accepts it and agrees; a refusal by one tool
of a form the op's schema allows is a fact about that tool (round 19c's row 1120, round 19d's row 1128 were found in
such drops). This module reads the drops back from the gates' cached indexes and sorts each class into:

- ``limit``: a limit the tool states of itself: onnxruntime has no CPU kernel for the op and type or does not support
  the opset (:func:`passcheck.generate.gate._ort_reason`), the reference evaluator holds no implementation of that
  op version (its own "No implementation for operator …" / "No registered implementation" / "not implemented");
- ``passcheck``: the drop is passcheck's own reason (the gate's category ``passcheck``) or the spelling does not
  apply to the op (``n/a``): no tool is blamed;
- ``known``: a class the shipped triage (``gate_drops_known.json`` beside this module) traced to a docs/found.md row
  or to a stated reason (``"row": 1176`` or ``"why": "…"``);
- ``candidate``: one tool refuses or disagrees while the schema's text allows the form: a finding to decide by the
  spec (:func:`triage`), with the command that reruns it.

Drops are data, never exceptions: a family whose verdicts are not cached is reported as such
(:attr:`Listing.missing`).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

KNOWN = Path(__file__).with_name("gate_drops_known.json")

#: The schema-built families' modules (top-level ``cases/``) and their cache folder names.
FAMILIES = {
    "contrib": "contrib_ops",
    "contrib-static": "contrib_static",
    "function-body": "function_body_opsets",
    "interior": "interior_ops",
    "body-written": "function_body_written",
    "commuted": "rule_commuted",
    "gemm-written": "gemm_written",
}

#: Words of a drop's reason or message that name a limit the tool states of itself (module docs).
LIMITS = (
    "has no kernel",
    "does not support the opset",
    "no implementation for operator",
    "no registered implementation",
    "not implemented",
    "could not find an implementation",
    "is unknown",
    "no corresponding numpy type",  # onnxruntime's Python binding returns no bfloat16 array
    "failed to find kernel",  # onnxruntime's session: a function body's node it has no kernel for (round 20d)
)


@dataclasses.dataclass(frozen=True)
class Drop:
    """One dropped form: ``source`` (``generated`` or a family), the pair's ``id``, its ``op`` (``domain:Op`` outside
    the default domain), the ``form`` blamed (``""``: the pair as a whole), the gate's ``category`` (``tool``,
    ``passcheck``, ``n/a``) and ``reason``, the tool's message ``detail`` and, for the generated set, the dropped
    forms' files (form → path under the cache folder)."""

    source: str
    id: str
    op: str
    form: str
    category: str
    reason: str
    detail: str
    files: Mapping[str, str] = dataclasses.field(default_factory=dict)

    @property
    def tool(self) -> str:
        """The tool the reason blames: ``onnxruntime``, ``onnx checker``, ``onnx reference evaluator``,
        ``onnxruntime | reference evaluator`` (the two disagree, no majority), or ``passcheck``."""
        r = self.reason.removeprefix("adapter source: ").lower()
        if self.category == "passcheck":
            return "passcheck"
        if "differ" in r or "computes" in r or "no majority" in r or "outvoted" in r:
            return "onnxruntime | reference evaluator"
        if r.startswith(("checker", "the checker", "wrong annotations")):
            return "onnx checker"
        if r.startswith(("reference evaluator", "the reference evaluator")):
            return "onnx reference evaluator"
        if r.startswith(("onnxruntime", "does not run", "other outputs")):
            return "onnxruntime"
        if r.startswith("output "):
            return "onnxruntime"
        return "passcheck" if self.category != "tool" else "tool"

    @property
    def reason_class(self) -> str:
        """The gate's reason with the tool message's head, numbers and quoted names masked (:func:`message_class`)."""
        head = message_class(self.detail)
        return f"{self.reason.removeprefix('adapter source: ')}: {head}" if head else self.reason

    @property
    def limit(self) -> bool:
        """Whether the tool states this limit of itself (:data:`LIMITS`)."""
        text = f"{self.reason} {self.detail}".lower()
        return any(w in text for w in LIMITS)


def message_class(detail: str) -> str:
    """The head of a tool's message (``detail`` as the gates write it: ``<form>: <message>``) with onnxruntime's
    source paths, numbers and quoted names masked, at most 200 characters: drops of one cause share it."""
    text = (detail or "").split("\n", 1)[0]
    for said in ("was asked: ", "the pair asks: "):  # a dispute's preamble (passcheck.generate.dissent): its evidence
        text = text.rsplit(said, 1)[-1]
    text = re.sub(r"^[\w.+-]+: ", "", text, count=1)  # the form's name
    text = re.sub(r"^common: ", "", text)
    text = re.sub(r"\[ONNXRuntimeError\] : \d+ : \w+ : ", "", text)
    text = re.sub(r"/onnxruntime_src/\S+:\d+ ", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\d+(\.\d+)?(e-?\d+)?", "N", text)
    return text[:200].strip()


@dataclasses.dataclass
class DropClass:
    """The drops of one (tool, op, reason class), with their triage: ``status`` (``limit``, ``passcheck``,
    ``known``, ``candidate``), ``row`` (a docs/found.md row) or ``why`` (a stated reason) from the shipped triage."""

    tool: str
    op: str
    reason: str
    drops: list[Drop]
    status: str = "candidate"
    row: int | None = None
    why: str = ""

    @property
    def repro(self) -> str:
        """A command that reruns the class's drops (the generator or the family's gate on this op alone)."""
        first = self.drops[0]
        if first.source == "generated":
            return f"passcheck generate --drops --op '{self.op.split(':')[-1]}'"
        return f"passcheck generate --drops --family {first.source} --op '{self.op.split(':')[-1]}'"

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "op": self.op,
            "reason": self.reason,
            "status": self.status,
            "row": self.row,
            "why": self.why,
            "drops": len(self.drops),
            "repro": self.repro,
            "examples": [dataclasses.asdict(d) for d in self.drops[:3]],
        }


@dataclasses.dataclass
class Listing:
    """Every drop read (``drops``), grouped and triaged (``classes``); ``missing``: sources whose verdicts were not
    cached for the installed tools (family → why), ``notes``: how each source was read."""

    drops: list[Drop]
    classes: list[DropClass]
    missing: dict[str, str] = dataclasses.field(default_factory=dict)
    notes: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def candidates(self) -> list[DropClass]:
        return [c for c in self.classes if c.status == "candidate"]


def _op_of_id(cid: str) -> str:
    """The op of a case id ``<family>/<op>-<since>.<…>`` (lower case, as the id spells it); an ai.onnx.ml op's id
    ``<family>/ml.<op>-<since>.<…>`` gives ``ml.<op>`` (round 20d: every ML op of a family was one op ``ml``)."""
    tail = cid.split("/", 1)[-1]
    domain, tail = ("ml.", tail[3:]) if tail.startswith("ml.") else ("", tail)
    tail = tail.split(".", 1)[0]
    return domain + (tail.rsplit("-", 1)[0] if re.search(r"-\d+$", tail) else tail)


def generated_drops(doc: Mapping[str, Any]) -> list[Drop]:
    """The drops of a generated set's index (``stats.drops``; an index written before they were recorded gives the
    first drop of each op and reason, ``stats.examples``)."""
    stats = doc.get("stats", {})
    if "drops" in stats:
        return [
            Drop("generated", d["id"], d["op"], "", d["category"], d["reason"], d.get("detail", ""), d.get("files", {}))
            for d in stats["drops"]
        ]
    out = []
    for op, reasons in stats.get("dropped", {}).items():
        for key in reasons:
            category, reason = key.split("|", 1)
            detail = stats.get("examples", {}).get(f"{op}|{reason.removeprefix('adapter source: ')}", "")
            cid, _, detail = detail.partition(": ")
            out.append(Drop("generated", cid, op, "", category, reason, detail))
    return out


def _verdicts(value: Any) -> dict[str, str]:
    """form → why (``""``: kept) of one family verdict, in any of the families' shapes: ``{"forms": {…}}``,
    ``{"gate": {"forms": {…}}}`` (commuted), a bare string (interior: the one form's)."""
    if isinstance(value, str):
        return {"common": value}
    if isinstance(value, Mapping):
        if "forms" in value:
            return dict(value["forms"])
        if "gate" in value:
            return _verdicts(value["gate"])
    return {}


#: The category words a family verdict may lead with (``interior``: the generator gate's ``category: reason: detail``;
#: ``build``: the family could not write the base), as :class:`Drop` categories.
_CATEGORIES = {"tool": "tool", "passcheck": "passcheck", "n/a": "n/a", "build": "passcheck"}


def family_drops(family: str, doc: Mapping[str, Any]) -> list[Drop]:
    """The refused forms of a schema-built family's cached index (:func:`passcheck.cases.schema_gate.judge`'s
    verdicts; ``contrib-static`` keeps ``{"kept", "dropped": {id: why}}``). A form failing because its common form
    failed (``common: …``) is the common form's drop, listed once."""
    items = doc["dropped"].items() if family == "contrib-static" and "dropped" in doc else doc.items()
    out = []
    for cid, value in items:
        for form, why in _verdicts(value).items():
            if not why or why.startswith("common: "):
                continue
            reason, _, detail = why.partition(": ")
            category = "tool"
            if reason in _CATEGORIES:  # interior's verdicts lead with the generator gate's category
                category = _CATEGORIES[reason]
                reason, _, detail = detail.partition(": ") if category == "tool" else (reason, "", detail)
            out.append(Drop(family, cid, _op_of_id(cid), form, category, reason, f"{form}: {detail}"))
    return out


@cache
def known() -> tuple[dict[str, Any], ...]:
    """The shipped triage of drop classes (``gate_drops_known.json``): ``{"tool", "op", "reason"}`` (``op`` and
    ``reason``: regular expressions searched in the class's op and reason class) and ``row`` or ``why``."""
    return tuple(json.loads(KNOWN.read_text(encoding="utf-8"))["classes"])


def triage(c: DropClass, entries: Iterable[Mapping[str, Any]] | None = None) -> DropClass:
    """Set ``c.status`` (module docs) from its drops and the shipped triage ``entries`` (default :func:`known`)."""
    if all(d.category != "tool" for d in c.drops):
        c.status = "passcheck"
        return c
    for e in known() if entries is None else entries:
        if e.get("tool", c.tool) != c.tool:
            continue
        if re.search(e.get("op", ""), c.op, re.I) and re.search(e.get("reason", ""), c.reason, re.I):
            c.status, c.row, c.why = "known", e.get("row"), e.get("why", "")
            return c
    if all(d.limit for d in c.drops):
        c.status = "limit"
    return c


def group(drops: Iterable[Drop], entries: Iterable[Mapping[str, Any]] | None = None) -> list[DropClass]:
    """``drops`` grouped by (tool, op, reason class), each triaged (:func:`triage`); candidates first, then by size."""
    by: dict[tuple[str, str, str], list[Drop]] = {}
    for d in drops:
        by.setdefault((d.tool, d.op, d.reason_class), []).append(d)
    entries = list(known() if entries is None else entries)
    out = [triage(DropClass(t, op, r, ds), entries) for (t, op, r), ds in by.items()]
    order = {"candidate": 0, "known": 1, "limit": 2, "passcheck": 3}
    return sorted(out, key=lambda c: (order[c.status], -len(c.drops), c.op, c.reason))


def family_index(family: str) -> tuple[dict[str, Any] | None, str]:
    """The cached verdicts of ``family`` for the installed tools (its module's cache key), or None, and how they were
    found. The library's gated modules are claimed first (:meth:`passcheck.cases.CaseRegistry.claim_library`: each
    judges its bases once per cache key, minutes on a cold cache), as ``hunt`` does."""
    import sys

    from passcheck._cache import cache_root
    from passcheck.cases import load_builtin, schema_gate

    name = f"passcheck._library.{FAMILIES[family]}"
    if name not in sys.modules:
        load_builtin().claim_library()
    mod = sys.modules.get(name)
    if mod is None:
        return None, f"{family}: its module {name} was not loaded by the library"
    key = schema_gate.gate_key(mod._parts())
    path = cache_root() / family / key / "index.json"
    if not path.exists():
        return None, f"{family}: no verdicts cached under {path.parent} (its bases were not loaded with these tools)"
    return json.loads(path.read_text(encoding="utf-8")), str(path)


def listing(
    families: Iterable[str] = (), generated: Mapping[str, Any] | None = None, ops: Iterable[str] = ()
) -> Listing:
    """Every drop of the generated set's index ``generated`` (None: not read) and of ``families`` (their cached
    verdicts for the installed tools), restricted to ops matching ``ops`` (globs, case-insensitive), grouped.

    Raises:
        KeyError: a family not in :data:`FAMILIES`.
    """
    import fnmatch

    drops: list[Drop] = []
    missing, notes = {}, {}
    if generated is not None:
        drops += generated_drops(generated)
        notes["generated"] = (
            "every drop" if "drops" in generated.get("stats", {}) else "first drop of each op and reason (old index)"
        )
    for fam in families:
        doc, how = family_index(fam)
        if doc is None:
            missing[fam] = how
            continue
        drops += family_drops(fam, doc)
        notes[fam] = how
    pats = [p.lower() for p in ops]
    if pats:
        drops = [d for d in drops if any(fnmatch.fnmatchcase(d.op.split(":")[-1].lower(), p) for p in pats)]
    return Listing(drops, group(drops), missing, notes)


__all__ = ["FAMILIES", "Drop", "DropClass", "Listing", "family_drops", "generated_drops", "group", "listing", "triage"]
