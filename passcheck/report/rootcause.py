"""Root causes: the findings one defect explains, grouped, so a report reads "15 findings, 2 root
causes" and lists each cause once with the cells it explains.

Rules, applied within one case (one computation; causes never span cases):

1. Inherited from the input. A finding on a form itself (pseudo-pass ``input``) explains every
   finding on that form under a pass with the same oracle, kind and text (see :func:`normalize`):
   the pass did not cause what the model already shows. When onnxruntime cannot run the form
   (``rejected``), findings whose error reads the same are explained too, whatever their oracle:
   those passes failed because the model cannot run.
2. Consequence in one cell. An output the checker rejects (``invalid-model``) that then fails to
   run (``wrong-result``, "fails to run") is one defect, reported as the invalid model. A graph output
   whose shape or element type the pass changed (a ``numeric`` ``wrong-result`` saying "shape … vs
   expected …" or "dtype … vs expected …", :func:`wrong_shape`) explains the ``annotation-violated``
   findings on that value in the cell (its declared shape no longer holds because the value changed: one
   fact, IR.md §Static tensor shapes), reported as the wrong result; an annotation blamed on the
   runtime (``details["blame"] == "runtime"``) stays its own.
3. Same signature. Findings with one :func:`signature_of` (the one
   :class:`~passcheck.signature.Signature`, the rewrite dropped: one defect seen on several forms)
   whose :func:`signature` text agrees are one defect (a parity
   finding's signature names the op types kept, those they follow and those gained, not node names
   or counts, so ``ID@SITE`` and ``ID`` missing one fusion are one); so are
   findings with one signature on onnxruntime's cumulative levels (``ort:disabled`` ⊂ ``basic`` ⊂
   ``extended`` ⊂ ``all``), and on onnxruntime's transformers optimizer under several model types
   (:func:`pass_family`): the lowest level showing it is the representative, and of the forms,
   ``common`` (the defect needs no rewrite), then the fewest rewrites (a pair ``A+B`` after a
   single rewrite), of those a single-site mutant (``ID@SITE``: the fewest changes that show it),
   then report order. A group never explains, in a cell where its representative's defect shows,
   a finding about another graph output (a form-only wrong result beside a wrong output every form
   has stays its own cause, though the messages normalize alike).

Grouping never changes a finding or its id (baselines key on finding ids); it only decides which
finding is printed as the cause and which cells it also explains.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from passcheck.records import CellResult, Finding
from passcheck.signature import Signature

#: onnxruntime optimization levels, each applying every rewrite of the ones before it.
_ORT_LEVELS = ("ort:disabled", "ort:basic", "ort:extended", "ort:all")
#: A level with session config entries or a transformer removed (:mod:`passcheck.passes.ort_config`:
#: ``ort:all+<key>=<value>``, ``ort:extended-without-<Name>``): the same optimizer, one transformer added, dropped or
#: set otherwise, so a defect it shows the same way is the level's.
_ORT_CONFIGURED = re.compile(r"^ort:(?:disabled|basic|extended|all)(?:\+|-without-)")
#: The pass-id prefix of onnxruntime's transformers optimizer, one pass per model type (``ort-transformers:bert`` …).
_ORT_TRANSFORMERS = "ort-transformers:"
#: onnxsim's / onnxslim's entry point with one documented option set (:mod:`passcheck.passes.tool_options`:
#: ``onnxsim:simplify+include_subgraph``): the same pipeline, one stage switched on or off, so a defect it shows the
#: same way is the plain pass's. onnxruntime's quantizers with one ``extra_options`` key set
#: (:mod:`passcheck.passes.ort_quant_options`: ``ort-quant:quantize-static+DedicatedQDQPair``) likewise.
_TOOL_OPTION = re.compile(r"^(onnxsim:simplify|onnxslim:slim|ort-quant:[a-z-]+)\+")
_INPUT = "input"

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|['\"].*$")  # a quote cut off by a shortened message runs to the end
_NAME = re.compile(r"(?<![\w<])[A-Za-z_][\w./:-]*[\d_/][\w./:-]*")
_NUMBER = re.compile(r"(?<![\w<])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
_LIST = re.compile(r"<name>(?:\s*,\s*<name>)+")


def normalize(text: str | None, limit: int = 200) -> str:
    """The first line of an error or message with what varies between occurrences of one defect
    stripped: quoted strings and identifiers holding digits, ``_`` or ``/`` become ``<name>``,
    numbers ``<n>``, name lists ``<names>``; text after an ellipsis is dropped. Op types and the
    error's words stay. Cut to ``limit`` characters."""
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    line = line.split("…", 1)[0]
    line = _QUOTED.sub("<name>", line)
    line = _NAME.sub("<name>", line)
    line = _NUMBER.sub("<n>", line)
    line = _LIST.sub("<names>", line)
    return " ".join(line.split())[:limit]


def _error_text(f: Finding) -> str:
    if f.oracle == "parity" and isinstance(f.details, dict) and "kept_nodes" in f.details:
        return _parity_text(f)
    err = f.details.get("error") if isinstance(f.details, dict) else None
    text = f.message if f.pass_id == _INPUT else f.message.replace(f.pass_id, "<pass>")  # "input" is also a word
    return normalize(err) if err else normalize(text)


def _parity_text(f: Finding) -> str:
    """A parity finding by what it is about, not where or how many nodes: the op types kept and the
    op types they follow, the op types each form gained (a single-site mutant ``ID@SITE`` and the
    all-at-once ``ID`` showing one missed fusion are one defect)."""
    d = f.details
    kept = sorted({f"{k.get('op')} after {(k.get('after') or '').split(' ')[0]}" for k in d.get("kept_nodes") or []})
    new = d.get("new_op_types") or {}
    other = d.get("other_form", "")
    return (
        f"kept {sorted(d.get('kept_op_types') or [])} ({', '.join(kept)}); new {new.get(f.form, [])} vs "
        f"{new.get(other, [])}"
    )


def pass_family(pass_id: str) -> str:
    """The pass one defect is grouped under whichever variant of it showed the defect: ``ort:level`` for
    onnxruntime's cumulative levels (``ort:disabled`` ⊂ ``basic`` ⊂ ``extended`` ⊂ ``all``) and those levels with a
    session config key set or a transformer removed (``ort:all+<key>=<value>``), the plain ``onnxsim:simplify`` /
    ``onnxslim:slim`` for the tool with one option set (``onnxsim:simplify+include_subgraph``; the plain quantizer for
    ``ort-quant:<variant>+<extra_options key>``), ``ort-transformers:*`` (its option passes too)
    for every model type of onnxruntime's transformers optimizer, else ``pass_id`` itself.

    The model types share their fusions: ``onnxruntime.transformers.optimizer.MODEL_TYPES`` maps every type but
    ``phi`` to ``BertOnnxModel`` or a subclass of it (``bert``, ``gpt_neox``, ``swin`` and ``vit`` to
    ``BertOnnxModel`` itself), whose ``optimize`` runs the same ``Fusion*`` classes (``fusion_layernorm.py``,
    ``fusion_gelu.py`` …; ``FusionOptions(model_type)`` only turns some off). The same fusion missed, or the same
    wrong graph written, under ``bert`` and ``vit`` is one defect of one module, as the hunt's and triage's
    root causes count it; the finding keeps its own pass id (the reproduction runs that model type)."""
    if pass_id in _ORT_LEVELS or _ORT_CONFIGURED.match(pass_id):
        return "ort:level"
    if m := _TOOL_OPTION.match(pass_id):
        return m.group(1)
    return "ort-transformers:*" if pass_id.startswith(_ORT_TRANSFORMERS) else pass_id


def signature(f: Finding) -> tuple[str, str, str, str]:
    """``(pass, oracle, kind, normalized error or message)``: equal for one defect seen on several
    forms; the pass id is its :func:`pass_family` (``ort:level`` for onnxruntime's cumulative levels,
    ``ort-transformers:*`` for the transformers optimizer's model types)."""
    return (pass_family(f.pass_id), f.oracle, f.kind, _error_text(f))


def signature_of(f: Finding) -> Signature:
    """The :class:`~passcheck.signature.Signature` root causes group on: the rewrite dropped (a
    defect seen on several forms is one) and the pass its :func:`pass_family` (onnxruntime's cumulative
    levels as one pass ``ort:level``, the transformers optimizer's model types as ``ort-transformers:*``)."""
    return Signature.of(f).replace(rewrite="", pass_id=pass_family(f.pass_id))


def _fails_to_run(f: Finding) -> bool:
    return f.kind == "wrong-result" and "fails to run" in f.message


#: The numeric oracle's words for an output of another shape or element type (:func:`numeric.compare`).
_WRONG_SHAPE = re.compile(r"^output '([^']+)' \(binding \d+\): (?:element \d+: )?(?:shape|dtype) \S.* vs expected ")


def wrong_shape(oracle: str, kind: str, message: str) -> str | None:
    """The graph output a ``numeric`` ``wrong-result`` says has another shape or element type than the input's run
    (``output 'y' (binding 0): shape [2, 8] vs expected [1, 2, 8]``), else None."""
    m = _WRONG_SHAPE.match(message) if (oracle, kind) == ("numeric", "wrong-result") else None
    return m.group(1) if m else None


@dataclasses.dataclass
class RootCause:
    """One defect: the finding reported for it and every finding it explains (itself first).

    Attributes:
        finding: the representative: the ``input`` finding, else the lowest onnxruntime level,
            else ``common``, else a single-site form (``ID@SITE``), else the first form in report order.
        explains: every finding grouped under it, the representative first.
        signature: see :func:`signature` (of the representative).
    """

    finding: Finding
    explains: list[Finding]
    signature: tuple[str, str, str, str]

    @property
    def expected(self) -> bool:
        """Every finding it explains is known (matched a baseline entry)."""
        return all(f.expected for f in self.explains)

    @property
    def others(self) -> list[Finding]:
        return self.explains[1:]

    def cells(self) -> list[str]:
        """``form | pass | env`` of every cell it explains, in report order, without repeats."""
        return list(dict.fromkeys(f"{f.form} | {f.pass_id} | {f.env}" for f in self.explains))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.finding.id,
            "case": self.finding.case,
            "expected": self.expected,
            "signature": list(self.signature),
            "message": self.finding.message,
            "explains": [{"id": f.id, "env": f.env} for f in self.explains],
        }


def _changes(form: str) -> tuple[int, int]:
    """How far a form is from ``common``: (rewrites applied, 0 when each is at one site else 1);
    ``A@X+B@Y`` is two rewrites, ``ID@SITE`` one at one site, ``ID`` (or a hand-written form) one."""
    if form == "common":
        return (0, 0)
    parts = form.split("+")
    return (len(parts), 0 if all("@" in p for p in parts) else 1)


def _transformers_option(pass_id: str) -> bool:
    # ort-transformers:<type>+<flag> (passcheck.passes.ort_transformers_options): its family is ort-transformers:*
    return pass_id.startswith(_ORT_TRANSFORMERS) and "+" in pass_id


def _rank(f: Finding, order: dict[int, int]) -> tuple:
    # a variant (a config key, an option) after its family's plain pass
    level = (
        _ORT_LEVELS.index(f.pass_id)
        if f.pass_id in _ORT_LEVELS
        else len(_ORT_LEVELS) + bool(_TOOL_OPTION.match(f.pass_id) or _transformers_option(f.pass_id))
    )
    return (f.pass_id != _INPUT, level, _changes(f.form), order[id(f)])


def _one_per_cell(members: list[Finding], order: dict[int, int]) -> list[list[Finding]]:
    """``members`` (one signature) split so that no group explains, in a cell where its
    representative's defect shows, a finding about another graph output (``details["output"]``):
    a form-only wrong result on ``z`` stays its own cause beside the wrong ``y`` every form has,
    though their messages normalize alike. Each part is sorted by :func:`_rank`."""
    members = sorted(members, key=lambda f: _rank(f, order))
    out: list[list[Finding]] = []
    while members:
        subject = _output(members[0])
        shows = {_cell_key(f) for f in members if _output(f) == subject}
        keep = [f for f in members if _output(f) == subject or _cell_key(f) not in shows]
        out.append(keep)
        members = [f for f in members if not any(f is k for k in keep)]
    return out


def _output(f: Finding) -> Any:
    return f.details.get("output") if isinstance(f.details, dict) else None


def _cell_key(f: Finding) -> tuple[str, str, str]:
    return (f.form, f.pass_id, f.env)


def root_causes(cells: Iterable[CellResult]) -> list[RootCause]:
    """Group every finding of ``cells`` into root causes (see the module rules), in report order
    of their representatives."""
    cells = list(cells)
    findings = [f for c in cells for f in c.findings]
    order = {id(f): i for i, f in enumerate(findings)}
    parent: dict[int, Finding] = {}  # finding → the finding that explains it

    # Rule 2: within one cell, a failed run of an output the checker rejects; an annotation of an output whose
    # shape or element type the pass changed.
    for c in cells:
        invalid = next((f for f in c.findings if f.kind == "invalid-model"), None)
        if invalid is not None:
            for f in c.findings:
                if _fails_to_run(f):
                    parent[id(f)] = invalid
        changed = {}
        for f in c.findings:
            if (v := wrong_shape(f.oracle, f.kind, f.message)) is not None:
                changed.setdefault(v, f)
        for f in c.findings:
            d = f.details if isinstance(f.details, dict) else {}
            if f.kind == "annotation-violated" and d.get("value") in changed and d.get("blame") != "runtime":
                parent[id(f)] = changed[d["value"]]

    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        if id(f) not in parent:
            groups.setdefault((f.case, signature_of(f), signature(f)[-1]), []).append(f)
    causes: dict[tuple, list[Finding]] = {}
    for key, members in groups.items():
        members.sort(key=lambda f: _rank(f, order))
        causes[key] = members

    # Rule 1: a form onnxruntime cannot run explains findings on that form with the same error.
    for key in list(causes):
        case, sig, text = key
        if key not in causes or sig.pass_id != _INPUT or not text:
            continue
        shown = {f.form for f in causes[key]}  # what the model already shows: on these forms only
        for other in list(causes):
            if other == key or other[0] != case:
                continue
            same = other[1].replace(pass_id=_INPUT) == sig and other[2] == text
            if same or sig.kind == "rejected" and other[2] == text:
                causes[key] += [f for f in causes[other] if f.form in shown]
                causes[other] = [f for f in causes[other] if f.form not in shown]
                if not causes[other]:
                    del causes[other]

    out = []
    for members in (part for group in causes.values() for part in _one_per_cell(group, order)):
        members.sort(key=lambda f: _rank(f, order))
        rep = members[0]
        ids = {id(f) for f in members}
        explained = members + [f for f in findings if id(f) in parent and id(parent[id(f)]) in ids]
        explained.sort(key=lambda f: (f is not rep, order[id(f)]))
        out.append(RootCause(rep, explained, signature(rep)))
    out.sort(key=lambda rc: order[id(rc.finding)])
    return out


def unexpected_phrase(causes: Iterable[RootCause]) -> str:
    """``"1 root cause"`` / ``"N root causes"``: how many causes hold an unexpected finding."""
    n = sum(not rc.expected for rc in causes)
    return f"{n} root cause" + ("" if n == 1 else "s")


def count(cells: Iterable[CellResult]) -> dict[str, int]:
    """``{"root_causes": N, "unexpected_root_causes": M}``."""
    causes = root_causes(cells)
    return {"root_causes": len(causes), "unexpected_root_causes": sum(not rc.expected for rc in causes)}
