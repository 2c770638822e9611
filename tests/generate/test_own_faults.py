"""Pairs the generator once built against its own schema and the gate dropped as ``n/a``: BitCast-26's ``to`` of
another bit width than the input's (passcheck.generate.widths), Loop-25 / Scan-25 bodies typed float while ``V`` is
bound to another type (passcheck.generate.bodies); and the gate's word for such a form (passcheck.generate.self_check).
Real onnx checker and strict shape inference, real onnxruntime sessions."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.checker
import onnx.defs
import onnx.shape_inference
import pytest

from passcheck.engine import feeds_for
from passcheck.generate import bodies, elem_variants, recipe, self_check, widths
from passcheck.generate.gate import gate
from passcheck.generate.model import to_model
from passcheck.generate.pair import Ctx
from passcheck.runtime.session import run_ort


def _pairs(op: str) -> dict:
    schema = onnx.defs.get_schema(op)
    node = recipe.build_node(schema, schema.since_version)
    return {p.detail: p for p in elem_variants.pairs(node, Ctx(schema.since_version, None))}


def _forms(pair) -> dict[str, onnx.ModelProto]:
    return {k: to_model(v, mode) for k, (v, mode, _doc) in pair.forms.items()}


def _valid(model: onnx.ModelProto) -> None:
    onnx.checker.check_model(model, full_check=True)
    onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)


def test_bitcast_variants_keep_the_input_width_and_reinterpret_its_bytes():
    """Every element-type variant of BitCast-26 (T1 bound through the input, T2 through ``to``) has ``to`` of the
    input's width (Operators.md BitCast); each is valid, and where onnxruntime has a kernel the output holds the
    input's bytes read as ``to``."""
    pairs = _pairs("BitCast")
    assert {"elem.T1.int16", "elem.T2.double", "elem.T2.float16"} <= set(pairs), sorted(pairs)
    ran = 0
    for detail, pair in pairs.items():
        node = pair.forms["common"][0]
        assert widths.untied(node) is None, detail
        assert widths.bits(node.attrs["to"]) == widths.bits(node.dtypes["T1"]), detail
        forms = _forms(pair)
        for m in forms.values():
            _valid(m)
        feeds = feeds_for(forms["common"], f"t/{detail}", [{}, {}])
        v = gate(forms, feeds, run_ort)
        if not v.ok:
            assert v.category == "tool" and "no kernel" in v.reason, (detail, v)
            continue
        ran += 1
        if onnx.TensorProto.BFLOAT16 in node.dtypes.values():
            continue  # fed and read through Casts (bfloat16 does not cross onnxruntime's Python API)
        r = run_ort(forms["common"], dict(feeds[0]))
        x = next(iter(feeds[0].values()))
        y = next(iter(r.outputs.values()))
        assert y.dtype.itemsize == x.dtype.itemsize and y.tobytes() == np.ascontiguousarray(x).tobytes(), detail
    assert ran >= len(pairs) - 1  # bool: onnxruntime 1.32's BitCast kernel has no bool (a tool's drop)


def test_a_width_tie_rebinds_the_other_side():
    schema = onnx.defs.get_schema("BitCast")
    node = recipe.build_node(schema, schema.since_version, onnx.TensorProto.DOUBLE)  # the recipe's to = int32
    assert widths.untied(node) is not None
    tied = widths.tie(node, "T1")  # the input was chosen: ``to`` follows
    assert tied is not None and widths.bits(tied.attrs["to"]) == 64 and tied.dtypes["T1"] == onnx.TensorProto.DOUBLE
    plain = recipe.build_node(schema, schema.since_version)
    plain.attrs["to"] = onnx.TensorProto.FLOAT16
    tied = widths.tie(plain, "T2")  # ``to`` was chosen: the input follows
    assert tied is not None and widths.bits(tied.dtypes["T1"]) == 16 and tied.inputs[0].elem == tied.dtypes["T1"]
    relu = recipe.build_node(onnx.defs.get_schema("Relu"), 14)
    assert widths.tied(relu) is None and widths.tie(relu, "T") is relu


@pytest.mark.parametrize("op", ["Loop", "Scan"])
def test_loop_and_scan_bodies_follow_the_bound_v(op):
    """Each element-type variant of Loop-25 / Scan-25 types its body's values as V (Operators.md Loop, Scan), is
    valid under the full checker and strict inference, and the gate keeps it (or drops it for onnxruntime's
    missing kernel of the body's op: bfloat16 Add, a tool's drop)."""
    pairs = _pairs(op)
    assert {"elem.V.int16", "elem.V.string", "elem.V.uint64"} <= set(pairs), sorted(pairs)
    kept = 0
    for detail, pair in pairs.items():
        node = pair.forms["common"][0]
        assert bodies.mistyped(node.schema, node.attrs, node.dtypes) is None, detail
        forms = _forms(pair)
        for m in forms.values():
            _valid(m)
        v = gate(forms, feeds_for(forms["common"], f"t/{detail}", [{}, {}]), run_ort)
        assert v.ok or (v.category == "tool" and "no kernel" in v.reason), (detail, v)
        kept += v.ok
    assert kept >= len(pairs) - 1
    body = pairs["elem.V.string"].forms["common"][0].attrs["body"]
    assert [n.op_type for n in body.node if n.op_type != "Identity"] == ["StringConcat"]


def test_a_form_breaking_its_own_schema_is_passcheck_s_drop():
    """The old recipe (V rebound, the body left typed float) is refused by the checker: the gate alone says
    ``n/a``; the self-check names the broken rule and relabels the drop ``passcheck``. A form the checker refuses
    for another reason (no rule broken) stays ``n/a``."""
    schema = onnx.defs.get_schema("Loop")
    node = recipe.build_node(schema, schema.since_version)
    stale = node.copy()
    for i in stale.inputs:
        if i.value is None:
            i.elem = onnx.TensorProto.INT16
    stale.dtypes["V"] = onnx.TensorProto.INT16
    assert self_check.fault(stale)[0] == "a body typed against the bound V"
    forms = {"common": to_model(stale, "static"), "symbolic": to_model(stale, "symbolic")}
    v = gate(forms, feeds_for(forms["common"], "t/loop-stale", [{}, {}]), run_ort)
    assert not v.ok and v.category == "n/a", v
    self_check.relabel(v, stale)
    assert v.category == "passcheck" and v.reason.endswith("a body typed against the bound V"), v
    assert "V is TensorProto.INT16" in v.detail
    assert self_check.fault(node) is None
    bitcast = onnx.defs.get_schema("BitCast")
    wide = recipe.build_node(bitcast, bitcast.since_version, onnx.TensorProto.DOUBLE)
    assert self_check.fault(wide)[0] == "a type attribute of another bit width than the input"
    rank0 = recipe.build_node(onnx.defs.get_schema("MatMul"), 13)
    for i in rank0.inputs:
        i.shape = ()
    forms = {"common": to_model(rank0, "static"), "symbolic": to_model(rank0, "symbolic")}
    v = gate(forms, feeds_for(forms["common"], "t/matmul0", [{}, {}]), run_ort)
    self_check.relabel(v, rank0)
    assert not v.ok and v.category == "n/a", v


@pytest.mark.parametrize("op", ["BitCast", "Loop", "Scan"])
def test_no_candidate_of_the_generator_breaks_its_own_schema(op):
    """Every pair the generator builds for the op (dtype pairs, element-type variants, spellings, every schema) has
    a common form no rule of :mod:`passcheck.generate.self_check` finds broken, and the checker accepts it."""
    from passcheck.generate import build

    schemas = build.schema_history()[("", op)]
    seen = 0
    for k in range(len(schemas)):
        for cid, pair, _tags, _main in build.candidates(schemas, k, onnx.defs.onnx_opset_version(), build.Stats(), op):
            node = pair.forms["common"][0]
            assert self_check.fault(node) is None, cid
            if ".dtype." in cid or ".variant.elem." in cid:
                onnx.checker.check_model(to_model(node, "static"), full_check=True)
                seen += 1
    assert seen >= 3
