"""Generated cases: paired forms built from the installed onnx's operator schemas.

For every operator of the default domain (and ``ai.onnx.ml``) and every ``since_version``, the
generator builds a runnable one-node recipe (:mod:`.recipe`, with per-op input domains from
``domains.json``), derives pairs of forms that differ in one spelling each (:mod:`.spellings`),
and keeps a pair only when it passes the gate (:mod:`.gate`). Kept pairs are ordinary
:class:`~passcheck.cases.Case` s with ids ``generated/<op>-<since>.<kind>[.<detail>]`` and tags
``generated``, ``op:<Op>``, ``spelling:<kind>``, ``dtype:<type>``, ``since:<N>``.

Generation is deterministic and cached under ``$PASSCHECK_CACHE/generated/<onnx>/<hash>/`` (else
``~/.cache/passcheck/generated/…``), the hash covering the generator's sources, the domain table
and the onnx / onnxruntime versions. Forms are the cached bytes: every run, export and matrix
environment reads the same models.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

FAMILY = "generated"
#: the interpreter of a third runtime (another onnxruntime) for the gate's disputes (:mod:`.third`)
THIRD_ENV = "PASSCHECK_GENERATE_THIRD"


@functools.cache
def generator_hash() -> str:
    """sha256 (16 hex) of the generator's sources, its domain table and the onnx/onnxruntime versions."""
    from passcheck._versions import tool_version

    h = hashlib.sha256()
    here = Path(__file__).parent
    for f in sorted(here.glob("*.py")) + [here / "domains.json"]:
        h.update(f.name.encode() + f.read_bytes())
    h.update(f"onnx={tool_version('onnx')};ort={tool_version('onnxruntime')}".encode())
    if python := os.environ.get(THIRD_ENV):  # the third runtime's version decides disputed pairs
        from passcheck.generate.third import version

        h.update(f";third={version(python)}".encode())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """Where the generated set for the installed onnx lives (not necessarily built yet)."""
    from passcheck._cache import cache_root
    from passcheck._versions import tool_version

    base = cache_root()
    return base / "generated" / (tool_version("onnx") or "none") / generator_hash()


def index(refresh: bool = False, ops: Iterable[str] = (), quiet: bool = False) -> dict[str, Any]:
    """The generated set's index (cases and stats), generating it first when not cached.

    ``ops`` (op-name globs) generates a partial set into its own folder (for development). With
    ``$PASSCHECK_GENERATE_THIRD`` naming a Python whose onnxruntime is another version, the gate asks
    it where onnxruntime and the reference evaluator disagree (:mod:`passcheck.generate.third`).

    Raises:
        PasscheckError: onnx or onnxruntime is not installed.
    """
    from passcheck.errors import PasscheckError

    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        raise PasscheckError(f"generated cases need onnx and onnxruntime installed ({exc})") from None
    ops = sorted(ops)
    folder = (
        cache_dir()
        if not ops
        else cache_dir().with_name(cache_dir().name + "-" + hashlib.sha256(repr(ops).encode()).hexdigest()[:8])
    )
    from passcheck._cache import built_set

    def build(tmp: Path) -> dict[str, Any]:
        from passcheck.generate.build import generate

        return generate(tmp, ops, third=os.environ.get(THIRD_ENV))

    says = f"passcheck: generating cases from the onnx schemas into {folder} (once per onnx version)…"
    return built_set(folder, build, refresh=refresh, announce="" if quiet else says)


def cases(doc: dict[str, Any] | None = None, reference_only: bool = False) -> list:
    """The generated set as :class:`~passcheck.cases.Case` s (forms read the cached bytes).

    ``reference_only``: instead, the bases onnxruntime has no kernel for (schemas superseded
    before opset 7, judged by the checker and the reference evaluator alone): for coverage of the
    tools that need no runtime (shape inference, the version converter); never registered as cases."""
    from passcheck.cases import Case, Form

    doc = doc if doc is not None else index()
    models = cache_dir() / "models" if not doc.get("ops") else None
    if models is None:
        models = (
            cache_dir().with_name(
                cache_dir().name + "-" + hashlib.sha256(repr(sorted(doc["ops"])).encode()).hexdigest()[:8]
            )
            / "models"
        )
    out = []
    for e in doc.get("reference_only", []) if reference_only else doc["cases"]:
        forms = {name: Form(_loader(models / f["file"]), f.get("doc", "")) for name, f in e["forms"].items()}
        out.append(
            Case(
                id=e["id"],
                forms=forms,
                doc=e["doc"],
                opset=e["opset"],
                tags=frozenset(e["tags"]),
                rtol=e.get("rtol"),
                atol=e.get("atol"),
                parity=frozenset(e.get("parity", ("status",))),
                passes=tuple(e.get("passes", ())),
            )
        )
    return out


def _loader(path: Path):
    def build():
        import onnx

        return onnx.load_from_string(path.read_bytes())

    return build


def stub(case_id: str):
    """A stand-in :class:`~passcheck.cases.Case` for a generated id this environment's onnx did not
    generate (a matrix worker under another onnx version): forms come from the shipped bytes, so
    only the metadata is needed, and all of it follows from the id (tolerance from the dtype)."""
    from passcheck.cases import Case, Form
    from passcheck.generate.gate import tolerance
    from passcheck.generate.recipe import CPU_TYPES, elem_type

    dtype = next((p for p in case_id.split(".")[1:] if p in CPU_TYPES), "float")
    rtol, atol = tolerance(elem_type(dtype))

    def unavailable():
        raise RuntimeError(f"{case_id}: not generated by this onnx version; its forms are the shipped model bytes")

    return Case(
        id=case_id,
        forms={"common": Form(unavailable), "other": Form(unavailable)},
        opset=7,
        doc=f"{case_id}: generated under another onnx version (forms shipped as bytes).",
        tags=frozenset({FAMILY}),
        rtol=rtol,
        atol=atol,
        parity=frozenset({"status"}),
    )


def case_meta(case) -> dict[str, Any]:
    """The metadata of a generated :class:`~passcheck.cases.Case` that a matrix worker needs
    besides the shipped form bytes (JSON-able; :func:`shipped_case` reads it back)."""
    return {
        "doc": case.doc,
        "opset": case.opset,
        "tags": sorted(case.tags),
        "rtol": case.rtol,
        "atol": case.atol,
        "parity": sorted(case.parity),
        "forms": list(case.forms),
    }


def shipped_case(case_id: str, meta: dict[str, Any]):
    """The generated case ``case_id`` rebuilt from :func:`case_meta` (forms are the shipped bytes:
    building one raises), so a worker under another onnx never generates the set itself."""
    from passcheck.cases import Case, Form

    def unavailable():
        raise RuntimeError(f"{case_id}: its forms are the shipped model bytes")

    return Case(
        id=case_id,
        forms={name: Form(unavailable) for name in meta["forms"]},
        doc=meta["doc"],
        opset=meta["opset"],
        tags=frozenset(meta["tags"]),
        rtol=meta["rtol"],
        atol=meta["atol"],
        parity=frozenset(meta["parity"]),
    )


def register_all(registry) -> None:
    """Register every generated case into ``registry`` (ids already present are left alone)."""
    for c in cases():
        if c.id not in registry:
            registry.register(c)
