"""contrib-static/*: one node of an onnxruntime ``com.microsoft`` op that onnxruntime registers a schema for but no
CPU kernel, for the tools that read a model without running it (M381).

onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``) has a handler for ops only its
CUDA / ROCm builds run (NhwcConv, GroupNorm, SkipGroupNorm, BiasAdd, RemovePadding, LongformerAttention, ...), and its
float16 conversion keeps GroupNorm's and SkipGroupNorm's gamma / beta float (``float16.ALWAYS_FLOAT_INPUTS``). Both
tools run on any machine: they read the model. The ``contrib/*`` family (M342) keeps only ops a CPU session runs, so
``passcheck coverage`` listed those handlers untriggered (round 19b: 35 of 116 handlers, 2 float16 entries).

Source: onnxruntime's own schemas (:mod:`passcheck.runtime.ort_schemas`) and its graph resolution
(:mod:`passcheck.runtime.resolve`): a session refused only for the missing kernel ("Could not find an
implementation", :func:`passcheck.runtime.limits.missing_kernel`) is a model every check of the op's schema and its
type and shape inference function accepted, strict mode included (the declared output ranks agree with it). Per op
and per input rank of :data:`RANKS` (the schemas' inputs state no rank the generator could read; a conv or norm
op's text states "N x C x D1 x ... x Dn", any n): the generator's recipe (:func:`passcheck.generate.recipe.build_node`)
with every input of that rank, each required attribute the domain table has no row for at 1 (an int) or 1.0 (a
float), each integer input it has no row for a tensor of that rank (the model is never run: only its types and
shapes are read); each output annotated with the rank onnxruntime's strict resolution accepts, and only one. The
forms are the ``contrib/*`` family's spelling kinds (:data:`cases.contrib_ops.KINDS`: static / ``dim_param`` /
anonymous input dims, an optional input omitted vs ``""``, an attribute at its stated default vs left out). A pair
is kept when every form passes onnx's checker and onnxruntime refuses it only for the missing kernel.

The forms cannot run here: the runtime oracles say so on every base ("onnxruntime cannot run this form"), the
oracles that read the passes' outputs judge them (acceptance, parity, validity). The verdicts are cached per
onnxruntime's schemas, the generator's hash and this module under ``<cache>/contrib-static/``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import onnx

from passcheck.case_model import Case, Form
from passcheck.cases import register, schema_gate
from passcheck.generate import generator_hash, recipe
from passcheck.generate import model as gen_model
from passcheck.generate.pair import Ctx, Pair
from passcheck.runtime import kernels, ort_schemas

FAMILY = "contrib-static"
#: What a selection names this family's cases by: read without importing this module
#: (:class:`passcheck.cases.sources.GatedModule`), which is imported, and its gate judged, only when one does.
SELECTED_BY = {"ids": ["contrib-static/*"], "tags": ["contrib-static", "contrib-*"]}
DOMAIN = "com.microsoft"
#: the default-domain opset the forms import (as ``contrib/*``)
OPSET = 17
#: input rank → the shape every input gets (equal dims: a matrix product, a channel count and a kernel fit)
RANKS = {2: (4, 4), 3: (4, 4, 4), 4: (4, 4, 4, 4), 5: (4, 4, 4, 4, 4)}
#: output ranks tried when asking onnxruntime's strict resolution which one its inference states
OUT_RANKS = range(7)
#: the passes that read these models without running them (symbolic shape inference; the float16 conversion
#: types values with it)
PASSES = ("ort:symbolic-shape-infer", "ort-transformers:float16")


def static_schemas() -> list[ort_schemas.Schema]:
    """onnxruntime's ``com.microsoft`` schemas with no CPU kernel and a symbolic shape inference handler, by name."""
    from passcheck.coverage.symbolic import handler_names

    return [
        s for s in ort_schemas.schemas(DOMAIN) if not kernels.versions(DOMAIN, s.name) and s.name in handler_names()
    ]


def _fill(schema: ort_schemas.Schema, shape: tuple[int, ...]) -> dict:
    """The recipe's override (module docs): every input of ``shape``; each required attribute without a domain-table
    row at 1 / 1.0."""
    row = recipe.table_row(schema)
    attrs = {}
    for name, a in schema.attributes.items():
        if a.required and name not in row.get("attrs", {}):
            if a.type == onnx.AttributeProto.INT:
                attrs[name] = 1
            elif a.type == onnx.AttributeProto.FLOAT:
                attrs[name] = 1.0
    inputs = {f.name: {"shape": list(shape)} for f in schema.inputs if f.option != _OPTIONAL}
    return {"shape": list(shape), "attrs": attrs, "inputs": inputs}


_OPTIONAL = onnx.defs.OpSchema.FormalParameterOption.Optional


def pairs(schema: ort_schemas.Schema, rank: int) -> list[tuple[str, Pair]]:
    """``(case id, pair)`` for each spelling kind of :data:`cases.contrib_ops.KINDS` on the op's recipe at input rank
    ``rank``; [] without a recipe."""
    from passcheck._library.contrib_ops import KINDS

    try:
        node = recipe.build_node(schema, OPSET, override=_fill(schema, RANKS[rank]))
    except recipe.NoRecipe:
        return []
    stem = f"{FAMILY}/{schema.name.lower()}-{schema.since_version}.r{rank}"
    made = [] if any(i.wrap for i in node.inputs) else [p for k in KINDS for p in k(node, Ctx(OPSET, None))]
    return [(".".join(filter(None, (stem, p.kind, p.detail))), p) for p in made]


def form_model(pair: Pair, form: str, ranks: dict[str, int | None] | None = None) -> onnx.ModelProto:
    """The model of ``form``; each output in ``ranks`` gets that many anonymous dims (None: no shape)."""
    node, mode, _doc = pair.forms[form]
    m = gen_model.to_model(node, mode, infer=lambda model: model)
    for o in m.graph.output:
        r = (ranks or {}).get(o.name)
        t = o.type.tensor_type
        t.ClearField("shape")
        if r is not None:
            t.shape.SetInParent()
            for _ in range(r):
                t.shape.dim.add()
    return m


def _accepted(error: str) -> bool:
    from passcheck.runtime.limits import missing_kernel

    return bool(error) and missing_kernel(error) is not None


def _gate() -> dict:
    """``{"kept": {case id: {output: rank}}, "dropped": {case id: why}}`` (module docs): per op and input rank, each
    output's rank is the one strict resolution accepts (the common form of the first pair, the other outputs left
    without a shape); then every form of every pair, annotated with those ranks, must pass onnx's checker and be
    refused by onnxruntime for the missing kernel only."""
    from passcheck.runtime.resolve import resolve_all

    groups = [(s, r, pairs(s, r)) for s in static_schemas() for r in RANKS]
    groups = [g for g in groups if g[2]]
    probes, where = [], []
    for k, (_s, _r, ps) in enumerate(groups):
        first = ps[0][1]
        names = [o.name for o in form_model(first, "common").graph.output]
        for o in names:
            for r in OUT_RANKS:
                probes.append(form_model(first, "common", {o: r}).SerializeToString())
                where.append((k, o, r))
    answers = resolve_all(probes)
    found: dict[int, dict[str, list[int]]] = {}
    for (k, o, r), err in zip(where, answers, strict=True):
        found.setdefault(k, {}).setdefault(o, [])
        if _accepted(err):
            found[k][o].append(r)
    kept, dropped, forms, keys = {}, {}, [], []
    for k, (_s, _r, ps) in enumerate(groups):
        outs = found.get(k, {})
        bad = [o for o, rs in outs.items() if len(rs) != 1]
        if bad:
            for cid, _p in ps:
                dropped[cid] = f"onnxruntime's strict resolution states no one rank for {', '.join(bad)}"
            continue
        ranks = {o: rs[0] for o, rs in outs.items()}
        for cid, pair in ps:
            for f in pair.forms:
                m = form_model(pair, f, ranks)
                try:
                    onnx.checker.check_model(m, full_check=True)
                except Exception as exc:  # noqa: BLE001 - the checker's refusal drops the pair
                    dropped.setdefault(cid, f"{f}: checker: {str(exc).splitlines()[0][:200]}")
                    continue
                forms.append(m.SerializeToString())
                keys.append((cid, f, ranks))
    for (cid, f, ranks), err in zip(keys, resolve_all(forms), strict=True):
        if cid in dropped:
            continue
        if not _accepted(err):
            dropped[cid] = f"{f}: onnxruntime: {(err or 'created a CPU session').splitlines()[0][:200]}"
            kept.pop(cid, None)
        else:
            kept[cid] = ranks
    return {"kept": kept, "dropped": dropped}


def _parts() -> tuple:
    from passcheck.runtime import resolve

    contrib = Path(__file__).with_name("contrib_ops.py")  # its spelling kinds
    return (generator_hash(), Path(__file__), Path(ort_schemas.__file__), Path(resolve.__file__), contrib)


def gate_key() -> str:
    """The verdicts' cache key (:func:`passcheck.cases.schema_gate.gate_key` of :func:`_parts`)."""
    return schema_gate.gate_key(_parts())


@functools.cache
def verdicts() -> dict:
    """:func:`_gate`, built once per :func:`gate_key` under ``<cache>/contrib-static/<key>/``."""
    return schema_gate.cached(FAMILY, _parts(), _gate)


def _register(schema: ort_schemas.Schema, rank: int, cid: str, pair: Pair, ranks: dict[str, int]) -> None:
    from passcheck._library.contrib_ops import SOURCES

    forms = {f: Form(functools.partial(form_model, pair, f, ranks), doc) for f, (_n, _m, doc) in pair.forms.items()}
    register(
        Case(
            id=cid,
            forms=forms,
            opset=OPSET,
            doc=f"{DOMAIN}.{schema.name}-{schema.since_version} with rank-{rank} inputs: onnxruntime has its schema "
            "and no CPU kernel; the forms are judged by the tools that read them without running them.\n\n"
            f"Uncommon: {pair.doc} ({SOURCES[pair.kind]}); onnxruntime's strict graph resolution refused every form "
            "only for the missing kernel (the family's gate).\nValid: opset 17, com.microsoft 1; onnx's checker.",
            tags=frozenset({FAMILY, f"contrib-static-{schema.name.lower()}", f"contrib-{pair.kind}"}),
            passes=PASSES,
            parity=frozenset({"status"}),
        )
    )


if static_schemas():
    _kept = verdicts()["kept"]
    for _schema in static_schemas():
        for _rank in RANKS:
            for _cid, _pair in pairs(_schema, _rank):
                if _cid in _kept:
                    _register(_schema, _rank, _cid, _pair, _kept[_cid])
