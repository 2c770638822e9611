"""Generation: schemas × spelling kinds → candidate pairs → the gate → cases written to the cache.

Deterministic: schemas are walked in (domain, name, since_version) order, feeds are seeded from
the case id exactly as the engine seeds them, and models are serialized deterministically.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.defs

from passcheck.case_model import DECLARED_ONLY
from passcheck.generate import (
    adapters,
    attr_elems,
    body_refusal,
    deprecated,
    elem_variants,
    recipe,
    self_check,
    spellings,
    variants,
    widths,
)
from passcheck.generate import model as gen_model
from passcheck.generate.gate import gate, runtime_free, tolerance

MIN_OPSET = 7


def converters() -> tuple[str, ...]:
    """The passes that run the version converters' adapters (:mod:`.adapters`) at a model's opset boundary: what
    an adapter-source base that onnxruntime runs but the gate does not keep as a case is searched under (tag
    :data:`DECLARED_ONLY`). Every boundary pass of the registry (:func:`passcheck.passes.boundary_passes`), each
    entry point of a converter included: the onnxscript converter's ``ir.Model`` entry point judges the
    adapters' own output, which its ModelProto entry point hides (docs/found.md rows 191, 755, 781)."""
    from passcheck.passes import boundary_passes

    return tuple(boundary_passes())


#: Forms that differ in graph input shapes (static vs symbolic) may rightly optimize differently (a
#: static Shape folds): their cases compare status only, not the op counts after each pass.
#: Kinds whose common form is the plain recipe: a common the tools reject there is a recipe bug
#: (passcheck's own reason); for other kinds (rank 0, zero-size dims, …) it means "does not apply".
BASE_KINDS = (
    "shape",
    "opset",
    "attr-default",
    "optional-input",
    "attr-to-input",
    "constant-input",
    "axis",
    "axes",
    "constant-value",
)


def schema_history(domains: Iterable[str] = ("", recipe.ML)) -> dict[tuple[str, str], list[onnx.defs.OpSchema]]:
    """(domain, op) → its schemas, oldest first (deprecated versions left out)."""
    out: dict[tuple[str, str], list] = defaultdict(list)
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain in domains:
            out[(s.domain, s.name)].append(s)
    return {k: sorted(v, key=lambda s: s.since_version) for k, v in sorted(out.items())}


def ort_max_opset(run_model) -> int:
    """The newest default-domain opset onnxruntime loads (probed with an Identity model)."""
    import numpy as np

    for v in range(onnx.defs.onnx_opset_version(), MIN_OPSET, -1):
        g = onnx.helper.make_graph(
            [onnx.helper.make_node("Identity", ["x"], ["y"])],
            "g",
            [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])],
            [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])],
        )
        from passcheck._versions import ir_version_for

        m = onnx.helper.make_model(g, opset_imports=[onnx.helper.make_opsetid("", v)])
        m.ir_version = ir_version_for(v)
        if not run_model(m, {"x": np.zeros(1, np.float32)}).error:
            return v
    return MIN_OPSET


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9_.+-]", "-", text.lower())


@dataclasses.dataclass
class Stats:
    """Per op: pairs built, pairs dropped by (category, reason), schemas not attempted by reason."""

    built: Counter = dataclasses.field(default_factory=Counter)
    reference_only: Counter = dataclasses.field(default_factory=Counter)  # bases onnxruntime cannot run
    dropped: dict[str, Counter] = dataclasses.field(default_factory=lambda: defaultdict(Counter))
    skipped: dict[str, Counter] = dataclasses.field(default_factory=lambda: defaultdict(Counter))
    examples: dict[str, str] = dataclasses.field(default_factory=dict)  # "op|reason" → first detail
    #: per op, (who was outvoted or "unresolved", "kept" | "dropped") → pairs (passcheck.generate.dissent)
    dissent: dict[str, Counter] = dataclasses.field(default_factory=lambda: defaultdict(Counter))
    dissent_examples: dict[str, str] = dataclasses.field(default_factory=dict)  # "op|who|outcome" → first
    #: every pair the gate dropped, in order: {"op", "id", "category", "reason", "detail"} and, for a tool's reason
    #: other than a missing kernel or opset (:data:`STATED_LIMITS`), "files": form → the form's bytes under
    #: ``dropped/`` (to rerun the drop); read by :mod:`passcheck.triage.gate_drops`
    drops: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "built": dict(self.built),
            "reference_only": dict(self.reference_only),
            "dropped": {k: dict(v) for k, v in self.dropped.items()},
            "skipped": {k: dict(v) for k, v in self.skipped.items()},
            "examples": self.examples,
            "dissent": {k: {f"{who}|{what}": n for (who, what), n in v.items()} for k, v in self.dissent.items()},
            "dissent_examples": self.dissent_examples,
            "drops": self.drops,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Stats:
        s = cls()
        s.built.update(doc.get("built", {}))
        s.reference_only.update(doc.get("reference_only", {}))
        for k, v in doc.get("dropped", {}).items():
            s.dropped[k].update(v)
        for k, v in doc.get("skipped", {}).items():
            s.skipped[k].update(v)
        s.examples.update(doc.get("examples", {}))
        for k, v in doc.get("dissent", {}).items():
            s.dissent[k].update({tuple(key.split("|", 1)): n for key, n in v.items()})
        s.dissent_examples.update(doc.get("dissent_examples", {}))
        s.drops.extend(doc.get("drops", []))
        return s


def _builds(schema: onnx.defs.OpSchema, ort_max: int) -> bool:
    """Whether :func:`candidates` builds cases for ``schema`` (it has inputs and onnxruntime loads its opset)."""
    return bool(schema.inputs) and (bool(schema.domain) or schema.since_version <= ort_max)


def _allowed(schema: onnx.defs.OpSchema) -> list[int]:
    """The element types ``schema``'s first input's type parameter allows (:func:`recipe.allowed`)."""
    return recipe.allowed(schema, recipe._param_of(schema.inputs[0].type_str) or "")


def _cpu_runs(schema: onnx.defs.OpSchema, elem: int) -> bool:
    """Whether onnxruntime's CPU provider may run ``schema`` with its first input's type parameter bound to
    ``elem`` (:func:`passcheck.runtime.kernels.runs_on_cpu`: a kernel, or float16 cast around a float one; unknown,
    a function body it expands, counts)."""
    from passcheck.runtime.kernels import runs_on_cpu

    param = recipe._param_of(schema.inputs[0].type_str) or ""
    types = {param: f"tensor({recipe.type_name(elem)})"}
    return runs_on_cpu(schema.domain, schema.name, schema.since_version, types) is not False


def candidates(schemas: list[onnx.defs.OpSchema], k: int, ort_max: int, stats: Stats, op_key: str):
    """Yield (case_id, Pair, tags) for schema ``schemas[k]``."""
    s = schemas[k]
    nxt = schemas[k + 1].since_version if k + 1 < len(schemas) else onnx.defs.onnx_opset_version() + 1
    if s.deprecated:  # the version that removes the op: no model may use it (the checker says so)
        stats.skipped[op_key]["deprecated"] += 1
        return
    if s.domain == "":
        if s.since_version > ort_max:
            stats.skipped[op_key][f"onnxruntime loads opsets up to {ort_max}"] += 1
            return
        # a schema superseded before opset 7 is built at its own opset: onnxruntime has no kernel
        # for most of them, so its pairs are reference-only bases (see gate), not cases
        opset = max(s.since_version, MIN_OPSET) if nxt - 1 >= MIN_OPSET else s.since_version
        last = min(nxt - 1, ort_max)
    else:
        opset, last = 17, 17
    try:
        node = recipe.build_node(s, opset)
    except recipe.NoRecipe as exc:
        stats.skipped[op_key][f"no recipe: {exc}"] += 1
        return
    previous = None
    if k > 0 and s.domain == "" and s.since_version - 1 >= MIN_OPSET:
        try:
            previous = recipe.build_node(schemas[k - 1], s.since_version - 1, node.main_elem())
        except recipe.NoRecipe:
            previous = None
    ctx = spellings.Ctx(last, previous)
    base = f"generated/{'ml.' if s.domain else ''}{_slug(s.name)}-{s.since_version}"
    tags = {"generated", f"op:{s.name}", f"since:{s.since_version}"} | ({"domain:ai.onnx.ml"} if s.domain else set())
    main = node.main_elem()
    for fn in spellings.KINDS.values():
        for pair in fn(node, ctx):
            cid = f"{base}.{pair.kind}" + (f".{_slug(pair.detail)}" if pair.detail else "")
            yield cid, pair, tags | {f"spelling:{pair.kind}", f"dtype:{recipe.type_name(main)}"}, main
    # variants: the table's other input domains for the op (e.g. Slice with a negative step), under
    # the kinds that vary shapes (so a negative step meets a zero-size axis)
    for vname, vrow in recipe.table_row(s).get("variants", {}).items():
        if s.since_version < vrow.get("min_since", 0):
            continue
        try:
            vnode = recipe.build_node(s, opset, override=vrow)
        except recipe.NoRecipe:
            continue
        for kind in ("shape", "zero-size", "omitted", "opset"):
            for pair in spellings.KINDS[kind](vnode, ctx):
                named = f".{_slug(pair.detail)}" if pair.kind == "omitted" else ""  # one pair per parameter
                yield (
                    f"{base}.{pair.kind}{named}.{_slug(vname)}",
                    pair,
                    tags | {f"spelling:{pair.kind}", f"variant:{vname}", f"dtype:{recipe.type_name(main)}"},
                    main,
                )
    # variants derived from the schema: constant operands, stated defaults written, size-1 broadcast dims
    for pair in variants.pairs(node, ctx, f"{base}.shape"):
        yield (
            f"{base}.variant.{pair.detail}",
            pair,
            tags | {"spelling:variant", f"variant:{pair.detail}", f"dtype:{recipe.type_name(main)}"},
            main,
        )
    # element-type variants: every type constraint bound to the other types its schema allows; and the attributes
    # that select a type moved together with the type variables they select (Constant has no inputs: its later
    # schemas are every one onnxruntime loads)
    newer = [t for t in schemas[k + 1 :] if _builds(t, ort_max)]
    loaded = [t for t in schemas[k + 1 :] if t.domain or t.since_version <= ort_max]
    for kind, pair in [("elem", p) for p in elem_variants.pairs(node, ctx, newer)] + [
        ("attr-elem", p) for p in attr_elems.pairs(node, ctx, loaded)
    ]:
        t = pair.detail.rsplit(".", 1)[1]
        elem = elem_variants.code(t)
        yield (
            f"{base}.variant.{_slug(pair.detail)}",
            pair,
            tags | {"spelling:variant", f"variant:{kind}", f"variant:{pair.detail}", f"dtype:{t}"},
            elem if tolerance(elem) != (None, None) else main,
        )
    first = recipe._param_of(s.inputs[0].type_str) if s.inputs else None
    if first:
        # each element type once per op: at the newest schema that allows it and that onnxruntime's CPU
        # provider has a kernel for with that type (else the pair is dropped and the type never runs), or,
        # when none has (a float16 op onnxruntime runs through inserted Casts), at the newest that allows it
        later = {e for t in schemas[k + 1 :] if _builds(t, ort_max) for e in _allowed(t)}
        kernel_later = {e for t in schemas[k + 1 :] if _builds(t, ort_max) for e in _allowed(t) if _cpu_runs(t, e)}
        later = {e for e in later if e in kernel_later or not _cpu_runs(s, e)}
        for elem in [e for e in recipe.allowed(s, first) if e != main and e not in later]:
            try:
                other = recipe.build_node(s, opset, elem)
            except recipe.NoRecipe:
                continue
            if other.dtypes.get(first) != elem:  # the domain table pins the input's type: the main pair again
                continue
            if (other := widths.tie(other, first)) is None:  # no type of the input's width for BitCast's ``to``
                continue
            for pair in spellings.dtype_pair(other, ctx):
                yield f"{base}.dtype.{pair.detail}", pair, tags | {"spelling:dtype", f"dtype:{pair.detail}"}, elem


def generate(
    out: Path, ops: Iterable[str] = (), progress: Callable[[str], None] | None = None, third: str | None = None
) -> dict[str, Any]:
    """Generate, gate and write every case into ``out`` (``index.json`` + ``models/``).

    Args:
        out: the cache folder for this onnx version and generator hash.
        ops: op-name globs to restrict to (all when empty).
        third: the interpreter of a third runtime (another onnxruntime) the gate asks where onnxruntime
            and the reference evaluator disagree (:mod:`passcheck.generate.third`); None: not asked.

    Returns:
        The index document (cases and stats), also written to ``out/index.json``.
    """
    from passcheck.passes.isolation import IsolatedExecutor

    ops = list(ops)
    stats = Stats()
    entries = []
    models = out / "models"
    models.mkdir(parents=True, exist_ok=True)
    ex = IsolatedExecutor(timeout=60)
    t0 = time.monotonic()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        from passcheck.generate.third import OtherOrt
        from passcheck.runtime import isolated_tools

        with isolated_tools.within(ex):  # the gate's inference and reference runs on each form, in the worker
            return _generate(out, ops, progress, stats, entries, models, ex, t0, OtherOrt(third) if third else None)


def _generate(out, ops, progress, stats, entries, models, ex, t0, third=None) -> dict[str, Any]:
    """The body of :func:`generate` (warnings of the reference evaluator's numpy silenced)."""
    import fnmatch

    from passcheck.generate.third import version as third_version

    seen: set[str] = set()
    ref_entries: list[dict[str, Any]] = []  # pairs only the reference evaluator runs (see gate)
    from passcheck.engine import feeds_for
    from passcheck.oracles.validity import Checker

    checker = Checker(ex)  # the gate's checker calls, in the worker too: a checker crash drops one pair
    infer = functools.partial(ex.call, gen_model.infer_shapes)  # and onnx shape inference: a crash costs one form
    bodies = functools.partial(ex.call, body_refusal.refused_body)  # and the gate's verifications of a body
    expanded = functools.partial(ex.call, body_refusal.expanded_refusal)

    try:
        ort_max = ort_max_opset(ex.run_model)
        for (domain, name), schemas in schema_history().items():
            if ops and not any(fnmatch.fnmatchcase(name, p) for p in ops):
                continue
            op_key = f"{domain}:{name}" if domain else name
            if progress:
                progress(op_key)
            for k in range(len(schemas)):
                try:
                    found = list(candidates(schemas, k, ort_max, stats, op_key))
                except Exception as exc:  # noqa: BLE001 - a generator bug is counted, never fatal
                    stats.dropped[op_key][("passcheck", f"generator error: {type(exc).__name__}")] += 1
                    stats.examples.setdefault(f"{op_key}|generator error", f"{name}-{schemas[k].since_version}: {exc}")
                    continue
                kept_one, fallback = False, None
                for cid, pair, tags, main in found:
                    if cid in seen:  # two pairs of one kind on one schema: number the later ones
                        cid = f"{cid}.{sum(1 for x in seen if x.startswith(cid))}"
                    seen.add(cid)
                    try:
                        forms = {
                            f: gen_model.to_model(node, mode, infer) for f, (node, mode, _doc) in pair.forms.items()
                        }
                    except Exception as exc:  # noqa: BLE001 - a generator bug is counted, never fatal
                        stats.dropped[op_key][("passcheck", f"form failed to build: {type(exc).__name__}")] += 1
                        stats.examples.setdefault(f"{op_key}|form failed to build", f"{cid}: {exc}")
                        continue
                    try:
                        feeds = feeds_for(forms["common"], cid, [{}, {}])
                    except Exception as exc:  # noqa: BLE001
                        stats.dropped[op_key][("passcheck", "feeds could not be synthesized")] += 1
                        stats.examples.setdefault(f"{op_key}|feeds", f"{cid}: {exc}")
                        continue
                    rtol, atol = tolerance(main)
                    seeded = bool(recipe.table_row(schemas[k]).get("seeded"))
                    old = forms["common"].opset_import[0].version < MIN_OPSET and not domain
                    v = gate(
                        forms,
                        feeds,
                        ex.run_model,
                        rtol,
                        atol,
                        checker,
                        seeded=seeded,
                        reference_only=old,
                        alike=pair.alike,
                        third=third,
                        bodies=bodies,
                        expanded=expanded,
                    )
                    for d in v.dissent:  # data about the tools, whether the pair stays or not
                        outcome = "kept" if v.ok else "dropped"
                        stats.dissent[op_key][(d.tool, outcome)] += 1
                        stats.dissent_examples.setdefault(f"{op_key}|{d.tool}|{outcome}", f"{cid}: {d}")
                    if not v.ok and pair.kind == "omitted" and v.reason.startswith("forms differ"):
                        # the recipe's value is not what leaving it out means: the kind does not apply here
                        v.category, v.reason = "n/a", "the given value is not what its omission means"
                    self_check.relabel(v, pair.forms["common"][0])  # a form breaking its own schema: passcheck's
                    if not v.ok and v.category == "n/a" and pair.kind in BASE_KINDS:
                        # the plain recipe itself is not runnable: passcheck's recipe is wrong for this op
                        v.category, v.reason = "passcheck", f"recipe not runnable ({v.reason})"
                    if not v.ok:
                        stats.dropped[op_key][(v.category, v.reason)] += 1
                        stats.examples.setdefault(f"{op_key}|{v.reason}", f"{cid}: {v.detail}")
                        stats.drops.append(_drop(out, op_key, cid, forms, v))
                        if (
                            fallback is None
                            and pair.kind in BASE_KINDS
                            and (why := runtime_free(forms["common"], feeds, v))
                        ):
                            fallback = (cid, pair, forms, rtol, atol, v, why)
                        continue
                    (stats.reference_only if v.category == "reference-only" else stats.built)[op_key] += 1
                    kept_one = True
                    judged = (
                        "checker, reference evaluator, forms agree; onnxruntime has no kernel for it: "
                        "a reference-only base"
                        if v.category == "reference-only"
                        else "checker, ort:disabled, reference evaluator, forms agree"
                        if not v.dissent
                        else "checker, ort:disabled, forms agree; the reference evaluator outvoted: "
                        + "; ".join(map(str, v.dissent))
                    )
                    judged = f"every form passed the gate ({judged})"
                    entry = _entry(models, cid, pair, forms, schemas[k], tags, rtol, atol, judged)
                    if v.dissent:
                        entry["dissent"] = [dataclasses.asdict(d) for d in v.dissent]
                    (ref_entries if v.category == "reference-only" else entries).append(entry)
                if not kept_one and fallback:
                    # no pair of this schema was kept: its first tool-dropped common form that the
                    # checker accepts and a runtime runs is a base for the runtime-free tools
                    cid, pair, forms, rtol, atol, v, why = fallback
                    stats.dropped[op_key][(v.category, v.reason)] -= 1
                    stats.dropped[op_key] += Counter()  # drops the reason counted to zero
                    stats.reference_only[op_key] += 1
                    for rec in stats.drops:
                        if rec["id"] == cid:  # still a drop as a case; kept as a base for the runtime-free tools
                            rec["kept_as"] = "reference-only base"
                    judged = f"the checker accepts common; {why}: a base for shape inference and the converter only"
                    ref_entries.append(_entry(models, cid, pair, forms, schemas[k], tags, rtol, atol, judged))
        adapter_bases(entries, ref_entries, models, stats, ex.run_model, checker, infer, ops)
    finally:
        ex.close()
    doc = {
        "onnx": onnx.__version__,
        "ort_max_opset": ort_max,
        "third": f"onnxruntime {third_version(third.python)} ({third.python})" if third else None,
        "ops": ops,
        "seconds": round(time.monotonic() - t0, 1),
        "cases": entries,
        "reference_only": ref_entries,
        "stats": _stats_json(stats),
    }
    (out / "index.json").write_text(json.dumps(doc, indent=0) + "\n", encoding="utf-8")
    return doc


def adapter_bases(entries, ref_entries, models: Path, stats: Stats, run_model, checker, infer, ops=()) -> None:
    """A base per side of a version-converter adapter boundary no form of a case crosses (:func:`.adapters.uncrossed`:
    the up and down boundary passes run on every form, :func:`.adapters.crossed`), appended to
    ``entries`` or ``ref_entries``: the schema at the source opset, built at that opset (the ``shape`` pair, id
    ``generated/<op>-<since>.adapter.opset-<N>``, tag ``adapter-source``) and gated like the others. A pair the gate
    keeps is a case; one it drops whose common form onnxruntime runs is a case searched under :func:`converters`
    only (entry ``passes``, tag :data:`DECLARED_ONLY`: its other forms and the reference evaluator are unjudged);
    one only the reference evaluator runs, or neither, is a reference-only base (the coverage map's runtime-free
    tools) or nothing. Counted in ``stats`` under the op; ``ops``: op-name globs (all when empty).

    Then, crossed or not, a base per documented non-default value of a STRING attribute of an adapter source whose
    step changes the op's attribute set (:func:`.adapters.reinterpreted`; id
    ``generated/<op>-<since>.adapter.opset-<N>.<attr>-<value>``, the one attribute written, gated alike): the
    crossing forms hold the schema defaults only, and such a step is where an adapter must carry each value's
    meaning into the target's new attributes (onnx/onnx#8480: Resize 10 → 11 and ``mode = "linear"``)."""
    import fnmatch

    def wanted(op: str) -> bool:
        return not ops or any(fnmatch.fnmatchcase(op, p) for p in ops)

    crossings: set = set()
    for e in entries:  # every form of every case: a form may stamp another opset than its case
        for f in e["forms"].values():
            crossings |= adapters.crossed(onnx.load_from_string((models / f["file"]).read_bytes()))
    base = (entries, ref_entries, models, stats, run_model, checker, infer)
    for op, at, since in adapters.uncrossed(crossings):
        if wanted(op):
            _adapter_base(*base, op, at, since, f"generated/{_slug(op)}-{since}.adapter.opset-{at}", {})
    for op, at, since, attr, value in adapters.reinterpreted():
        if wanted(op):
            cid = f"generated/{_slug(op)}-{since}.adapter.opset-{at}.{_slug(attr)}-{_slug(value)}"
            _adapter_base(*base, op, at, since, cid, {attr: value})


def _adapter_base(entries, ref_entries, models, stats, run_model, checker, infer, op, at, since, cid, attrs) -> None:
    """The adapter-source base ``cid`` of ``op``'s schema at opset ``at`` with ``attrs`` written on its node (module
    docs of :func:`adapter_bases`), gated and appended, or counted as skipped / dropped."""
    import onnx.defs

    from passcheck.engine import feeds_for

    schema = onnx.defs.get_schema(op, at, "")
    what = f"adapter source at opset {at}" + "".join(f", {k} = {v!r}" for k, v in attrs.items())
    try:
        node = recipe.build_node(schema, at)
        node.attrs.update(attrs)
        (pair,) = spellings.KINDS["shape"](node, spellings.Ctx(at, None))
        forms = {f: gen_model.to_model(n, mode, infer) for f, (n, mode, _doc) in pair.forms.items()}
        feeds = feeds_for(forms["common"], cid, [{}, {}])
    except Exception as exc:  # noqa: BLE001 - no recipe, no input to vary, no feeds: counted, never fatal
        stats.skipped[op][f"{what}: {type(exc).__name__}"] += 1
        return
    if not any(c[:2] == (op, at) for c in adapters.crossed(forms["common"])):  # e.g. no newer schema to go to
        stats.skipped[op][f"{what}: no converter pass crosses its boundary"] += 1
        return
    main = node.main_elem()
    rtol, atol = tolerance(main)
    tags = {"generated", "adapter-source", f"op:{op}", f"since:{since}", "spelling:adapter"}
    tags.add(f"dtype:{recipe.type_name(main)}")
    gone = deprecated.withdrawn(schema)  # the checker refuses it for that alone: the converter's to carry
    chk = deprecated.forgiving(checker, schema) if gone else checker
    v = gate(forms, feeds, run_model, rtol, atol, chk, reference_only=True, alike=pair.alike)
    runs = not run_model(forms["common"], dict(feeds[0])).error
    why = runtime_free(forms["common"], feeds, v) if not v.ok else None
    src = f"the version converter's adapters from opset {at} ({op}-{since}" + "".join(
        f", {k} = {v!r}" for k, v in attrs.items()
    )
    src += ")"
    if gone and v.ok and v.category != "reference-only":
        judged = (
            f"{op}-{since} is withdrawn (deprecated, superseded by a later {op}): this onnx's checker refuses it "
            f"for that alone, onnxruntime and the reference evaluator run it alike; a base for {src}, searched "
            "under the converters only"
        )
        entry = _entry(models, cid, pair, forms, schema, tags | {DECLARED_ONLY, "withdrawn"}, rtol, atol, judged)
        entry["passes"], into = list(converters()), entries
    elif v.ok and v.category != "reference-only":
        judged = f"every form passed the gate; a base for {src}"
        entry, into = _entry(models, cid, pair, forms, schema, tags, rtol, atol, judged), entries
    elif why and runs:
        judged = f"the checker accepts common; {why}: a base for {src}, searched under the converters only"
        entry = _entry(models, cid, pair, forms, schema, tags | {DECLARED_ONLY}, rtol, atol, judged)
        entry["passes"], into = list(converters()), entries
    elif v.ok or why:
        judged = f"the checker accepts common; {why or 'onnxruntime has no kernel for it'}: a base for {src} only"
        entry, into = _entry(models, cid, pair, forms, schema, tags, rtol, atol, judged), ref_entries
    else:
        stats.dropped[op][(v.category, f"adapter source: {v.reason}")] += 1
        stats.drops.append(_drop(models.parent, op, cid, forms, v))
        return
    (stats.built if into is entries else stats.reference_only)[op] += 1
    into.append(entry)


def _entry(models: Path, cid, pair, forms, schema, tags, rtol, atol, judged: str) -> dict[str, Any]:
    """Write ``forms`` under ``models`` and return the index entry of the pair ``cid``."""
    files = {}
    for f, m in forms.items():
        data = m.SerializeToString(deterministic=True)
        fname = f"{cid.split('/', 1)[1]}.{f}.onnx"
        (models / fname).write_bytes(data)
        files[f] = {"file": fname, "sha256": hashlib.sha256(data).hexdigest(), "doc": pair.forms[f][2]}
    return {
        "id": cid,
        "op": schema.name,
        "domain": schema.domain,
        "kind": pair.kind,
        "opset": forms["common"].opset_import[0].version,
        "doc": f"{schema.name}-{schema.since_version}: {pair.doc}.\n\n"
        f"Generated from the onnx {onnx.__version__} schema (passcheck.generate); {judged}.",
        "tags": sorted(tags),
        "rtol": rtol,
        "atol": atol,
        "forms": files,
        "parity": ["status"] if any(m != "static" for _n, m, _d in pair.forms.values()) else ["status", "ops"],
    }


#: Words of a gate's drop reason that name a limit onnxruntime states of itself (no CPU kernel for the op and type,
#: an opset beyond its support: :func:`passcheck.generate.gate._ort_reason`), an environment fact, not a finding.
STATED_LIMITS = ("has no kernel", "does not support the opset")


def _drop(out: Path, op: str, cid: str, forms: dict[str, onnx.ModelProto], v) -> dict[str, Any]:
    """The record of one dropped pair (:attr:`Stats.drops`); a tool's drop that is no stated limit keeps its forms'
    bytes under ``out/dropped/`` so the drop can be rerun without regenerating."""
    rec = {"op": op, "id": cid, "category": v.category, "reason": v.reason, "detail": v.detail}
    if v.category == "tool" and not any(w in v.reason for w in STATED_LIMITS):
        folder = out / "dropped"
        folder.mkdir(exist_ok=True)
        rec["files"] = {}
        for name, m in forms.items():
            f = f"{_slug(cid)}.{_slug(name)}.onnx"
            (folder / f).write_bytes(m.SerializeToString())
            rec["files"][name] = f"dropped/{f}"
    return rec


def _stats_json(stats: Stats) -> dict[str, Any]:
    d = stats.to_json()
    d["dropped"] = {op: {f"{cat}|{why}": n for (cat, why), n in c.items()} for op, c in stats.dropped.items()}
    return d
