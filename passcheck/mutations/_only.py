"""Site selection for ``Rewrite.edit(model, only)``: ``only`` is a frozenset of site labels, or None for every site."""

from __future__ import annotations

from collections.abc import Collection


def wanted(only: Collection[str] | None, label: str) -> bool:
    """Whether the site ``label`` is selected."""
    return only is None or label in only
