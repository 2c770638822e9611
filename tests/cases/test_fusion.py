"""Issue 15 item 2: fusion-pattern cases name a real onnxruntime transformer, and the fusion each
one states does happen on its common form at the stated level (real onnxruntime sessions), and
not already below it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import pytest

import passcheck.attribution
from passcheck.cases import registry
from passcheck.cases.fusion import TARGET, transformer_tag
from passcheck.passes import get_pass

FUSION = [c for c in registry() if TARGET.search(c.doc.strip())]
STATED = [c for c in FUSION if c.expect]
TABLE = json.loads(
    (Path(passcheck.attribution.__file__).with_name("ort_transformers.json")).read_text(encoding="utf-8")
)
LOWER = {"basic": "ort:disabled", "extended": "ort:basic", "all": "ort:extended"}


def _transformer(case) -> str:
    return TARGET.search(case.doc.strip()).group(1)


def _ops(model) -> Counter:
    return Counter(n.op_type for n in model.graph.node)


def _lowest(case):
    """The lowest ort level the case's expectations name, and the op types they rule out."""
    levels = [e.pass_id.split(":", 1)[1] for e in case.expect]
    low = min(levels, key=list(LOWER).index)
    return low, next(e.no_op_types for e in case.expect if e.pass_id == f"ort:{low}")


def test_the_library_covers_every_family_of_the_issue():
    named = {_transformer(c) for c in FUSION}
    assert {
        "LayerNormFusion",
        "SimplifiedLayerNormFusion",
        "SkipLayerNormFusion",
        "GeluFusion",
        "FastGeluFusion",
        "QuickGeluFusion",
        "BiasGeluFusion",
        "MatMulAddFusion",
        "MatMulScaleFusion",
        "AttentionFusion",
        "ConvActivationFusion",
        "MatmulTransposeFusion",
        "Pad_Fusion",
    } <= named
    assert len(STATED) >= 25


@pytest.mark.parametrize("case", FUSION, ids=[c.id for c in FUSION])
def test_transformer_is_one_onnxruntime_runs_at_the_stated_level(case):
    name = _transformer(case)
    known = {n for part in ("rules", "levels") for names in TABLE[part].values() for n in names}
    assert name in known, f"{case.id}: {name} is not in ort_transformers.json"
    assert transformer_tag(name) in case.tags
    if case.expect:
        low, _ = _lowest(case)
        assert any(name in [*TABLE["rules"].get(lv, ()), *TABLE["levels"][lv]] for lv in TABLE["pass_levels"][low]), (
            f"{case.id}: {name} does not run at ort:{low}"
        )


@pytest.mark.parametrize("case", STATED, ids=[c.id for c in STATED])
def test_common_form_fuses_at_its_level_and_not_below(case, tmp_path):
    level, gone = _lowest(case)
    common = case.build("common")
    assert set(gone) & set(_ops(common)), f"{case.id}: the unoptimized common form has none of {gone}"
    below = _ops(get_pass(LOWER[level]).apply(common, tmp_path))
    assert set(gone) & set(below), f"{case.id}: already fused at {LOWER[level]}: {dict(below)}"
    after = _ops(get_pass(f"ort:{level}").apply(common, tmp_path))
    assert not set(gone) & set(after), f"{case.id}: not fused at ort:{level}: {dict(after)}"


def test_each_form_gets_only_the_constants_it_names_in_the_case_dtype():
    case = registry().get("fusion-norm/rmsnorm-f16")
    for form in ("common", "cast-float"):
        model = case.build(form)
        used = {i for n in model.graph.node for i in n.input}
        inits = {t.name: t for t in model.graph.initializer}
        assert set(inits) <= used, f"{form}: unused initializers {set(inits) - used}"
    common, upcast = case.build("common"), case.build("cast-float")
    assert {t.name: t.data_type for t in common.graph.initializer}["eps"] == onnx.TensorProto.FLOAT16
    assert {t.name: t.data_type for t in upcast.graph.initializer}["eps_f32"] == onnx.TensorProto.FLOAT
    assert np.isclose(
        onnx.numpy_helper.to_array(next(t for t in upcast.graph.initializer if t.name == "eps_f32")), 1e-5
    )
