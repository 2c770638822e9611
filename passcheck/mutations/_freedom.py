"""A catalogue row: one freedom the ONNX spec leaves a model's writer (see
:mod:`passcheck.mutations.catalogue`). Kept apart so rewrite modules can declare ``FREEDOMS``
without importing the catalogue's machinery."""

from __future__ import annotations

import dataclasses

#: The areas of the catalogue, in document order (IR.md's sections, then the operator schemas').
AREAS = (
    "graphs",
    "nodes",
    "values",
    "initializers",
    "tensor storage",
    "attributes",
    "opset imports",
    "functions",
    "subgraphs",
    "optional and variadic slots",
    "names and domains",
    "data types",
    "operator schemas",
    "algebra",
)


@dataclasses.dataclass(frozen=True)
class Freedom:
    """One way to write the same computation differently.

    Attributes:
        id: stable kebab-case id, unique in the catalogue.
        area: one of :data:`AREAS`.
        source: the spec section it rests on (``IR.md §Graphs``, ``Operators.md Slice-13``,
            ``onnx.proto TensorProto``), cited, never quoted.
        summary: one sentence in our words: the two (or more) spellings and why they mean the same.
        rewrites: ids of the rewrites that produce it (both directions where both exist).
        sites: where the rewrites apply (main graph, subgraphs, function bodies; which positions)
            and how they compose.
        none_because: why no rewrite produces it (required when ``rewrites`` is empty).
        evidence: ``path::test`` of the test that shows the equivalence would not hold, or what
            the tools do with the spelling, when ``none_because`` says a rewrite cannot exist.
    """

    id: str
    area: str
    source: str
    summary: str
    rewrites: tuple[str, ...] = ()
    sites: str = ""
    none_because: str = ""
    evidence: str = ""
