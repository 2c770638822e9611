"""A neighbour (:mod:`.variation`) judged in pinned environments (``passcheck hunt --env``).

The neighbour is built here, once, and written with its base as two one-model case modules
(:func:`passcheck.reduce.case_module.case_module`; a run-condition kind's bindings or feed function
in the neighbour's, :func:`.vary_probe.saved`); the judge (:data:`.windows.Judge`) runs each in
every environment from the same model bytes (their sha256 in the item's record). There,
:mod:`.vary_probe`'s rules apply to each environment's cells: the neighbour's validity gate is its
``input`` cell (the environment's onnx checker, its ``ort:disabled`` run on the feeds). A base or
neighbour that environment cannot take (its ``input`` cell ``unavailable`` or ``skipped``: an opset
beyond its onnx, no kernel) or whose run its onnxruntime rejects (the ``runtime`` oracle's
``rejected``, which the base does not show) leaves the neighbour ``unavailable`` there, with the
reason (``"rejected": true`` for the latter); any other ``input`` finding the base does not show
(the checker's) leaves it ``invalid-variation`` there. (Here, :func:`.vary_probe.invalid` drops a
neighbour onnxruntime cannot run as invalid; across versions an older onnxruntime refusing what a
newer runs is an environment fact. A neighbour no environment runs is ``invalid-variation``.)
Otherwise the findings of the neighbour's pass cell whose (pass, oracle, kind) the base's cell in
that environment does not show are the variation's (:func:`.vary_probe.blamed`), each counted
under its signature with its window (:func:`.windows.close`). The interface check and the
magnitude-scaled tolerance (:func:`.vary_probe.scaled_atol`, run here; the case's own when a model
does not run here) do not depend on the environment.

Both modules use feeds synthesized from their models (seeded by their case ids), as the pairs'
do: the case's own feed function and bindings are not carried (a module holds model bytes, not
the case's code). Neighbours are not shrunk (the shrinker runs here, where the finding may not show).
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import COMMON, Setting
from passcheck.hunt.signature import signature
from passcheck.hunt.windows import UNCOMMON, case_id, close, signature_entry
from passcheck.mutations.forms import named
from passcheck.records import INPUT, Finding

if TYPE_CHECKING:
    from passcheck.hunt.space import Base, Item
    from passcheck.hunt.windows import Judge

#: Statuses of an environment's cells that mean it cannot take the form (:mod:`.noise`).
CANNOT = ("unavailable", "skipped")
#: (oracle, kind) of an ``input`` finding saying that environment's onnxruntime cannot run the form
#: (:mod:`passcheck.oracles.runtime`).
REJECTED = ("runtime", "rejected")


def base_case_id(item: Item, first: str = "") -> str:
    """The id of the case module holding ``item``'s base alone (one per base and pass); ``first``: a chain's first
    link, whose neighbour is then that base (:mod:`.chain`)."""
    digest = hashlib.sha256(f"{item.base}|{item.pass_id}{'|' + first if first else ''}".encode()).hexdigest()[:10]
    return f"hunt/env-base-{digest}"


def run(store, rec: dict[str, Any], base: Base, item: Item, judge: Judge, executor) -> None:
    """Judge the variation item ``item`` in every environment (see module docs) and fill in its record ``rec``:
    ``envs`` says per environment ``judged`` / ``partly judged`` (with the signatures seen there),
    ``unavailable`` / ``invalid-variation`` / ``not judged`` (with the reason); its status is ``done``
    when an environment judged it, ``invalid-variation`` when every environment found it invalid or its
    onnxruntime rejected the neighbour's run (it runs nowhere: :func:`.vary_probe.invalid`'s rule), else
    ``not-judged``; ``not-applicable`` / ``invalid-variation`` before any environment when the
    neighbour does not build here or changes the graph's interface."""
    from passcheck.errors import PasscheckError

    try:
        model = base.model()
        built = variation.build(model, item.form)
    except Exception as exc:  # noqa: BLE001 - a base this onnx cannot build or vary: nothing to try
        rec["reason"] = f"{type(exc).__name__}: {exc}"
        return
    if built is None:
        rec["reason"] = f"{item.form}: the site is not in this model"
        return
    neighbour, labels = built
    if vary_probe.interface_changed(model, neighbour, item.form):
        rec["status"], rec["reason"] = vary_probe.INVALID, "graph inputs/outputs changed"
        return
    case, bid, nid = base.case, base_case_id(item), case_id(item)
    form = item.form
    if (two := variation.links(item.form)) is not None:  # a chain: judged against its first neighbour (.chain)
        first = variation.build(model, two[0])[0]
        gate = Setting(bid, case.bindings, case.feeds, case.rtol, case.atol)
        gate = vary_probe.setting_for(gate, two[0], first)  # a first link declaring the inputs: its feeds
        if why := vary_probe.invalid(gate, model, first, executor, two[0]):  # gated here, as a composed item's is
            rec["status"], rec["reason"] = vary_probe.INVALID, f"the first neighbour {two[0]}: {why}"
            return
        model, form = first, two[1]
        bid = base_case_id(item, two[0])
    bset = Setting(bid, rtol=case.rtol, atol=case.atol)
    own = Setting(nid, rtol=case.rtol, atol=case.atol)
    nset = vary_probe.setting_for(own, form, neighbour)
    try:
        atol = vary_probe.scaled_atol(bset, nset, model, neighbour, executor)
    except PasscheckError:  # a model that does not run here: the environments say whether it runs there
        atol = nset.atol
    nset = dataclasses.replace(nset, atol=atol)
    folder = store.out / "env-items"
    bpath = _write(folder, bid, model, item, case.rtol, case.atol, "its base")
    npath = _write(folder, nid, neighbour, item, nset.rtol, nset.atol, item.form, **vary_probe.saved(own, model, form))
    key = f"{item.pass_id}@env"  # base.cells: the local cells by pass; the environments' under this key
    key += "" if form == item.form else f"@{variation.links(item.form)[0]}"  # a chain's base: its first neighbour
    if key not in base.cells or any(isinstance(c, str) for c in base.cells[key].values()):  # kept once judged
        base.cells[key] = judge(bpath, bid, item.pass_id, forms=[COMMON])
    theirs_by_env = base.cells[key]
    bpath.unlink(missing_ok=True)
    results = judge(npath, nid, item.pass_id, forms=[COMMON])
    rec["sha256"] = {"base": _sha(theirs_by_env), "neighbour": _sha(results)}
    envs, unavailable, wrote = {}, [], set()
    for env, mine in results.items():
        theirs = theirs_by_env.get(env, "not judged for the base")
        envs[env], found = _judge_env(mine, theirs, item.pass_id)
        if not isinstance(mine, str) and not isinstance(theirs, str):  # what the pass wrote on the neighbour only
            wrote.update(vary_probe.wrote(mine, theirs, neighbour, item.pass_id))
        for cells in (theirs, mine):
            if not isinstance(cells, str):
                unavailable += [u for u in _classify(cells) if u not in unavailable]
        keys: list[str] = []
        for f in found:
            # the labels name the nodes of the base's node-named copy (the neighbour keeps its unnamed ones)
            sig = signature(f, variation.kind(item.form), [model, named(model), neighbour], labels)
            store.key_of(sig)  # a record an older passcheck spelled otherwise takes today's key
            if sig.key not in store.signatures:
                entry = signature_entry(sig, f, item, nid, npath, store, model, neighbour)
                store.signatures[sig.key] = {**entry, "variation": item.form, "sha256": rec["sha256"]}
            store.signatures[sig.key]["hits"] += 1
            keys += [sig.key] if sig.key not in keys else []
        if "signatures" in envs[env]:
            envs[env]["signatures"] = keys
    if wrote:  # a first link of chains (.chain)
        rec["wrote"] = sorted(wrote)
    statuses = [v["status"] for v in envs.values()]
    if any(s in ("judged", "partly judged") for s in statuses):
        rec["status"] = "done"
    else:
        nowhere = all(v["status"] == vary_probe.INVALID or v.get("rejected") for v in envs.values())
        rec["status"] = vary_probe.INVALID if nowhere else "not-judged"
        rec["reason"] = "; ".join(f"{e}: {v['reason']}" for e, v in envs.items())
    close(store, rec, envs, unavailable, npath, what="the neighbour")


def _judge_env(mine: list | str, theirs: list | str, pass_id: str) -> tuple[dict[str, Any], list[Finding]]:
    """One environment's record of a neighbour and the findings the variation is to blame for there
    (see module docs); ``mine`` / ``theirs``: the neighbour's and the base's cells there, or why that
    environment could not judge them."""
    for who, cells in (("the base", theirs), ("the neighbour", mine)):
        if isinstance(cells, str):
            return {"status": "not judged", "reason": f"{who}: {cells}"}, []
    for who, cells in (("the base", theirs), ("the neighbour", mine)):
        if why := _cannot(cells):
            return {"status": "unavailable", "reason": f"{who}: {why}"}, []
    seen = {(c.pass_id, f.oracle, f.kind) for c in theirs for f in c.findings}
    broken = [f for c in mine if c.pass_id == INPUT for f in c.findings if (INPUT, f.oracle, f.kind) not in seen]
    if broken:
        b = min(broken, key=lambda f: (f.oracle, f.kind) == REJECTED)  # the checker's word first
        if (b.oracle, b.kind) == REJECTED:
            return {"status": "unavailable", "reason": f"the neighbour: {b.message}", "rejected": True}, []
        return {"status": vary_probe.INVALID, "reason": f"no valid form there: {b.oracle} {b.kind}: {b.message}"}, []
    complete = _complete(mine, pass_id) and _complete(theirs, pass_id)
    return {"status": "judged" if complete else "partly judged", "signatures": []}, vary_probe.blamed(mine, seen)


def _cannot(cells: list) -> str | None:
    """Why the form of ``cells`` cannot be taken there: its ``input`` cell unavailable or skipped (the
    worker's load check, an unknown opset, an op without a kernel for its types), or missing."""
    first = next((c for c in cells if c.pass_id == INPUT), None)
    if first is None:
        return "no input cell came back"
    return (first.error or first.status) if first.status in CANNOT else None


def _complete(cells: list, pass_id: str) -> bool:
    """Whether ``cells`` hold the form's cell under ``pass_id`` and none is unavailable, skipped or unchecked."""
    return any(c.pass_id == pass_id for c in cells) and not any(
        c.status in CANNOT or c.verdict == "unchecked" for c in cells
    )


def _classify(cells: list) -> list[list[str]]:
    from passcheck.hunt.noise import classify

    return classify(cells)


def _sha(results: dict[str, list | str]) -> str | None:
    """The sha256 of the model bytes the environments judged (the same in each)."""
    return next(
        (c.model_sha256 for cells in results.values() if not isinstance(cells, str) for c in cells if c.model_sha256),
        None,
    )


def _write(folder: Path, cid: str, model, item: Item, rtol, atol, what: str, **conditions) -> Path:
    from passcheck.reduce.case_module import case_module

    folder.mkdir(parents=True, exist_ok=True)
    about = Finding("pair", "hunt", cid, UNCOMMON, item.pass_id, f"{what} of the item {item.base} {item.form}")
    path = folder / f"hunt_env_{cid.replace('/', '_').replace('-', '_')}.py"
    text = case_module(
        about,
        None,
        model,
        case_id=cid,
        origin="passcheck hunt --env (a neighbour, not shrunk)",
        rtol=rtol,
        atol=atol,
        **conditions,
    )
    path.write_text(text, encoding="utf-8")
    return path
