"""Which rewrites apply to a model, kept on disk: the costly part of listing a base's forms, computed once per cache.

:func:`passcheck.mutations.forms.enumerate_forms` applies every rewrite to a base to see whether it applies (with
its labels) and builds each ``after`` rewrite's output to find the depth-2 pairs it opens; the sampling that follows
is cheap. That part is a function of the model's serialized proto (IR.md: the model is the proto), of the rewrites
(their ids, ``after`` / ``inverse`` / ``lists``, their code) and of the tools they call (onnx's inference and
checker), not of a hunt's seed. :func:`listing` reads it from ``<cache>/forms/<key>/<model sha256>.json``, ``key`` a
digest of the sources the rewrites can run (:data:`SOURCES`: ``passcheck.mutations`` and the layers below it in the
layer contract, pyproject.toml's ``[tool.importlinter]``, which lint-imports holds them to), of the registry as it
stands in this process (a rewrite put in or replaced: its module's source too when it lives outside passcheck) and of
the tool versions (:data:`passcheck._versions.TOOLS`); else computes it and writes it (a temporary file renamed into
place: concurrent workers write the same bytes, a reader never sees half a file).

Not kept: a listing during which a rewrite's isolated call died or timed out (:class:`passcheck.errors.WorkerDied`,
a fact of this run, not of the model). ``PASSCHECK_FORMS_CACHE=0`` turns the cache off (the test suite does, but in
the tests that opt in: a test that patches a rewrite's helper in process changes none of the key's inputs).
An unreadable or unwritable cache costs time, never a result: no function here raises ``OSError``.

Beside it, :func:`site_table`: every rewrite's site labels in one model (what the hunt's compositions compare
between a base and a neighbour, :func:`passcheck.hunt.compose.sites_of`), a function of the same inputs, kept the
same way in ``<model sha256>.sites.json`` of the same folder.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from passcheck.mutations.registry import REWRITES

if TYPE_CHECKING:
    import onnx

#: The parts of passcheck a rewrite may import (``passcheck.mutations`` and every layer below it in the layer
#: contract): their ``.py`` and ``.json`` files key the cache. A change elsewhere (the hunt, the front doors) keeps it.
SOURCES = (
    "mutations",
    "cases",
    "report",
    "engine",
    "oracles",
    "passes",
    "runtime",
    "execution",
    "modelio",
    "case_model",
    "_procs",
    "user_modules",
    "progress",
    "_locks",
    "records",
    "signature",
    "errors",
    "typestr",
    "interrupts",
    "_versions",
    "_cache",
    "__init__",
)
#: The environment variable that turns the cache off when ``0`` / ``off`` / ``no`` / ``false``.
SWITCH = "PASSCHECK_FORMS_CACHE"


@dataclasses.dataclass(frozen=True)
class Listing:
    """What every rewrite does to one model.

    Attributes:
        applicable: the rewrite ids that change the model (all at once), in registry order.
        labels: rewrite id → the labels it changed, for each of ``applicable``.
        opened: ``(a, b)`` pairs, ``b`` not applicable, ``a`` in its ``after`` and ``b`` applicable to ``a``'s output.
    """

    applicable: tuple[str, ...]
    labels: dict[str, list[str]]
    opened: tuple[tuple[str, str], ...]


def listing(model: onnx.ModelProto, compute) -> Listing:
    """The listing of ``model``: read from the cache, else ``compute(model)`` → ``(Listing, kept)`` (``kept``
    False when the listing must not be written: a worker died meanwhile), written when ``kept``.

    Raises:
        whatever ``compute`` raises (nothing is written then).
    """
    if not enabled():
        return compute(model)[0]
    path = _folder() / (hashlib.sha256(model.SerializeToString(deterministic=True)).hexdigest() + ".json")
    got = _read(path)
    if got is not None:
        return got
    made, kept = compute(model)
    if kept:
        _write(path, made)
    return made


def site_table(model: onnx.ModelProto, compute=None) -> dict[str, list[str]] | None:
    """Rewrite id → its site labels in ``model`` (the rewrites ``compute`` lists, in its order): read from the cache,
    else ``compute(model)`` → ``(table, kept)``, written when ``kept`` (False: a worker died meanwhile, as for
    :func:`listing`). ``compute`` None: only read (None when absent, unreadable or the cache is off).

    Raises:
        whatever ``compute`` raises (nothing is written then).
    """
    if not enabled():
        return None if compute is None else compute(model)[0]
    path = _folder() / (hashlib.sha256(model.SerializeToString(deterministic=True)).hexdigest() + ".sites.json")
    try:
        got = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(got, dict) and all(isinstance(v, list) for v in got.values()):
            return got
    except (OSError, ValueError):
        pass
    if compute is None:
        return None
    made, kept = compute(model)
    if kept:
        from passcheck.report.json_report import atomic_write

        try:
            atomic_write(path, json.dumps(made))  # rewrite ids in the order compute gave
        except OSError:
            pass
    return made


def enabled() -> bool:
    """Whether :data:`SWITCH` leaves the cache on (the default)."""
    return os.environ.get(SWITCH, "1").strip().lower() not in ("0", "off", "no", "false")


def _folder() -> Path:
    from passcheck._cache import cache_root

    return cache_root() / "forms" / key()


def key() -> str:
    """sha256 (16 hex) of what a listing is a function of besides the model (see module docs); computed again
    whenever the registry holds other objects than at the last call (the memo keeps them alive: no id is reused)."""
    held = tuple((rid, r, getattr(r, "edit", None)) for rid, r in REWRITES.items())
    ids = tuple((rid, id(r), id(edit)) for rid, r, edit in held)
    if _MEMO.get("ids") != ids:
        _MEMO.update(ids=ids, held=held, key=_key())
    return _MEMO["key"]


_MEMO: dict = {}


def _key() -> str:
    from passcheck._versions import TOOLS, tool_version

    h = hashlib.sha256(_tree_digest().encode())
    h.update(json.dumps({t: tool_version(t) for t in TOOLS}, sort_keys=True).encode())
    for rid, r in REWRITES.items():
        edit = getattr(r, "edit", None)
        named = [type(r), *([edit] if callable(edit) else [])]
        where = [f"{getattr(x, '__module__', '')}.{getattr(x, '__qualname__', type(x).__qualname__)}" for x in named]
        h.update(
            json.dumps(
                [rid, where, getattr(r, "inverse", None), list(getattr(r, "after", ())), getattr(r, "lists", False)]
            ).encode()
        )
        for x in named:  # a rewrite from outside passcheck (a plugin, a test's): its module's source
            h.update(_module_digest(getattr(x, "__module__", None) or "").encode())
    return h.hexdigest()[:16]


@functools.cache
def _tree_digest() -> str:
    """sha256 of the sources :data:`SOURCES` names (``.py`` and ``.json`` files, by path under the package)."""
    root = Path(__file__).parents[1]
    files: list[Path] = []
    for name in SOURCES:
        if (root / name).is_dir():
            files += [p for p in (root / name).rglob("*") if p.suffix in (".py", ".json")]
        else:
            files.append(root / f"{name}.py")
    h = hashlib.sha256()
    for f in sorted(f for f in files if "__pycache__" not in f.parts):
        h.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


@functools.cache
def _module_digest(name: str) -> str:
    """sha256 of the source file of module ``name`` when it lives outside passcheck ("" inside it, or unknown)."""
    if name == "passcheck" or name.startswith("passcheck."):
        return ""
    file = getattr(sys.modules.get(name), "__file__", None)
    try:
        return hashlib.sha256(Path(file).read_bytes()).hexdigest() if file else name
    except OSError:
        return name


def _read(path: Path) -> Listing | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return Listing(
            tuple(doc["applicable"]),
            {k: list(v) for k, v in doc["labels"].items()},
            tuple((a, b) for a, b in doc["opened"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write(path: Path, made: Listing) -> None:
    from passcheck.report.json_report import atomic_write

    doc = {"applicable": list(made.applicable), "labels": made.labels, "opened": [list(p) for p in made.opened]}
    try:
        atomic_write(path, json.dumps(doc))  # labels in registry order
    except OSError:
        pass
