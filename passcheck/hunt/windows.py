"""A hunt across pinned environments (``passcheck hunt --env ID…``): each item's pair judged in
every environment, and each signature's version window.

The parent builds the pair and gates it once, in this interpreter
(:func:`passcheck.hunt.probe.gate`), then writes it as a case module (forms ``common`` and
``uncommon``, :func:`passcheck.reduce.case_module.case_module`). A *judge* the front door gives
(:class:`passcheck.matrix.hunt.EnvJudge`) runs that case under the item's pass in every
environment from the same model bytes and returns each environment's cells, or why it could not
judge there. Each environment's cells are read as a local probe's are
(:func:`~passcheck.hunt.probe.blamed`, :mod:`.limits`, :mod:`.noise`).

A signature's **window** is ``{"present": [env…], "absent": [env…]}``: the environments where an
item showed it, and those that judged such an item in full (both forms' cells under the pass, none
unavailable, skipped or unchecked) without it, nor with a signature differing from it in its error class
alone (another version's wording of the same failure). An environment that could not judge the pair (not
created, unusable, a dead worker) is neither. Pairs are not shrunk (the shrinker runs in this
interpreter, where the finding may not show); the saved case module is the pair every
environment judged, so ``passcheck bisect --cases-from`` takes it as it is.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck.hunt import limits
from passcheck.hunt.probe import COMMON, Setting, blamed, gate
from passcheck.hunt.signature import signature
from passcheck.records import CellResult, Finding

if TYPE_CHECKING:
    import onnx

    from passcheck.hunt.space import Base, Item

#: The rewritten form's name in the saved case module (and in every environment's cells).
UNCOMMON = "uncommon"
#: ``judge(case module, case id, pass id[, forms=…])`` → env id → its cells (of ``forms`` only when given),
#: or why it could not judge there.
Judge = Callable[..., dict[str, "list[CellResult] | str"]]


def case_id(item: Item) -> str:
    """The id of the case module holding ``item``'s pair (stable: one per base, form and pass)."""
    digest = hashlib.sha256(f"{item.base}|{item.form}|{item.pass_id}".encode()).hexdigest()[:10]
    return f"hunt/env-{digest}"


def fully_judged(cells: Sequence[CellResult], pass_id: str) -> bool:
    """Whether ``cells`` hold both forms under ``pass_id``, none unavailable, skipped or unchecked."""
    mine = [c for c in cells if c.pass_id == pass_id]
    return {c.form for c in mine} >= {COMMON, UNCOMMON} and not any(
        c.status in ("unavailable", "skipped") or c.verdict == "unchecked" for c in mine
    )


def run_item(
    store,
    base: Base,
    item: Item,
    model: onnx.ModelProto,
    mutant: onnx.ModelProto,
    labels,
    judge: Judge,
    executor,
    expected: Sequence[Any] | None = None,
    *,
    setting: Setting | None = None,
    form: str | None = None,
    kind: str | None = None,
) -> dict[str, Any]:
    """Gate ``item``'s pair here, judge it in every environment, record its signatures and their
    windows in ``store`` (a :class:`~passcheck.hunt.store.Store`); return the item's record, whose
    ``envs`` says per environment ``judged`` / ``partly judged`` / ``not judged`` (with the reason,
    also counted as an environment fact in ``unavailable``) and the signatures seen there; its
    status is ``not-judged`` when no environment judged the pair.

    ``setting``: the feeds and tolerances of the gate (and the tolerances of the saved pair, and its bindings where
    they are not the case's), by default the case's; ``form``: the rewrite form that made ``mutant`` from
    ``model`` (the item's by default; a rewrite of a neighbour's rewrite part, :mod:`.env_compose`); ``kind``: the
    rewrite its signatures record (by default ``form``'s kind)."""
    from passcheck.hunt.noise import classify
    from passcheck.mutations import forms as hforms

    rec: dict[str, Any] = {"base": item.base, "form": item.form, "pass": item.pass_id, "signatures": []}
    case, form = base.case, form or item.form
    setting = setting or Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol)
    refused = gate(setting, model, form, mutant, executor, expected)
    if refused is not None:
        rec["status"], rec["reason"] = refused.status, refused.reason
        return rec
    cid = case_id(item)
    own = None if [dict(b) for b in setting.bindings] == [dict(b) for b in case.bindings] else setting.bindings
    path = _write_pair(store.out / "env-items", cid, model, mutant, item, setting.rtol, setting.atol, own)
    results = judge(path, cid, item.pass_id)
    rec["status"] = "done"
    kind, envs, unavailable = kind or hforms.kind(form), {}, []
    for env, got in results.items():
        if isinstance(got, str):
            envs[env] = {"status": "not judged", "reason": got}
            continue
        findings, facts = limits.split(blamed(got, UNCOMMON), item.pass_id, model, mutant)
        if facts:
            where = {"base": item.base, "form": item.form, "env": env}
            limits.record(store.environment, item.pass_id, facts, model, mutant, where)
        keys: list[str] = []
        for f in findings:
            sig = signature(f, kind, [model, mutant], labels)
            store.key_of(sig)  # a record an older passcheck spelled otherwise takes today's key
            entry = store.signatures.setdefault(sig.key, signature_entry(sig, f, item, cid, path, store, model, mutant))
            entry["hits"] += 1
            keys += [sig.key] if sig.key not in keys else []
        envs[env] = {"status": "judged" if fully_judged(got, item.pass_id) else "partly judged", "signatures": keys}
        unavailable += [u for u in classify(got) if u not in unavailable]
    close(store, rec, envs, unavailable, path)
    return rec


def close(
    store, rec: dict[str, Any], envs: dict[str, dict], unavailable: list, path: Path, what: str = "the pair"
) -> None:
    """Fill ``rec`` from ``envs`` (env id → ``{"status", "signatures"}`` or ``{"status", "reason"}``):
    its signatures, its status (``not-judged`` when no environment judged it, the reasons joined),
    ``unavailable`` (with each environment that could not judge it), and each signature's window in
    ``store`` (``absent`` only where the status is ``judged`` and no signature differing from it in its error
    class alone was seen there: :func:`_phrased_otherwise`); ``path`` (the item's case module) is removed when
    no signature was seen."""
    from passcheck.hunt.noise import ENVIRONMENT

    rec["envs"], rec["signatures"] = envs, sorted({k for e in envs.values() for k in e.get("signatures", ())})
    missed = {e: v["reason"] for e, v in envs.items() if v["status"] == "not judged"}
    if len(missed) == len(envs):
        rec["status"] = "not-judged"
        rec["reason"] = "; ".join(f"{e}: {why}" for e, why in missed.items())
    unavailable += [[ENVIRONMENT, f"{e} could not judge {what}: {why}"] for e, why in missed.items()]
    if unavailable:
        rec["unavailable"] = unavailable
    for key in rec["signatures"]:
        window = store.signatures[key].setdefault("window", {"present": [], "absent": []})
        for env, info in envs.items():
            seen = info.get("signatures", ())
            if key in seen:
                side = "present"
            elif info["status"] == "judged" and not any(_phrased_otherwise(store, key, k) for k in seen):
                side = "absent"
            else:  # not judged in full, or the same behaviour reported there in another error phrase
                side = None
            if side and env not in window[side]:
                window[side].append(env)
    if not rec["signatures"]:
        path.unlink(missing_ok=True)


def _phrased_otherwise(store, a: str, b: str) -> bool:
    """Whether signatures ``a`` and ``b`` differ in their error class only (one pass, oracle, kind, op types and
    rewrite: another tool version words the same error otherwise, e.g. onnxruntime's ``RUNTIME_EXCEPTION`` and
    ``FAIL`` for one Reshape failing), so an environment showing ``b`` is no evidence that ``a`` is absent there."""
    from passcheck.signature import Signature

    sa, sb = (Signature.from_json(store.signatures[k]["signature"]) for k in (a, b))
    return a != b and dataclasses.replace(sa, error="", aliases=()) == dataclasses.replace(sb, error="", aliases=())


def window_text(window: dict[str, list[str]]) -> str:
    """``present in B; absent in A`` (an environment present on any item is not listed absent)."""
    present = window.get("present", [])
    absent = [e for e in window.get("absent", []) if e not in present]
    return f"present in {', '.join(present) or 'none'}; absent in {', '.join(absent) or 'none'}"


def signature_entry(sig, finding: Finding, item: Item, cid: str, path: Path, store, model, mutant) -> dict[str, Any]:
    """A new signature's record: the item's pair (not shrunk) saved in the hunt's ``cases``."""
    store.cases_dir.mkdir(parents=True, exist_ok=True)
    saved = store.cases_dir / path.name
    saved.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    modules = [*store.scope.get("cases_from", ()), str(saved)]
    return {
        "signature": sig.to_json(),
        "hits": 0,
        "found_on": {"base": item.base, "form": item.form, "pass": item.pass_id, "message": finding.message},
        "case": cid,
        "case_module": str(saved),
        "form": item.form,
        "finding": f"{cid}:{finding.form}|{finding.pass_id}|{finding.oracle}|{finding.kind}",
        "nodes": [len(model.graph.node), len(mutant.graph.node)],
        "message": finding.message,
        "note": "not shrunk: judged across environments",
        "repro": "passcheck run "
        + " ".join(f"--cases-from {shlex.quote(m)}" for m in modules)
        + f" --case {shlex.quote(cid)} --pass {shlex.quote(item.pass_id)}  # in an environment where it is present",
    }


def _write_pair(folder: Path, cid: str, model, mutant, item: Item, rtol, atol, bindings=None) -> Path:
    """The pair saved as a case module; ``bindings``: the pair's own binding maps where its setting moved them from
    its case's (a neighbour's new symbols, :mod:`.vary_apart`), else None (the saved case binds by default)."""
    from passcheck.reduce.case_module import case_module

    folder.mkdir(parents=True, exist_ok=True)
    about = Finding("pair", "hunt", cid, UNCOMMON, item.pass_id, f"the item {item.base} rewritten as {item.form}")
    path = folder / f"hunt_env_{cid.rsplit('-', 1)[-1]}.py"
    text = case_module(
        about,
        model,
        mutant,
        case_id=cid,
        origin="passcheck hunt --env (not shrunk)",
        rtol=rtol,
        atol=atol,
        bindings=bindings,
    )
    path.write_text(text, encoding="utf-8")
    return path
