"""How every rendering says that a report is an interrupted run's (``"partial": true``)."""

from __future__ import annotations

#: What a report written by an interrupted run does not hold.
PARTIAL = "the run that wrote it was interrupted; the cells it had not reached are not in it (unchecked)"


def markdown_note(text: str) -> str:
    """``text`` (Markdown) headed by the partial-report note."""
    return f"> **Partial report**: {PARTIAL}\n\n{text}"
