"""Site selection for ``Rewrite.edit(model, only)``: ``only`` is a frozenset of site labels, or None for every site."""

from passcheck.mutations._base import chosen as wanted

__all__ = ["wanted"]
