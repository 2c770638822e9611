"""Attribute freedoms stated only in an attribute's own doc text in the operator schemas (M356).

IR.md §Attributes: an optional attribute left out takes the operator's default; the operator's schema
(``onnx.defs.get_all_schemas_with_history()``; onnxruntime's own domains through
:func:`passcheck.runtime.ort_schemas.history`) says what each attribute means. Some freedoms are written
in an attribute's description and nowhere else the rewrites read:

- ``from-back``: an INT/INTS attribute whose text says a negative value counts dimensions from the back
  (``Negative value means counting dimensions from the back``, or an accepted range ``[-r, r-1]``): ``a``
  and ``a - r`` name the same dim, r the rank of the input the text names (``r = rank(data)``; none
  named: input 0). Rows whose r is not one input's rank (``[-r-1, r]``, a list with an entry per variadic input)
  are left out of the table.
- ``stated-default``: an optional scalar INT/FLOAT attribute that the schema gives no default value but
  whose text states one as a literal (``Default value is 0``, ``defaults to 1``): omitted and written
  with that value mean the same.

Every version of every schema is read, so a row carries the versions whose text states it (a row holds
only for a node whose domain's opset import selects one of them). Read once per process."""

from __future__ import annotations

import dataclasses
import functools
import re

#: "negative counts from the back" in the words the schemas use.
_FROM_BACK = re.compile(r"negative value[^.]*from the back|accepted range is \[-r, ?r-1\]", re.IGNORECASE)
#: the input whose rank r is: ``r = rank(data)``.
_RANK_OF = re.compile(r"r\s*=\s*rank\((\w+)\)")
#: ranges that count against another rank than one input's (the output's, ``[-r-1, r]``).
_OTHER_RANK = re.compile(r"-r\s*-\s*1|r\s*\+\s*1|rank\(output|output rank", re.IGNORECASE)
#: a default stated as a literal number, not a formula (``1/sqrt(head_size)``) or a condition.
_STATED = re.compile(
    r"(?:default value is|default is|defaults? to|default:|\(default)\s*[`'\"]?"
    r"(-?\d+(?:\.\d+)?(?:e-?\d+)?)[`'\"]?(?![\w/*(]|\.\d)",
    re.IGNORECASE,
)
_INT, _FLOAT, _INTS = 2, 1, 7  # onnx.AttributeProto.AttributeType
#: domains onnx's own registry defines; onnxruntime's schemas are read for every other domain.
_ONNX_DOMAINS = frozenset({"", "ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "ai.onnx.preview"})


@dataclasses.dataclass(frozen=True)
class TextFreedom:
    """One attribute freedom the schema's text states.

    Attributes:
        domain: the op's domain ("" for ai.onnx).
        op: the op type.
        attr: the attribute's name.
        kind: ``from-back`` or ``stated-default``.
        versions: the schema versions (since_version) whose description states it, ascending.
        rank_slot: ``from-back``: the input slot whose rank r is; else -1.
        value: ``stated-default``: the stated value (int for INT, float for FLOAT); else None.
        quote: the words of the description that state it (verbatim, whitespace runs as one space).
    """

    domain: str
    op: str
    attr: str
    kind: str
    versions: tuple[int, ...]
    rank_slot: int = -1
    value: int | float | None = None
    quote: str = ""

    def holds_at(self, version: int) -> bool:
        """Whether the schema a node of opset import ``version`` uses (the newest since_version <= it) is one
        whose text states this freedom; :func:`table` records which versions of the op exist."""
        chosen = max((v for v in _versions(self.domain, self.op) if v <= version), default=None)
        return chosen in self.versions


def _all() -> list[tuple[str, str, int, list[str], dict]]:
    """(domain, op, since_version, inputs as (name, variadic), {attr: (type, required, has default, description)})."""
    import onnx.defs

    from passcheck.runtime import ort_schemas

    out = []
    for s in onnx.defs.get_all_schemas_with_history():
        if s.deprecated:
            continue
        attrs = {
            n: (int(a.type), bool(a.required), bool(a.default_value.type), a.description or "")
            for n, a in s.attributes.items()
        }
        out.append((s.domain, s.name, s.since_version, _inputs(s.inputs), attrs))
    for s in ort_schemas.history():
        if s.domain in _ONNX_DOMAINS or s.deprecated:
            continue
        attrs = {n: (a.type, a.required, bool(a.default_value.type), a.description) for n, a in s.attributes.items()}
        out.append((s.domain, s.name, s.since_version, _inputs(s.inputs), attrs))
    return out


def _inputs(params) -> list[tuple[str, bool]]:
    """Formal inputs: (name, whether it is variadic)."""
    import onnx.defs

    variadic = onnx.defs.OpSchema.FormalParameterOption.Variadic
    return [(p.name, p.option == variadic) for p in params]


@functools.cache
def _version_index() -> dict[tuple[str, str], tuple[int, ...]]:
    index: dict[tuple[str, str], set[int]] = {}
    for domain, op, since, _inputs, _attrs in _all():
        index.setdefault((domain, op), set()).add(since)
    return {k: tuple(sorted(v)) for k, v in index.items()}


def _versions(domain: str, op: str) -> tuple[int, ...]:
    return _version_index().get((domain, op), ())


def _from_back(inputs: list[tuple[str, bool]], kind: int, text: str) -> tuple[int, str] | None:
    """(rank slot, quote) when ``text`` says negative values count from the back against one input's rank
    (the input ``r = rank(name)`` names, else input 0). A list over a variadic input may hold one entry per input, each
    against its own rank (Scan's ``scan_input_axes``): no row; one INT over it counts against the rank its inputs
    share (Concat's ``axis``)."""
    m = _FROM_BACK.search(text)
    if m is None or _OTHER_RANK.search(text) or not inputs:
        return None
    named = _RANK_OF.search(text)
    names = [name for name, _ in inputs]
    slot = 0 if named is None else names.index(named.group(1)) if named.group(1) in names else None
    if slot is None or (inputs[slot][1] and kind == _INTS):
        return None
    return slot, " ".join(m.group(0).split())


def _stated(kind: int, text: str) -> tuple[int | float, str] | None:
    """(value, quote) when ``text`` states a literal default for a scalar INT/FLOAT attribute."""
    m = _STATED.search(text)
    if m is None:
        return None
    raw = m.group(1)
    if kind == _INT:
        return (int(raw), m.group(0)) if re.fullmatch(r"-?\d+", raw) else None
    return float(raw), m.group(0)


@functools.cache
def table() -> tuple[TextFreedom, ...]:
    """Every attribute freedom the schema texts state (see the module doc), sorted by domain, op, attribute, kind.

    Only INT/INTS attributes are ``from-back`` rows and only optional INT/FLOAT attributes without a schema
    default are ``stated-default`` rows; onnxruntime not installed: onnx's domains only."""
    found: dict[tuple[str, str, str, str], dict] = {}
    for domain, op, since, inputs, attrs in _all():
        for name, (kind, required, has_default, text) in attrs.items():
            if kind in (_INT, _INTS) and (fb := _from_back(inputs, kind, text)) is not None:
                row = found.setdefault((domain, op, name, "from-back"), {"versions": set(), "rank_slot": fb[0]})
                row["versions"].add(since)
                row["quote"] = fb[1]
            if kind in (_INT, _FLOAT) and not required and not has_default and (sd := _stated(kind, text)):
                row = found.setdefault((domain, op, name, "stated-default"), {"versions": set(), "value": sd[0]})
                if row["value"] == sd[0]:
                    row["versions"].add(since)
                    row["quote"] = sd[1]
    return tuple(
        TextFreedom(d, o, a, k, tuple(sorted(r.pop("versions"))), **r) for (d, o, a, k), r in sorted(found.items())
    )


def freedoms(domain: str, op: str, version: int, kind: str) -> dict[str, TextFreedom]:
    """Attribute name → the ``kind`` row of ``op`` in ``domain`` ("" or ``ai.onnx`` for the default domain) that
    holds at opset import ``version``."""
    domain = "" if domain == "ai.onnx" else domain
    return {r.attr: r for r in table() if r.domain == domain and r.op == op and r.kind == kind and r.holds_at(version)}


__all__ = ["TextFreedom", "freedoms", "table"]
