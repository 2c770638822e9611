"""The generated set as a case source (:class:`passcheck.cases.sources.CaseSource`).

Plugged into the case registry from above, through passcheck's own ``passcheck.cases`` entry
point (``generated = "passcheck.generate.source:SOURCE"`` in pyproject.toml): the registry never
imports the generator. Lazy: only a ``generated/*`` id or a generated tag (``op:…``,
``spelling:…``, ``dtype:…``, ``since:…``, ``variant:…``) asks for it, so the default selection
stays the hand-written library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passcheck.case_model import Case

#: Selection prefixes that load the generated set (ids, then its tag kinds).
GENERATED_PREFIXES = ("generated", "op:", "spelling:", "dtype:", "since:", "variant:")


class GeneratedSource:
    """The schema-generated cases (:func:`passcheck.generate.cases`)."""

    id = "generated"
    lazy = True

    def claims(self, pattern: str) -> bool:
        return pattern.startswith(GENERATED_PREFIXES)

    def register_all(self, registry) -> None:
        from passcheck import generate

        generate.register_all(registry)

    def missing(self, case_id: str) -> Case | None:
        """A generated id this onnx did not generate (a matrix worker under another onnx): a stub
        whose forms are the shipped bytes (:func:`passcheck.generate.stub`)."""
        from passcheck import generate

        return generate.stub(case_id) if case_id.startswith("generated/") else None


SOURCE = GeneratedSource()
