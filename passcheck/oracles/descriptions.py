"""What a model says of its interface besides types and shapes, and which of it a pass dropped.

A main-graph input or output (a ``ValueInfoProto``) may carry descriptions that never enter the
computation: a ``doc_string`` (IR.md §Graphs, ValueInfoProto: human-readable documentation),
``metadata_props`` (IR.md §Other Metadata, on a ValueInfoProto from IR version 10), a type denotation
(IR.md §Type Denotation, ``TypeProto.denotation``) and a denotation per dim
(``TensorShapeProto.Dimension.denotation``, DimensionDenotation.md), nested element types of sequence,
optional and map types included. They are the model's statement of what its interface holds, read by
the model's callers; a pass that keeps an input or output under its name has no reason to drop them.

:func:`dropped` compares one model with what a pass wrote from it. Only names that are graph inputs
(outputs) in both are compared: a pass that removes, renames or adds an input is judged elsewhere. A
dim denotation is compared where the pass kept the type's rank (a pass may refine a shape, never the
rank of a value it keeps).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

#: The description fields, as :attr:`Dropped.field` names them.
FIELDS = ("doc_string", "metadata_props", "denotation", "dim-denotation")

#: What a model says of itself (IR.md §Models: ``doc_string``, ``metadata_props``, ``model_version``, ``domain``;
#: §Graphs: the main graph's ``doc_string`` and, from IR version 10, its ``metadata_props``), as
#: :func:`model_dropped` names them. The producer fields are not among them: a tool may sign what it wrote.
MODEL_FIELDS = (
    "model doc_string",
    "model metadata_props",
    "model_version",
    "domain",
    "graph doc_string",
    "graph metadata_props",
)


@dataclasses.dataclass(frozen=True)
class Dropped:
    """One description a pass dropped.

    Attributes:
        role: ``input`` or ``output`` (of the main graph).
        value: the value's name.
        field: one of :data:`FIELDS`.
        where: the part of the type (``""`` for the value itself; ``elem`` per nested element type;
            ``dim N`` for a dim), or the metadata key.
        before: what the pass's input said.
        after: what its output says (``""`` when nothing).
    """

    role: str
    value: str
    field: str
    where: str
    before: str
    after: str

    def __str__(self) -> str:
        at = f" ({self.where})" if self.where else ""
        if self.role == "model":
            return f"{self.field}{at} {self.before!r} -> {self.after!r}"
        return f"{self.role} {self.value!r}: {self.field}{at} {self.before!r} -> {self.after!r}"


def nested_types(t: onnx.TypeProto, path: str = "") -> Iterator[tuple[str, onnx.TypeProto]]:
    """(path, type) for ``t`` and each element type nested in it (sequence, optional, map values); path ``""``
    for ``t`` itself, ``elem``, ``elem/elem`` … below it."""
    yield path, t
    kind = t.WhichOneof("value")
    inner = {
        "sequence_type": lambda: t.sequence_type.elem_type if t.sequence_type.HasField("elem_type") else None,
        "optional_type": lambda: t.optional_type.elem_type if t.optional_type.HasField("elem_type") else None,
        "map_type": lambda: t.map_type.value_type if t.map_type.HasField("value_type") else None,
    }.get(kind or "", lambda: None)()
    if inner is not None:
        yield from nested_types(inner, f"{path}/elem" if path else "elem")


def type_dims(t: onnx.TypeProto) -> list | None:
    """The dims of a tensor or sparse tensor type with a shape; None for any other type or no shape."""
    kind = t.WhichOneof("value")
    if kind not in ("tensor_type", "sparse_tensor_type"):
        return None
    tt = getattr(t, kind)
    return list(tt.shape.dim) if tt.HasField("shape") else None


def _value(role: str, a: onnx.ValueInfoProto, b: onnx.ValueInfoProto) -> Iterator[Dropped]:
    if a.doc_string and b.doc_string != a.doc_string:
        yield Dropped(role, a.name, "doc_string", "", a.doc_string, b.doc_string)
    kept = {(p.key, p.value) for p in b.metadata_props}
    for p in a.metadata_props:
        if (p.key, p.value) not in kept:
            yield Dropped(role, a.name, "metadata_props", p.key, p.value, "")
    after = dict(nested_types(b.type))
    for path, ta in nested_types(a.type):
        tb = after.get(path)
        if ta.denotation and (tb is None or tb.denotation != ta.denotation):
            yield Dropped(role, a.name, "denotation", path, ta.denotation, tb.denotation if tb is not None else "")
        da, db = type_dims(ta), type_dims(tb) if tb is not None else None
        if da is None or db is None or len(da) != len(db):
            continue
        for i, (x, y) in enumerate(zip(da, db)):
            if x.denotation and y.denotation != x.denotation:
                where = f"{path} dim {i}".strip()
                yield Dropped(role, a.name, "dim-denotation", where, x.denotation, y.denotation)


def dropped(before: onnx.ModelProto, after: onnx.ModelProto) -> list[Dropped]:
    """The descriptions of ``before``'s main-graph inputs and outputs that ``after`` no longer states.

    Args:
        before: the model a pass was given.
        after: the model it wrote.

    Returns:
        One :class:`Dropped` per description lost or changed, inputs first, in graph order; empty when
        ``after`` says everything ``before`` said (it may say more).
    """
    out: list[Dropped] = []
    for role, xs, ys in (
        ("input", before.graph.input, after.graph.input),
        ("output", before.graph.output, after.graph.output),
    ):
        kept = {v.name: v for v in ys}
        for a in xs:
            if (b := kept.get(a.name)) is not None:
                out.extend(_value(role, a, b))
    return out


def model_dropped(before: onnx.ModelProto, after: onnx.ModelProto) -> list[Dropped]:
    """What ``before`` says of itself (:data:`MODEL_FIELDS`) that ``after`` no longer states: one :class:`Dropped`
    (role ``model``, ``field`` one of :data:`MODEL_FIELDS`, ``where`` the metadata key) per field lost or changed.
    A pass that writes the same model keeps its identity and its documentation (IR.md §Models, §Graphs, §Other
    Metadata); a field ``before`` leaves empty is not compared."""
    out: list[Dropped] = []

    def props(x) -> dict[str, str]:
        return {p.key: p.value for p in getattr(x, "metadata_props", ())}

    for field, a, b in (("model", before, after), ("graph", before.graph, after.graph)):
        if a.doc_string and b.doc_string != a.doc_string:
            out.append(Dropped("model", "", f"{field} doc_string", "", a.doc_string, b.doc_string))
        kept = props(b)
        for k, v in props(a).items():
            if kept.get(k) != v:
                out.append(Dropped("model", "", f"{field} metadata_props", k, v, kept.get(k, "")))
    if before.model_version and after.model_version != before.model_version:
        out.append(Dropped("model", "", "model_version", "", str(before.model_version), str(after.model_version)))
    if before.domain and after.domain != before.domain:
        out.append(Dropped("model", "", "domain", "", before.domain, after.domain))
    return out


def describes_itself(model: onnx.ModelProto) -> bool:
    """Whether ``model`` states any of :data:`MODEL_FIELDS` (a cheap pre-test)."""
    g = model.graph
    return bool(
        model.doc_string
        or len(model.metadata_props)
        or model.model_version
        or model.domain
        or g.doc_string
        or len(getattr(g, "metadata_props", ()))
    )


def describes(model: onnx.ModelProto) -> bool:
    """Whether any main-graph input or output of ``model`` carries a description (a cheap pre-test)."""
    for v in (*model.graph.input, *model.graph.output):
        if v.doc_string or len(v.metadata_props):
            return True
        for _, t in nested_types(v.type):
            if t.denotation or any(d.denotation for d in type_dims(t) or ()):
                return True
    return False
