"""A hunt's state in ``--out``: ``hunt-state.json`` (scope, items tried, distinct signatures) and
``cases/hunt_<hash>.py`` (one case module per shrunk signature). Written atomically
(:meth:`Store.checkpoint`) after an item that found a new signature, at least every
:data:`SAVE_SECONDS` seconds between items, and when the hunt ends (budget, Ctrl-C): a run killed
outright loses at most the items of the last :data:`SAVE_SECONDS` seconds, and ``--resume``
continues where the state stops (those items are run again, with the same choices). Writing the
whole state after every item cost more than a quick item on a busy disk (``bench/hunt.py``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import IO, Any

from passcheck._locks import exclusive
from passcheck.errors import PasscheckError
from passcheck.signature import Signature

STATE = "hunt-state.json"
#: The file a hunt holds an exclusive ``flock`` on while it uses its ``--out`` (:func:`release`).
LOCK = ".hunt.lock"
VERSION = 1
#: Arguments a resumed hunt must share with the run it continues.
SCOPE = (
    "seed",
    "passes",
    "pass_sets",
    "cases",
    "cases_from",
    "generated",
    "shard",
    "envs",
    "variation",
    "vary_kinds",
    "rewrites",
    "map",
    "guided",
    "compose",
)
#: Item status of a step another shard runs (recorded, not run: every shard walks one sequence).
OTHER_SHARD = "other-shard"
#: Seconds between two writes of the state while items run (see module docs).
SAVE_SECONDS = 5.0


class Store:
    """The state of one hunt (see module docs).

    Attributes:
        items: one dict per item tried, in order: ``base``, ``form``, ``pass``, ``status``
            (``done`` / ``refused`` / ``unverified`` / ``base-fails`` / ``not-applicable``, see
            :class:`~passcheck.hunt.probe.Outcome`;
            ``unfinished``: the budget ran out inside the item; ``other-shard``: a step another shard
            runs; ``unavailable``: only a documented limit met before, see :mod:`.limits`;
            ``not-judged``: with ``--env``, no environment could judge the pair), ``seconds``,
            ``envs`` (``--env``: per environment, how it judged the pair and the signatures seen
            there, :mod:`.windows`), ``triples``, ``signatures``, ``base_runs`` (whether the base runs on its feeds),
            ``valid`` (false: a neighbour the variation gate rejects, :func:`.search.valid_neighbour`),
            ``unavailable`` (``[category, reason]`` pairs, :mod:`passcheck.hunt.noise`).
        signatures: signature key → its record (signature; hits: findings of the items that counted
            for it; the shrunk pair's node counts; its case module; the reproduce command; with
            ``--env``, its ``window`` and ``bisect`` command).
        coarse: key of a raw finding → the signature key its shrunk pair got (no second shrink).
        environment: documented limits met, one per pass and limit (:mod:`.limits`): never signatures.
    """

    def __init__(self, out: str | Path, scope: dict[str, Any]):
        self.out = Path(out)
        self.scope = scope
        self.items: list[dict[str, Any]] = []
        self.signatures: dict[str, dict[str, Any]] = {}
        self.coarse: dict[str, str | None] = {}
        self.environment: dict[str, dict[str, Any]] = {}
        self._saved: tuple[float, int] | None = None  # (monotonic time, signature count) of the last save
        self._saved_scope: dict[str, Any] | None = None  # a resumed state's scope as read

    @property
    def path(self) -> Path:
        return self.out / STATE

    @property
    def resumed(self) -> bool:
        """True when :meth:`open` read a saved state (``--resume`` on a folder holding one); False for
        a new state."""
        return self._saved_scope is not None

    @property
    def cases_dir(self) -> Path:
        return self.out / "cases"

    @classmethod
    def open(cls, out: str | Path, scope: dict[str, Any], resume: bool, later: tuple[str, ...] = ()) -> Store:
        """A new state in ``out``, or with ``resume`` the one there. The scope keys in ``later`` are
        known only once the hunt has read its bases (the relevant pass sets): they keep the saved
        values until :meth:`settle` checks them.

        Raises:
            PasscheckError: ``out`` is not a folder; another hunt is using it (held until :func:`release`);
                it holds a state and ``resume`` is not set; the state there is unreadable or was made with
                another scope.
        """
        store = cls(out, scope)
        if store.out.exists() and not store.out.is_dir():
            raise PasscheckError(f"--out {out}: exists and is not a folder; choose a folder path")
        _hold(store.out)
        if not store.path.is_file():
            return store
        if not resume:
            raise PasscheckError(
                f"--out {out}: holds a hunt already ({store.path}); continue it with --resume, or choose another folder"
            )
        try:
            doc = json.loads(store.path.read_text(encoding="utf-8"))
            if doc.get("version") != VERSION:
                raise ValueError(f"version {doc.get('version')!r}, expected {VERSION}")
            items, signatures, coarse, saved = doc["items"], doc["signatures"], doc["coarse"], doc["scope"]
        except (ValueError, KeyError, TypeError) as exc:
            raise PasscheckError(f"{store.path}: not a readable hunt state ({exc}); choose another --out") from None
        for k in SCOPE:
            if k not in later and saved.get(k) != scope.get(k):
                raise PasscheckError(
                    f"{store.path}: the hunt there used {k} {saved.get(k)!r}, this run {scope.get(k)!r}; "
                    "resume with the same arguments, or choose another --out"
                )
        store.items, store.signatures, store.coarse = items, signatures, coarse
        for k in later:  # saved as read until settle checks them
            store.scope[k] = saved.get(k)
        store._saved_scope = saved
        store.environment = doc.get("environment") or {}  # a state written before it existed has none
        return store

    def settle(self, scope: dict[str, Any]) -> None:
        """Set the scope keys of ``scope`` (the ``later`` ones of :meth:`open`); for a resumed state
        with items, check each first (a state saved before any item takes them).

        Raises:
            PasscheckError: a resumed state's items were tried with another value of one of them.
        """
        saved = self._saved_scope
        for k, v in scope.items():
            if saved is not None and self.items and saved.get(k) != v:
                raise PasscheckError(
                    f"{self.path}: the hunt there used {k} {saved.get(k)!r}, this run {v!r}; "
                    "resume with the same arguments, or choose another --out"
                )
            self.scope[k] = v

    def key_of(self, sig: Signature) -> str | None:
        """The key this state holds ``sig`` under, or None when it is new. A record an older passcheck
        keyed by one of ``sig``'s :attr:`~passcheck.signature.Signature.aliases` (a crash keyed by its
        op types) is moved to today's key and signature first: read both spellings, write today's."""
        if sig.key in self.signatures:
            return sig.key
        for old in sig.aliases:
            if old in self.signatures:
                rec = self.signatures.pop(old)
                self.signatures[sig.key] = {**rec, "signature": sig.to_json()}
                self.coarse = {raw: sig.key if k == old else k for raw, k in self.coarse.items()}
                return sig.key
        return None

    def fold_aliases(self, join=None) -> None:
        """Fold each record an older passcheck spelled with an alias of another record's signature into
        that record (hits summed, ``join(kept, other)`` for anything else), e.g. after merging states."""
        for key, rec in list(self.signatures.items()):
            if key not in self.signatures or not rec.get("signature"):
                continue
            for old in Signature.from_json(rec["signature"]).aliases:
                if old != key and (other := self.signatures.pop(old, None)) is not None:
                    rec["hits"] = rec.get("hits", 0) + other.get("hits", 0)
                    if join is not None:
                        join(rec, other)
                    self.coarse = {raw: key if k == old else k for raw, k in self.coarse.items()}

    def checkpoint(self) -> bool:
        """:meth:`save` when a signature was added since the last save or :data:`SAVE_SECONDS` have
        passed (see module docs); whether it saved."""
        last = self._saved
        if last is not None and len(self.signatures) == last[1] and time.monotonic() - last[0] < SAVE_SECONDS:
            return False
        self.save()
        return True

    def save(self) -> None:
        """Write the state now (atomically: a reader sees the old or the new file, never half of one)."""
        from passcheck.report.json_report import atomic_write

        self.out.mkdir(parents=True, exist_ok=True)
        doc = {
            "version": VERSION,
            "scope": self.scope,
            "items": self.items,
            "signatures": self.signatures,
            "coarse": self.coarse,
            "environment": self.environment,
        }
        atomic_write(self.path, json.dumps(doc, indent=1) + "\n")
        self._saved = (time.monotonic(), len(self.signatures))


#: ``--out`` folder (resolved) → its open lock file, while a hunt of this process uses it.
_HELD: dict[Path, IO[str]] = {}


def _hold(out: Path) -> None:
    """Take ``out``'s hunt lock for this process (kept until :func:`release`): two hunts writing one state would
    try the same items and write ``hunt-state.json`` over each other.

    Raises:
        PasscheckError: another process holds it.
    """
    key = out.resolve()
    if key in _HELD:
        return
    out.mkdir(parents=True, exist_ok=True)
    refusal = f"--out {out}: another passcheck hunt is using it; wait for it to end, or choose another folder"
    f = exclusive(out / LOCK, refusal)
    _HELD[key] = f


def release(out: str | Path) -> None:
    """Let another hunt use ``out`` (the lock :meth:`Store.open` took); nothing when this process holds none."""
    f = _HELD.pop(Path(out).resolve(), None)
    if f is not None:
        f.close()
