"""The opset as a form: one builder built at neighbouring default-domain opsets.

Between two opsets an op keeps its semantics when its schema is the same one, i.e. its
``since_version`` (onnx.defs) is equal at both. A model whose every ai.onnx op (subgraphs
included) keeps its schema computes the same thing imported at either opset, so a pass must treat
both alike; :func:`opset_forms` turns such neighbours into forms ``opset-N`` of one case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from passcheck.errors import RegistryError

#: Newest opset an opset form may use: what onnx 1.16 and onnxruntime 1.18 (the oldest supported
#: line, ci/envs/onnx-1.16.txt) know, so every environment builds the same forms.
NEWEST_PORTABLE = 21


def ai_onnx_ops(graph) -> set[str]:
    """ai.onnx op types of ``graph`` and of every subgraph in its nodes' attributes."""
    from passcheck.passes.version_converter import _ops

    return _ops(graph)


def _since(op: str, opset: int) -> int | None:
    import onnx.defs

    try:
        return onnx.defs.get_schema(op, opset, "").since_version
    except Exception:  # noqa: BLE001 - SchemaError: no such op at that opset
        return None


def schema_changes(model, opset: int, other: int) -> list[str]:
    """Ops of ``model`` whose schema differs between ``opset`` and ``other`` (``op: a → b``);
    empty when the model means the same at both."""
    out = []
    for op in sorted(ai_onnx_ops(model.graph)):
        a, b = _since(op, opset), _since(op, other)
        if a is None or a != b:
            out.append(f"{op}: {a} → {b}")
    return out


def kept_opsets(model, opset: int, candidates: Iterable[int]) -> list[int]:
    """The ``candidates`` (≥ 7, ≤ :data:`NEWEST_PORTABLE`) at which every op of ``model`` keeps the
    schema it has at ``opset``, sorted, ``opset`` itself left out."""
    return sorted(
        n for n in set(candidates) if n != opset and 7 <= n <= NEWEST_PORTABLE and not schema_changes(model, opset, n)
    )


def opset_forms(build: Callable[[int], object], opset: int, *, span: int = 1, what: str = "") -> dict:
    """Forms ``common`` (``build(opset)``) and ``opset-N`` (``build(N)``) for every N within
    ``span`` of ``opset`` where the built model's ops keep their schema (:func:`kept_opsets`).

    Args:
        build: opset → ModelProto importing that default-domain opset (deterministic).
        what: a few words on the computation, for the forms' docs.

    Raises:
        RegistryError: no neighbour keeps the semantics (the case would have one form).
    """
    from passcheck.case_model import Form

    neighbours = kept_opsets(build(opset), opset, range(opset - span, opset + span + 1))
    if not neighbours:
        raise RegistryError(f"no opset within {span} of {opset} keeps the schema of every op of {what or 'the model'}")
    forms = {"common": Form(lambda: build(opset))}
    for n in neighbours:
        forms[f"opset-{n}"] = Form(
            (lambda v: lambda: build(v))(n),
            f"{what} imported at opset {n} (every op keeps the schema it has at {opset})".strip(),
        )
    return forms


def top_opset(forms: dict, opset: int) -> int:
    """The highest opset the forms of :func:`opset_forms` import (what ``Case.opset`` states)."""
    return max([opset] + [int(n.split("-", 1)[1]) for n in forms if n.startswith("opset-")])


def opset_doc(what: str, opset: int, forms: dict) -> str:
    """A case doc for :func:`opset_forms` forms: what, why the forms are equivalent, the range."""
    others = ", ".join(n.split("-", 1)[1] for n in forms if n.startswith("opset-"))
    return f"""{what}, imported at opset {opset} and at opsets {others}.

Uncommon: the same model imported at a neighbouring opset where every op keeps its schema
(onnx docs/Versioning.md: an op's semantics change only with a new since_version; Operators.md
lists each op's versions), so a pass must treat every form alike.
Valid: opsets {min([opset] + [int(o) for o in others.split(", ")])}..{top_opset(forms, opset)}, each with its oldest ir_version."""


def opset_case(case_id: str, build: Callable[[int], object], opset: int, *, what: str, span: int = 1, **case_fields):
    """A :class:`~passcheck.cases.Case` whose forms are ``build`` at ``opset`` (``common``) and at
    its schema-keeping neighbours (:func:`opset_forms`); ``Case.opset`` is the highest of them.
    ``case_fields`` are the other Case fields (bindings, passes, tags, …).

    Raises:
        RegistryError: no neighbour keeps the semantics.
    """
    from passcheck.case_model import Case

    forms = opset_forms(build, opset, span=span, what=what)
    return Case(
        id=case_id, forms=forms, doc=opset_doc(what, opset, forms), opset=top_opset(forms, opset), **case_fields
    )
