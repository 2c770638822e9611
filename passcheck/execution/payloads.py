"""Large initializer payloads of pass outputs, held once per content in the parent process.

A pass output that an isolation worker made and keeps (its runs and checker questions go to the
worker by digest, :class:`~passcheck.execution.Worker`) is read in passcheck's own process for its
structure only: nodes, value_info, initializer names and dims. Its big initializer payloads (a
ResNet-50 ``ort:basic`` output: ~100 MB of folded weights) were held once per form until every
form's cell of that pass was judged: 87 forms held 9-11 GB. :func:`hollow` moves each payload of at
least :data:`MIN_BYTES` into a process-wide store keyed by content (equal payloads of many forms:
one copy) and leaves in the tensor a marker: ``data_location`` EXTERNAL, ``external_data``
``location=passcheck-held``, ``checksum=`` the store's key (onnx's external-data fields, IR.md §External Tensor Data,
so a reader that loads tensor data without :func:`whole` fails loudly instead of reading nothing).
:func:`whole` gives back the model with its payloads (the same bytes as before :func:`hollow`);
whatever serializes a model or reads initializer data in the parent calls it.

The store's entries are counted per hollowed tensor; :func:`release` drops the entries of the keys
given (the executor releases what it hollowed when the engine is done with a subject).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import onnx

#: Smallest ``raw_data`` (bytes, at least 1) of a main-graph initializer :func:`hollow` moves to the store.
MIN_BYTES = 1 << 20
#: ``external_data`` location that marks a payload held in the store.
LOCATION = "passcheck-held"
_EXTERNAL = 1  # TensorProto.EXTERNAL

#: key → [payload, count of hollowed tensors holding it, its bucket]
_STORE: dict[str, list[Any]] = {}
#: (length, hash) → keys of the payloads of that length and hash (equal content: one key)
_BUCKETS: dict[tuple[int, int], list[str]] = {}
_LOCK = threading.Lock()  # executors of several threads share the store


def _hold(data: bytes) -> str:
    """The key of ``data`` in the store (an equal payload already held: its key), counted once more."""
    where = (len(data), hash(data))
    with _LOCK:
        bucket = _BUCKETS.setdefault(where, [])
        for key in bucket:
            if _STORE[key][0] == data:
                _STORE[key][1] += 1
                return key
        key = f"{where[0]}-{where[1] & 0xFFFFFFFFFFFF:x}-{len(bucket)}"
        while key in _STORE:  # a key freed from this bucket may still name a payload
            key += "+"
        bucket.append(key)
        _STORE[key] = [data, 1, where]
        return key


def release(keys: Iterable[str]) -> None:
    """Count each of ``keys`` once less; a payload no hollowed tensor holds any more is dropped."""
    with _LOCK:
        for key in keys:
            entry = _STORE.get(key)
            if entry is None:
                continue
            entry[1] -= 1
            if entry[1] <= 0:
                del _STORE[key]
                bucket = _BUCKETS[entry[2]]
                bucket.remove(key)
                if not bucket:
                    del _BUCKETS[entry[2]]


def held_bytes() -> int:
    """Bytes of payloads the store holds now (what :func:`hollow` keeps in this process)."""
    return sum(len(e[0]) for e in _STORE.values())


def _movable(t: onnx.TensorProto) -> bool:
    return len(t.raw_data) >= MIN_BYTES and not t.HasField("data_location") and not len(t.external_data)


def hollow(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[str]]:
    """``model`` with each main-graph initializer payload of at least :data:`MIN_BYTES` held in the
    store (see module docs): (a new, small ModelProto; the keys it holds, for :func:`release`).
    A model with no such payload is returned as is with no keys. ``model`` itself is emptied of
    those payloads (the caller drops it: protobuf frees its memory with the message)."""
    import onnx

    keys: list[str] = []
    for t in model.graph.initializer:
        if not _movable(t):
            continue
        key = _hold(t.raw_data)
        keys.append(key)
        t.ClearField("raw_data")
        t.data_location = _EXTERNAL
        for k, v in (("location", LOCATION), ("checksum", key)):
            e = t.external_data.add()
            e.key, e.value = k, v
    if not keys:
        return model, keys
    return onnx.ModelProto.FromString(model.SerializeToString()), keys


def _key(t: onnx.TensorProto) -> str | None:
    if t.data_location != _EXTERNAL or len(t.external_data) != 2:
        return None
    fields = {e.key: e.value for e in t.external_data}
    return fields.get("checksum") if fields.get("location") == LOCATION else None


def is_hollow(model: onnx.ModelProto) -> bool:
    """Whether ``model`` holds a payload marker of :func:`hollow`."""
    return any(_key(t) is not None for t in model.graph.initializer)


def whole_tensor(t: onnx.TensorProto) -> onnx.TensorProto:
    """``t``, or a copy with its held payload back when :func:`hollow` moved it."""
    import onnx

    key = _key(t)
    if key is None:
        return t
    copy = onnx.TensorProto()
    copy.CopyFrom(t)
    _restore(copy, key)
    return copy


def whole(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` itself when it holds no payload marker, else a copy with every held payload back
    (its bytes are those of the model :func:`hollow` was given).

    Raises:
        KeyError: a payload the store no longer holds (released while a hollow model was in use).
    """
    import onnx

    if not is_hollow(model):
        return model
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for t in copy.graph.initializer:
        if (key := _key(t)) is not None:
            _restore(t, key)
    return copy


def _restore(t: onnx.TensorProto, key: str) -> None:
    t.raw_data = _STORE[key][0]
    t.ClearField("external_data")
    t.ClearField("data_location")
