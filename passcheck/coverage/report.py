"""The coverage map as a report: totals per tool, each entry with its bases, the spellings a hunt
tried under it and their findings, and why an untriggered entry is untriggered.

JSON layout (``passcheck coverage --json F``)::

    {"versions": {...}, "bases": N, "totals": {tool: {"triggered": a, "total": b, "subsets": {...}}},
     "entries": [{"key", "tool", "kind", "name", "passes", "scope", "source", "triggered",
                  "evidence": [{"entry", "base", "effect"}], "tried": n, "findings": [...], "reason"}],
     "errors": {base: {tool: error}}, "unavailable": {tool: why}}

Every evidence record names the base (``case-id:form``) and the effect observed, so
:mod:`passcheck.coverage.recheck` can observe that base again and confirm it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from passcheck.coverage.entry import TOOLS, Entry
from passcheck.coverage.map import CoverageMap

#: onnxruntime transformers a CPU session's verbose log lists but that onnxruntime registers for other
#: execution providers only (onnxruntime/core/optimizer/graph_transformer_utils.cc, read from its sources:
#: ``BiasDropoutFusion(cuda_rocm_eps)``, ``MatMulActivationFusion(dml_ep)``,
#: ``GroupQueryAttentionFusion(cuda_eps)``): they never act on the CPU provider, so the CPU subset leaves them out.
OTHER_EP_ONLY = {
    "BiasDropoutFusion": "CUDA and ROCm",
    "MatMulActivationFusion": "DirectML",
    "GroupQueryAttentionFusion": "CUDA",
}

#: The subsets the issue's acceptance counts, per tool: name → predicate on an entry (a converter
#: step the converter says it has no adapter for is left out of its subset, see :func:`unregistered`).
SUBSETS = {
    "onnxruntime": {"basic+extended, CPU": lambda e: e.scope in ("basic", "extended") and e.name not in OTHER_EP_ONLY},
    "onnxscript": {"default rules": lambda e: e.kind == "rule" and e.scope == "default rules"},
    "onnx-shape-inference": {
        "inference, op run by onnxruntime or the reference evaluator": lambda e: (
            e.kind == "inference" and ("ort" in e.scope or "reference" in e.scope)
        )
    },
    "onnx-version-converter": {"registered adapters between opsets 7 and 23": lambda e: e.scope == "opsets 7-23"},
}


def unregistered(cmap: CoverageMap, e: Entry) -> bool:
    """Whether the version converter itself said it has no adapter for ``e``'s step (``No Adapter
    To Version $N for Op`` on a base that reached it): a derived entry onnx does not register."""
    return e.tool == "onnx-version-converter" and "No Adapter" in cmap.reasons.get(e.key, "")


def deprecated_source(e: Entry) -> int | None:
    """For a converter step ``Op:a->b``: the ``since_version`` of the schema ``Op`` resolves to at
    opset ``a`` when onnx marks that schema deprecated as the version that removed the op
    (``OpSchema.deprecated`` on the op's last schema, e.g. Upsample-10, Scatter-11), else None. No valid
    model holds such a node at opset ``a`` (the checker rejects it), so no base can start that step: a
    derived entry with nothing to convert, left out of the subset with this reason. A withdrawn version
    (deprecated, superseded: GroupNormalization-18, :mod:`passcheck.oracles.withdrawn`) is not one: models
    written while it was current hold it, and the generated set builds it as a converter source."""
    import onnx

    from passcheck.coverage._graph import since
    from passcheck.oracles.withdrawn import withdrawn

    if e.tool != "onnx-version-converter":
        return None
    op, step = e.name.split(":", 1)
    source = int(step.split("->", 1)[0])
    v = since(op, "", source)
    schema = onnx.defs.get_schema(op, source, "") if v is not None else None
    return v if schema is not None and schema.deprecated and not withdrawn(schema) else None


def tried(items: Iterable[Mapping[str, Any]], cmap: CoverageMap) -> dict[str, dict[str, Any]]:
    """Entry key → {"forms": set of spellings tried, "findings": signature keys}, from hunt item
    records (``base``, ``form``, ``pass``, ``status``, ``signatures``): an item tries an entry when
    its base triggers it and its pass runs it (:class:`~passcheck.coverage.entry.PassScope`)."""
    from passcheck.coverage.entry import PassScope
    from passcheck.mutations.forms import kind

    by_base = cmap.by_base()
    scope = PassScope(cmap.entries.values())
    out: dict[str, dict[str, Any]] = {}
    for rec in items:
        if rec.get("status") != "done":
            continue
        for k in by_base.get(rec["base"], ()):
            e = cmap.entries[k]
            if scope.runs(e, rec["pass"]):
                slot = out.setdefault(k, {"forms": set(), "findings": set()})
                slot["forms"].add(_spelling(rec["form"], kind))
                slot["findings"].update(rec.get("signatures", ()))
    return out


def _spelling(form: str, kind) -> str:
    """The rewrite kind of a rewrite form; a hunt's variation form (``vary:<kind>@<site>``, no rewrite id) is
    its variation kind (:func:`passcheck.signature.rewrite_kind`); a rewrite of a neighbour
    (``vary:<kind>@<site>><rewrite>@<site>``) names both, ``vary:<kind>><rewrite kind>`` (what its signatures
    record as their rewrite)."""
    from passcheck.signature import THEN, composed_parts, rewrite_kind

    if (both := composed_parts(form)) is not None:
        return f"{rewrite_kind(both[0])}{THEN}{_spelling(both[1], kind)}"
    try:
        return kind(form)
    except ValueError:
        return rewrite_kind(form)


def reason(cmap: CoverageMap, e: Entry, index: Mapping[str, Any] | None = None) -> str:
    """Why no base triggers ``e`` (the tool's own word when a base reached it); ``index`` is the generated
    set's index :func:`generator_says` reads (else :func:`generated_index`, read for this call)."""
    if unregistered(cmap, e):
        return f"not registered: the converter has no adapter for this step ({cmap.reasons[e.key]})"
    if (v := deprecated_source(e)) is not None:
        op, step = e.name.split(":", 1)
        return (
            f"nothing to convert: {op}-{v} is deprecated in onnx.defs (the op was removed), so no valid model "
            f"has a {op} node at opset {step.split('->', 1)[0]}"
        )
    if e.key in cmap.reasons:
        return cmap.reasons[e.key]
    if e.tool == "onnx-shape-inference":
        op = e.name
        having = [b for b, ops in cmap.base_ops.items() if op in ops]
        if not having:
            runs = "" if e.scope != "none" else " (neither onnxruntime nor the reference evaluator runs it)"
            return f"no base has a node of {op}{runs}{generator_says(op.rsplit('@', 1)[0], index)}"
        what = "typed every output" if e.kind == "inference" else "changed a downstream type with data_prop"
        return f"{len(having)} bases have a node of {op} (e.g. {having[0]}) but inference never {what}"
    if e.tool in ("onnx-version-converter", "ort-symbolic-shape-infer"):
        op = e.name.split(":", 1)[0]
        having = [b for b, ops in cmap.base_ops.items() if any(o.split("@")[0] == op for o in ops)]
        if not having:
            return f"no base has a node of {op}{generator_says(op, index)}"
        return f"{len(having)} bases have {op} (e.g. {having[0]}) but none reached this step with an effect"
    if e.tool == "ort-precision":
        return _precision_reason(cmap, e, index)
    if e.tool == "onnxruntime" and e.name in OTHER_EP_ONLY:
        return (
            f"registered for the {OTHER_EP_ONLY[e.name]} execution providers only (graph_transformer_utils.cc): "
            "it never acts on the CPU provider"
        )
    if e.tool == "onnxruntime":
        how = (
            "logs 'GraphTransformer {} modified: 1'"
            if e.kind == "transformer"
            else "makes disabling {} change the optimized graph"
        )
        return f"no base's session {how.format(e.name)} (its pattern is in no base)"
    return f"no base matches {e.name} ({e.kind})"


#: What :func:`passcheck.coverage.ort_precision.triggers` takes as evidence, per entry kind.
PRECISION_EFFECT = {
    "block": "a Cast the float16 conversion added, reading or writing one of its values",
    "float-input": "a Cast the float16 conversion added, reading or writing one of its values",
}


def _precision_reason(cmap: CoverageMap, e: Entry, index: Mapping[str, Any] | None) -> str:
    """An ``ort-precision`` entry no base triggers: no base holds the op, or some do and the pass left no evidence
    there (a stated limit of the tool reads differently from a gap in the bases)."""
    having = [b for b, ops in cmap.base_ops.items() if any(o.split("@")[0].rsplit(".", 1)[-1] == e.name for o in ops)]
    if not having:
        return f"no base has a node of {e.name}{generator_says(e.name, index)}"
    effect = PRECISION_EFFECT.get(e.kind, "the quantizer replacing it or making it read a quantized value")
    return f"{len(having)} bases have {e.name} (e.g. {having[0]}) but none shows the effect: {effect}"


def generated_index() -> Mapping[str, Any]:
    """The installed onnx's cached generated-set index (``generate.cache_dir() / "index.json"``, a few MB of
    JSON: read it once per report, not once per entry), ``{}`` when it is absent or unreadable; never
    generated here."""
    import json

    from passcheck.generate import cache_dir

    try:
        return json.loads((cache_dir() / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def generator_says(op: str, doc: Mapping[str, Any] | None = None) -> str:
    """Why the generated set (``doc``, else :func:`generated_index`) has no base of ``op`` (``Op`` or
    ``ai.onnx.ml.Op``), from its stats: ``"; generate --stats: …"`` with the op's reasons not to attempt a
    schema and its drop reasons, most frequent first; "" when there is no index or it has nothing on the op."""
    if doc is None:
        doc = generated_index()
    stats = doc.get("stats", {})
    name = op.replace("ai.onnx.ml.", "ai.onnx.ml:")
    why = {**stats.get("skipped", {}).get(name, {}), **stats.get("dropped", {}).get(name, {})}
    if not why:
        return ""
    return "; generate --stats: " + "; ".join(f"{k} ({n})" for k, n in sorted(why.items(), key=lambda kv: -kv[1])[:3])


def totals(cmap: CoverageMap) -> dict[str, dict[str, Any]]:
    out = {}
    for tool in TOOLS:
        es = [e for e in cmap.entries.values() if e.tool == tool]
        if not es and tool not in cmap.unavailable:
            continue
        rec: dict[str, Any] = {"triggered": sum(cmap.triggered(e.key) for e in es), "total": len(es)}
        if tool in cmap.unavailable:
            rec["unavailable"] = cmap.unavailable[tool]
        gone = [e for e in es if unregistered(cmap, e)]
        if gone:
            rec["not_registered"] = len(gone)  # derived steps the converter says it has no adapter for
        dead = [e for e in es if deprecated_source(e) is not None]
        if dead:
            rec["deprecated_source"] = len(dead)  # derived steps from a removed op's version: nothing to convert
        subs = {}
        for name, pred in SUBSETS.get(tool, {}).items():
            sub = [e for e in es if pred(e) and not unregistered(cmap, e) and deprecated_source(e) is None]
            subs[name] = {"triggered": sum(cmap.triggered(e.key) for e in sub), "total": len(sub)}
        if subs:
            rec["subsets"] = subs
        out[tool] = rec
    return out


def to_json(
    cmap: CoverageMap,
    hunt_items: Iterable[Mapping[str, Any]] = (),
    versions: Mapping[str, Any] | None = None,
    keys: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The report (see module docs); ``keys`` limits the entries listed (totals stay whole)."""
    t = tried(hunt_items, cmap)
    index = None  # the generated set's index, read at the first untriggered entry, once
    wanted = set(keys) if keys is not None else None
    rows = []
    for k, e in cmap.entries.items():
        if wanted is not None and k not in wanted:
            continue
        rec = e.to_json()
        rec["triggered"] = cmap.triggered(k)
        rec["evidence"] = [ev.to_json() for ev in cmap.evidence.get(k, ())]
        rec["tried"] = len(t.get(k, {}).get("forms", ()))
        rec["findings"] = sorted(t.get(k, {}).get("findings", ()))
        if not rec["triggered"] and index is None:
            index = generated_index()
        rec["reason"] = None if rec["triggered"] else reason(cmap, e, index)
        rows.append(rec)
    return {
        "versions": dict(versions or {}),
        "bases": len(cmap.bases),
        "totals": totals(cmap),
        "entries": rows,
        "errors": cmap.errors,
        "unavailable": cmap.unavailable,
    }


def lines(report: Mapping[str, Any], untriggered: int = 15) -> list[str]:
    """The terminal text: one line per tool (and subset), then the untriggered entries with their reason."""
    out = [f"coverage over {report['bases']} bases"]
    for tool, rec in report["totals"].items():
        pct = f" ({100 * rec['triggered'] / rec['total']:.0f}%)" if rec["total"] else ""
        out.append(
            f"  {tool}: {rec['triggered']}/{rec['total']} triggered{pct}"
            + (
                f" ({rec['not_registered']} derived steps the converter has no adapter for)"
                if rec.get("not_registered")
                else ""
            )
            + (
                f" ({rec['deprecated_source']} derived steps from a deprecated op version, nothing to convert)"
                if rec.get("deprecated_source")
                else ""
            )
            + (f" - unavailable: {rec['unavailable']}" if "unavailable" in rec else "")
        )
        for name, sub in rec.get("subsets", {}).items():
            pct = f" ({100 * sub['triggered'] / sub['total']:.0f}%)" if sub["total"] else ""
            out.append(f"      {name}: {sub['triggered']}/{sub['total']}{pct}")
    missing = [r for r in report["entries"] if not r["triggered"]]
    if missing:
        out.append(f"untriggered: {len(missing)} (first {min(untriggered, len(missing))}; all in --json)")
        out += [f"  {r['key']}: {r['reason']}" for r in missing[:untriggered]]
    return out
