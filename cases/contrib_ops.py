"""contrib/*: one node of an onnxruntime ``com.microsoft`` contrib op, for every contrib op whose CPU kernel the
installed onnxruntime registers, in the generator's spellings (M342; the gate M343).

Source: onnxruntime's own schemas (:mod:`passcheck.runtime.ort_schemas`; docs/ContribOperators.md in the
onnxruntime repository is generated from them) and its kernel registry (:mod:`passcheck.runtime.kernels`). Each
op's node is the generator's recipe (:func:`passcheck.generate.recipe.build_node`: the inputs and attributes the
schema states, element types the CPU provider runs, optional inputs omitted), with the rows of :data:`ROWS` on top
where the schema alone does not say what the kernel accepts (a bias of the hidden size, a scale that is a scalar:
the op's doc in ContribOperators.md). An op whose recipe still needs unknown semantics (a subgraph, an int index
input, packed weights) raises :class:`~passcheck.generate.recipe.NoRecipe` and is left out.

The forms are the generator's own spelling kinds, whose spec freedom does not depend on the domain:
``shape`` (graph input dims static / ``dim_param`` / anonymous, IR.md §Static tensor shapes), ``optional-input``
(a trailing optional input omitted vs written ``""``, IR.md §Nodes) and ``attr-default`` (an attribute omitted vs
written with the default its schema states). Output annotations carry the element type only (onnx's inference does
not know the domain). A pair is kept only when onnxruntime runs every form in a real session on the same feeds and
the forms agree (:func:`_gate`, run once per onnxruntime version in passcheck's isolation worker, so a form that
crashes onnxruntime costs that pair; the verdicts are cached under ``<cache>/contrib/``, ``passcheck list`` does not
rebuild them). The generated set's code and cache key are untouched.

Before this family no base held a contrib op, so onnxruntime's symbolic shape inference
(``onnxruntime/tools/symbolic_shape_infer.py``) listed its contrib-op handlers untriggered (round 17f: 53 of 116).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import numpy as np

from passcheck.case_model import Case, Form
from passcheck.cases import register
from passcheck.cases._support import ir_version_for
from passcheck.generate import model as gen_model
from passcheck.generate import recipe
from passcheck.generate.node_spellings import attr_defaults, optional_inputs
from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.spellings import shapes
from passcheck.passes import DEFAULT_PASSES
from passcheck.runtime import kernels, ort_schemas

FAMILY = "contrib"
DOMAIN = "com.microsoft"
#: the default-domain opset the forms import (onnxruntime's contrib schemas are version 1)
OPSET = 17
KINDS = (shapes, optional_inputs, attr_defaults)
#: the spec section that makes each kind's forms one computation
SOURCES = {
    "shape": "IR.md §Static tensor shapes: a dim_param or an unknown dim holds for any size",
    "optional-input": "IR.md §Nodes: an optional input omitted at the end or written as an empty name",
    "attr-default": "IR.md §Attributes: an attribute left out takes the default its schema states",
}
#: Rows on top of the generator's recipe (the domain table's keys, :func:`passcheck.generate.recipe.build_node`),
#: from each op's doc in ContribOperators.md: what a kernel checks that the schema's types do not say.
_SCALES = {
    "A_scale": {"value": 0.1},
    "A_zero_point": {"value": 1, "dtype": "int8"},
    "B_scale": {"value": 0.2},
    "B_zero_point": {"value": 2, "dtype": "int8"},
    "C_scale": {"value": 0.3},
    "C_zero_point": {"value": 3, "dtype": "int8"},
}
ROWS: dict[str, dict] = {
    # bias: 1-D of the last dim of A
    "BiasGelu": {"inputs": {"B": {"shape": [4]}}},
    "FastGelu": {"inputs": {"bias": {"shape": [4]}}},
    # gamma / beta / bias: 1-D of the hidden size (the input's last dim)
    "SkipLayerNormalization": {"inputs": {"gamma": {"shape": [4]}, "beta": {"shape": [4]}}},
    "SkipSimplifiedLayerNormalization": {"inputs": {"gamma": {"shape": [4]}}},
    # input (batch, sequence, hidden 4), weights (hidden, 3 hidden), bias (3 hidden); num_heads divides hidden
    "Attention": {
        "inputs": {"weights": {"shape": [4, 12], "constant": True}, "bias": {"shape": [12], "constant": True}},
        "attrs": {"num_heads": 2},
        "shape": [2, 3, 4],
    },
    "MultiHeadAttention": {
        "inputs": {"key": {"shape": [2, 3, 4]}, "value": {"shape": [2, 3, 4]}},
        "attrs": {"num_heads": 2},
    },
    # the scales and zero points are scalars (a per-tensor quantization)
    "QLinearAdd": {"inputs": {**_SCALES, "B": {"shape": [2, 3, 4]}}},
    "QLinearMul": {"inputs": {**_SCALES, "B": {"shape": [2, 3, 4]}}},
    "QLinearLeakyRelu": {"inputs": {"X_scale": {"value": 0.1}, "Y_scale": {"value": 0.2}}, "attrs": {"alpha": 0.1}},
    "QLinearSigmoid": {"inputs": {"X_scale": {"value": 0.1}, "Y_scale": {"value": 0.2}}},
    "QLinearGlobalAveragePool": {"inputs": {"x_scale": {"value": 0.1}, "y_scale": {"value": 0.2}}},
    # a (sequence, sequence) cost matrix
    "DynamicTimeWarping": {"shape": [3, 4]},
    # the window size along the last axis
    "UnfoldTensor": {"attrs": {"size": 2}},
    # (batch, sequence, hidden 4); position_ids (batch, sequence); the caches (max position, rotary dim / 2)
    "RotaryEmbedding": {
        "inputs": {
            "position_ids": {"value": [[0, 1, 2], [0, 1, 2]], "dtype": "int64"},
            "cos_cache": {"shape": [3, 2], "constant": True},
            "sin_cache": {"shape": [3, 2], "constant": True},
        },
        "attrs": {"num_heads": 1},
        "shape": [2, 3, 4],
    },
    # the inner dims of a square matrix
    "Inverse": {"shape": [2, 3, 3]},
    # rank-2 operands
    "FusedGemm": {"shape": [3, 4], "inputs": {"B": {"shape": [4, 2]}}},
    "FusedMatMul": {"inputs": {"B": {"shape": [2, 4, 3]}}},
    "TransposeMatMul": {"inputs": {"B": {"shape": [2, 4, 3]}}},
}


def contrib_schemas() -> list[ort_schemas.Schema]:
    """The installed onnxruntime's ``com.microsoft`` schemas it has a CPU kernel for, sorted by name."""
    return [s for s in ort_schemas.schemas(DOMAIN) if kernels.versions(DOMAIN, s.name)]


def pairs(schema: ort_schemas.Schema) -> list[tuple[str, Pair]]:
    """``(case id, pair)`` for each spelling kind that applies to ``schema``'s recipe; [] without a recipe.

    Raises nothing: a recipe the schema cannot give (:class:`~passcheck.generate.recipe.NoRecipe`) is no pair."""
    try:
        node = recipe.build_node(schema, OPSET, override=ROWS.get(schema.name, {}))
    except recipe.NoRecipe:
        return []
    if any(i.wrap for i in node.inputs):
        return []
    out = []
    for kind in KINDS:
        for pair in kind(node, Ctx(OPSET, None)):
            detail = f".{pair.detail}" if pair.detail else ""
            out.append((f"{FAMILY}/{schema.name.lower()}-{schema.since_version}.{pair.kind}{detail}", pair))
    return out


def _no_inference(model):
    return model  # onnx does not know the domain: outputs keep their element type only


def form_model(pair: Pair, form: str, ranks: dict[str, int] | None = None):
    """The model of ``form``; ``ranks`` (output name → rank, from the gate's onnxruntime run of ``common``) gives
    each output that many anonymous dims (the checker requires a shape on graph outputs, IR.md §Graphs; onnx's
    inference cannot give one here), as the generator does with a reference run's rank."""
    node, mode, _doc = pair.forms[form]
    m = gen_model.to_model(node, mode, infer=_no_inference)
    for o in m.graph.output:
        if ranks and o.name in ranks and not o.type.tensor_type.HasField("shape"):
            o.type.tensor_type.shape.SetInParent()
            for _ in range(ranks[o.name]):
                o.type.tensor_type.shape.dim.add()
    return m


def _gate(folder: Path, ops: tuple[str, ...] = ()) -> dict:
    """Run every candidate pair's forms (of ``ops``, every op when empty) in onnxruntime (the isolation worker) on
    the common form's feeds; keep a pair whose forms all run and agree (:func:`passcheck.oracles.numeric.compare`).
    Writes and returns the index: kept ids with their outputs' ranks, and the dropped ones with the first reason
    (a form that kills the worker: "onnxruntime killed its process: SIGABRT")."""
    from passcheck.engine import feeds_for
    from passcheck.oracles.numeric import compare
    from passcheck.passes.isolation import IsolatedExecutor

    kept, dropped = {}, {}
    ex = IsolatedExecutor(timeout=60)
    try:
        for schema in contrib_schemas():
            if ops and schema.name not in ops:
                continue
            for cid, pair in pairs(schema):
                forms = {f: form_model(pair, f) for f in pair.forms}
                feeds = feeds_for(forms["common"], cid, [{}])[0]
                runs = {f: ex.run_model(m, dict(feeds)) for f, m in forms.items()}
                why = next((f"{f}: {r.error.splitlines()[0][:300]}" for f, r in runs.items() if r.error), None)
                for f, r in runs.items():
                    if why is None and f != "common":
                        for name, want in runs["common"].outputs.items():
                            if not (c := compare(r.outputs.get(name), want)).ok:
                                why = f"{f}: output {name!r} differs from common: {c.message}"
                                break
                if why:
                    dropped[cid] = why
                else:
                    kept[cid] = {name: int(np.ndim(v)) for name, v in runs["common"].outputs.items()}
    finally:
        ex.close()
    doc = {"kept": kept, "dropped": dropped}
    (folder / "index.json").write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
    return doc


def gate_key() -> str:
    """The verdicts' cache key: this module, the schema reader, the generator's hash (its sources and the
    onnx / onnxruntime versions)."""
    from passcheck.generate import generator_hash

    h = hashlib.sha256(generator_hash().encode())
    for f in (Path(__file__), Path(ort_schemas.__file__)):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


@functools.cache
def verdicts() -> dict:
    """``{"kept": {case id: {output: rank}}, "dropped": {case id: why}}``, built once per cache key (:func:`_gate`)."""
    from passcheck._cache import built_set, cache_root

    return built_set(
        cache_root() / FAMILY / gate_key(),
        _gate,
        announce="passcheck: running the contrib-op bases in onnxruntime once (cached)…",
    )


def _passes(op: str) -> tuple[str, ...]:
    """The default passes; onnxruntime's symbolic shape inference only for an op it has a handler for (without
    one, onnx's inference does not know the domain either and the tool raises "Incomplete symbolic shape
    inference" by design: ``infer_shapes`` refuses a model it cannot type)."""
    from passcheck.coverage.symbolic import PASSES, handler_names

    return tuple(p for p in DEFAULT_PASSES if op in handler_names() or p not in PASSES)


def _register(schema: ort_schemas.Schema, cid: str, pair: Pair, ranks: dict[str, int]) -> None:
    forms = {f: Form(functools.partial(form_model, pair, f, ranks), doc) for f, (_n, _m, doc) in pair.forms.items()}
    static = all(mode == "static" for _n, mode, _d in pair.forms.values())
    register(
        Case(
            id=cid,
            forms=forms,
            opset=OPSET,
            doc=f"{DOMAIN}.{schema.name}-{schema.since_version}: one node of onnxruntime's contrib op, its recipe from "
            f"onnxruntime's own schema (docs/ContribOperators.md in the onnxruntime repository).\n\n"
            f"Uncommon: {pair.doc} ({SOURCES[pair.kind]}); the forms ran and agreed in onnxruntime (the family's "
            f"gate).\nValid: opset {OPSET}, com.microsoft 1 (ir_version {ir_version_for(OPSET)}+).",
            tags=frozenset({FAMILY, f"contrib-{schema.name.lower()}", f"contrib-{pair.kind}"}),
            passes=_passes(schema.name),
            parity=frozenset({"status", "ops"} if static else {"status"}),
        )
    )


if contrib_schemas():
    _kept = verdicts()["kept"]
    for _schema in contrib_schemas():
        for _cid, _pair in pairs(_schema):
            if _cid in _kept:
                _register(_schema, _cid, _pair, _kept[_cid])
