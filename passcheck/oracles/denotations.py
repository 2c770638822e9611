"""Denotations: a pass that keeps a value's declared type keeps the labels the type carries.

IR.md §Type Denotation (``TypeProto.denotation``: TENSOR, IMAGE, AUDIO, TEXT) and onnx
docs/DimensionDenotation.md (``TensorShapeProto.Dimension.denotation``: DATA_BATCH, DATA_FEATURE, ...)
make both part of the declared type of a graph input, output or value_info entry; they change no
value, shape or op, so no other oracle sees them go. For each of those declarations of the main
graph present, with a type, in both the pass input and the pass output (matched by value name):

- ``denotation-dropped``: a label the input declared is empty in the output;
- ``denotation-changed``: the output declares another label in its place.

A type denotation is compared on the type and on each element type nested in it (sequence,
optional, map values); a dim label on each dim index the output's shape still has. A value the
pass removed, a value_info entry it dropped (value_info is optional) and a dim the output's shape
no longer has are not judged here. A model that declares no label gives no finding.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.records import Finding

if TYPE_CHECKING:
    import onnx

NAME = "denotations"


def _nested(t: onnx.TypeProto, path: str = "") -> Iterator[tuple[str, onnx.TypeProto]]:
    """(path, type) for ``t`` and each element type nested in it; path ``""`` is ``t`` itself."""
    yield path, t
    kind = t.WhichOneof("value")
    inner = {"sequence_type": "elem_type", "optional_type": "elem_type", "map_type": "value_type"}.get(kind or "")
    if inner and getattr(t, kind).HasField(inner):
        yield from _nested(getattr(getattr(t, kind), inner), f"{path}{kind}.{inner}.")


def labels(t: onnx.TypeProto) -> dict[str, str]:
    """Where → label for every non-empty denotation of ``t``: ``"<path>denotation"`` for a type's,
    ``"<path>dim[i]"`` for dim ``i`` of a tensor or sparse tensor type's shape."""
    out: dict[str, str] = {}
    for path, u in _nested(t):
        if u.denotation:
            out[f"{path}denotation"] = u.denotation
        kind = u.WhichOneof("value")
        if kind in ("tensor_type", "sparse_tensor_type") and getattr(u, kind).HasField("shape"):
            for i, d in enumerate(getattr(u, kind).shape.dim):
                if d.denotation:
                    out[f"{path}dim[{i}]"] = d.denotation
    return out


def _has(t: onnx.TypeProto, where: str) -> bool:
    """Whether ``t`` still has the place ``where`` names (the nested type; the dim index)."""
    path, _, last = where.rpartition(".")
    prefix = f"{path}." if path else ""
    node = dict(_nested(t)).get(prefix)
    if node is None:
        return False
    if last == "denotation":
        return True
    kind = node.WhichOneof("value")
    if kind not in ("tensor_type", "sparse_tensor_type") or not getattr(node, kind).HasField("shape"):
        return False
    return int(last[4:-1]) < len(getattr(node, kind).shape.dim)


def _declared(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    """Value name → declared type, over the main graph's inputs, outputs and value_info (a name
    declared twice: its first declaration)."""
    g = model.graph
    out: dict[str, onnx.TypeProto] = {}
    for v in [*g.input, *g.output, *g.value_info]:
        if v.HasField("type"):
            out.setdefault(v.name, v.type)
    return out


def check(run: FormRun) -> list[Finding]:
    """``denotation-dropped`` / ``denotation-changed`` per value whose declared labels the pass
    lost or replaced (details: ``value``, ``lost`` / ``changed`` where → (before, after)); nothing
    when the pass failed or the input declares no label."""
    out_model = run.output
    if out_model is None:
        return []
    before = {name: lab for name, t in _declared(run.model).items() if (lab := labels(t))}
    if not before:
        return []
    after = _declared(out_model)
    findings = []
    for name, lab in before.items():
        if name not in after:
            continue
        t, now = after[name], labels(after[name])
        lost = {w: (v, "") for w, v in lab.items() if w not in now and _has(t, w)}
        changed = {w: (v, now[w]) for w, v in lab.items() if w in now and now[w] != v}
        for kind, diff, verb in (("denotation-changed", changed, "replaced"), ("denotation-dropped", lost, "dropped")):
            if diff:
                parts = ", ".join(f"{w} {a!r}" + (f" → {b!r}" if b else "") for w, (a, b) in sorted(diff.items()))
                findings.append(
                    run.finding(
                        kind,
                        NAME,
                        f"{run.pass_id} {verb} the declared labels of {name!r} ({parts}); "
                        "IR.md §Type Denotation: they are part of the value's type",
                        value=name,
                        labels={w: list(ab) for w, ab in sorted(diff.items())},
                    )
                )
    return findings


class Denotations(BaseOracle):
    """``denotation-dropped`` / ``denotation-changed``: a declared type kept by the pass lost or
    changed its type or dimension denotation."""

    id = NAME

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)


ORACLE = Denotations()
