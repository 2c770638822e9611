"""The ``onnx-node`` family: onnx's backend node tests (the spec's own examples) as cases.

Each test that onnxruntime runs becomes ``onnx-node/<test>`` (the test name without ``test_``) with
two forms: ``common`` (the test's model, graph inputs fed with the test's inputs, their shapes
static) and ``constant-inputs`` (every graph input an initializer holding that input:
:mod:`.forms`). Feeds are fixed (one run), and the outputs the test states are the case's
:class:`~passcheck.case_model.Reference`. Tags: ``onnx-node``, ``op:<Op>`` (``op:<domain>.<Op>``
outside the default domain).

Built once per onnx version (:mod:`.build`) and cached under
``$PASSCHECK_CACHE/onnx-node/<onnx>/<hash>/`` (else ``~/.cache/passcheck/…``), the hash covering
the sources that write it and the onnx / onnxruntime versions. Forms and data are the cached bytes, so every run
and export reads the same models; a matrix worker under another onnx reads the parent's folder
(:func:`shipped_case`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from passcheck.nodetests.forms import CONSTANT_INPUTS, CONSTANT_INPUTS_DOC

FAMILY = "onnx-node"
FORM_DOCS = {CONSTANT_INPUTS: CONSTANT_INPUTS_DOC}


@functools.cache
def source_hash() -> str:
    """sha256 (16 hex) of the sources that write the cached bytes (:mod:`.build`, :mod:`.forms`,
    :mod:`.select`) and the onnx/onnxruntime versions."""
    from passcheck._versions import tool_version

    h = hashlib.sha256()
    for f in (Path(__file__).parent / name for name in ("build.py", "forms.py", "select.py")):
        h.update(f.name.encode() + f.read_bytes())
    h.update(f"onnx={tool_version('onnx')};ort={tool_version('onnxruntime')}".encode())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """Where the set for the installed onnx lives (not necessarily built yet)."""
    from passcheck._cache import cache_root
    from passcheck._versions import tool_version

    base = cache_root()
    return base / FAMILY / (tool_version("onnx") or "none") / source_hash()


def index(refresh: bool = False, quiet: bool = False, names: Iterable[str] = ()) -> dict[str, Any]:
    """The set's index (cases, skip counts), building it first when not cached.

    ``names`` (test-name globs) builds a partial set into its own folder (tests, development).

    Raises:
        PasscheckError: onnx or onnxruntime is not installed.
    """
    from passcheck.errors import PasscheckError

    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        raise PasscheckError(f"onnx-node cases need onnx and onnxruntime installed ({exc})") from None
    folder = _folder(sorted(names))
    from passcheck._cache import built_set

    def write(tmp: Path) -> dict[str, Any]:
        from passcheck.nodetests.build import build

        return build(tmp, sorted(names))

    says = f"passcheck: writing onnx's backend node tests into {folder} (once per onnx version)…"
    return built_set(folder, write, refresh=refresh, announce="" if quiet else says)


def _folder(names: list[str]) -> Path:
    """The cache folder of the whole set, or of the partial set of test-name globs ``names``."""
    base = cache_dir()
    return base if not names else base.with_name(f"{base.name}-{hashlib.sha256(repr(names).encode()).hexdigest()[:8]}")


#: case id → the folder its cases were read from (what :func:`case_meta` ships to a matrix worker).
_FOLDERS: dict[str, Path] = {}


def case_of(entry: dict[str, Any], root: Path, onnx_version: str):
    """The :class:`~passcheck.cases.Case` of one index entry whose files sit under ``root``."""
    from passcheck.case_model import Case, Form, Reference

    folder = _FOLDERS[entry["id"]] = root / entry["folder"]
    op = entry["op"] if entry["domain"] in ("", "ai.onnx") else f"{entry['domain']}.{entry['op']}"
    reference = Reference(
        _data_loader(folder),
        f"onnx {onnx_version} backend node test {entry['test']}",
        rtol=entry["rtol"],
        atol=entry["atol"],
    )
    return Case(
        id=entry["id"],
        forms={
            "common": Form(_loader(folder / entry["forms"]["common"]["file"])),
            **{
                name: Form(_loader(folder / f["file"]), FORM_DOCS.get(name, ""))
                for name, f in entry["forms"].items()
                if name != "common"
            },
        },
        doc=f"{op} as onnx's backend node test {entry['test']} (onnx {onnx_version}) writes it: the spec's own "
        "example, fed its inputs, its outputs the expected ones; the constant form holds the inputs as constants.",
        opset=entry["opset"],
        tags=frozenset({FAMILY, f"op:{op}"}),
        feeds=_fixed_feeds(reference),
        parity=frozenset({"status"}),  # one form cannot fold what the other is fed: no ops / precision parity
        reference=reference,
    )


def cases(doc: dict[str, Any] | None = None) -> list:
    """The set as cases (forms and data read the cached bytes)."""
    doc = doc if doc is not None else index()
    return [case_of(e, _folder(doc.get("names") or []), doc["onnx"]) for e in doc["cases"]]


def _loader(path: Path):
    def build():
        import onnx

        return onnx.load_from_string(path.read_bytes())

    return build


def _data_loader(folder: Path):
    """``() → ([feeds], [expected outputs])`` read from ``folder`` (model.onnx, test_data_set_0)."""
    return functools.partial(_read_data, str(folder))


@functools.lru_cache(maxsize=4)  # a subject's feeds, its hunt pairs' feeds and its reference: read once
def _read_data(folder: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    import onnx

    from passcheck.runtime.feed_files import read_feeds, read_outputs

    model = onnx.load_from_string((Path(folder) / "model.onnx").read_bytes())
    return read_feeds(folder, model), [read_outputs(Path(folder) / "test_data_set_0", model)]


def _fixed_feeds(reference):
    """A case feed function giving the reference's first feed set whatever the binding and seed
    (the paths that feed by binding: the hunt's pairs)."""

    def feeds(binding, seed):
        return dict(reference.load()[0][0])

    return feeds


def case_meta(case) -> dict[str, Any]:
    """What a matrix worker needs besides the shipped form bytes: the folder of the test's data."""
    ref = case.reference
    return {
        "folder": str(_FOLDERS[case.id]),
        "doc": case.doc,
        "tags": sorted(case.tags),
        "opset": case.opset,
        "source": ref.source,
        "rtol": ref.rtol,
        "atol": ref.atol,
    }


def shipped_case(case_id: str, meta: dict[str, Any]):
    """The case ``case_id`` as the matrix parent built it (:func:`case_meta`): its data read from the
    parent's folder, its forms the shipped bytes (building one raises), so a worker under another onnx
    feeds and judges the same values."""
    from passcheck.case_model import Case, Form, Reference

    def unavailable():
        raise RuntimeError(f"{case_id}: its forms are the shipped model bytes")

    folder = Path(meta["folder"])
    reference = Reference(_data_loader(folder), meta["source"], rtol=meta["rtol"], atol=meta["atol"])
    return Case(
        id=case_id,
        forms={"common": Form(unavailable), CONSTANT_INPUTS: Form(unavailable)},
        doc=meta["doc"],
        opset=meta["opset"],
        tags=frozenset(meta["tags"]),
        feeds=_fixed_feeds(reference),
        parity=frozenset({"status"}),
        reference=reference,
    )


def register_all(registry) -> None:
    """Register every case into ``registry`` (ids already present are left alone)."""
    for c in cases():
        if c.id not in registry:
            registry.register(c)
