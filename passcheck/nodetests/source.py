"""The ``onnx-node`` family as a case source (:class:`passcheck.cases.sources.CaseSource`).

Plugged into the case registry from above through passcheck's own ``passcheck.cases`` entry point
(``onnx-node = "passcheck.nodetests.source:SOURCE"`` in pyproject.toml): the registry never imports
it. Lazy: only a selection starting with ``onnx-node`` (an id glob or the family tag) loads it, so
the default selection and ``op:`` tags stay what they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passcheck.case_model import Case

PREFIX = "onnx-node"


class NodeTestSource:
    """onnx's backend node tests (:func:`passcheck.nodetests.cases`)."""

    id = PREFIX
    lazy = True

    def claims(self, pattern: str) -> bool:
        return pattern.startswith(PREFIX)

    def register_all(self, registry) -> None:
        from passcheck import nodetests

        nodetests.register_all(registry)

    def missing(self, case_id: str) -> Case | None:
        return None

    def notes(self) -> list[str]:
        """How many of onnx's node tests became cases, and the skipped ones by reason."""
        from passcheck import nodetests

        doc = nodetests.index()
        skipped = ", ".join(f"{why} ({n}, e.g. {doc['skipped_examples'][why]})" for why, n in doc["skipped"].items())
        return [
            f"onnx-node: {len(doc['cases'])} of onnx {doc['onnx']}'s {doc['tests']} backend node tests are cases; "
            f"onnxruntime's own run departs from the stated outputs in {doc['ort_departs_from_spec']}; "
            f"skipped: {skipped or 'none'}; stated outputs not compared: "
            + (", ".join(f"{why} ({n})" for why, n in doc.get("outputs_not_compared", {}).items()) or "none")
        ]


SOURCE = NodeTestSource()
