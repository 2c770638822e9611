"""Answers that are a function of a proto's content, kept per content (M210).

Listing a model's sites runs every rewrite's edit on its own copy of one model (:meth:`._base.Rewrite.sites`), and
most edits first read the same facts of it: what shape inference knows (:func:`._shapes.known`) and every name
taken (:func:`._base.all_names`); 237 rewrites asked them again of each copy. Two protos that serialize to the same
bytes hold the same messages (the wire format is the message), so an answer computed from one serves the other:
kept under the BLAKE2b digest of those bytes, the most recent :data:`SIZE` of each function. A hit returns the
caller's own copy (``copy``), so callers may change what they get.
"""

from __future__ import annotations

import collections
import functools
import hashlib
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Answers kept per function (a listing asks of one model at a time, an edit of its output next).
SIZE = 32


def by_content(copy: Callable[[T], T]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator for ``fn(proto, data) → T``: the wrapped ``fn(proto)`` serializes ``proto`` once, looks its digest
    up and calls ``fn(proto, data)`` (``data`` the bytes, which ``onnx.shape_inference.infer_shapes`` takes as they
    are) only on a miss; every answer handed out is ``copy`` of the kept one. ``fn`` must read nothing but the
    proto's content (and the installed onnx)."""

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        kept: collections.OrderedDict[bytes, T] = collections.OrderedDict()

        @functools.wraps(fn)
        def cached(proto) -> T:
            data = proto.SerializeToString()
            key = hashlib.blake2b(data, digest_size=16).digest()
            got = kept.get(key)
            if got is None:
                got = kept[key] = fn(proto, data)
            kept.move_to_end(key)
            while len(kept) > SIZE:
                kept.popitem(last=False)
            return copy(got)

        cached.cache_clear = kept.clear  # type: ignore[attr-defined]
        return cached

    return wrap
