"""prose-default-explicit / prose-default-omitted: Conv-family and pool attributes whose default only the
operator doc states. Each finds its sites, its mutant passes the equivalence gate (onnx checker
full_check, real onnxruntime parity), onnx shape inference still types every output with the original's
shape, its inverse undoes it; and the table of such attributes is complete for the installed onnx."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.prose_defaults import NOT_REWRITTEN, STATED

from ._models import feeds, named

#: A 2x3 kernel, so a kernel_shape written transposed ([3, 2]) is wrong.
W = tensor("w", np.linspace(-1, 1, 4 * 3 * 2 * 3, dtype=np.float32).reshape(4, 3, 2, 3))
WT = tensor("wt", np.linspace(-1, 1, 4 * 2 * 3 * 2, dtype=np.float32).reshape(4, 2, 3, 2))
WI = tensor("wi", (np.arange(2 * 3 * 2 * 2) % 7).astype(np.uint8).reshape(2, 3, 2, 2))


def OMITTED():
    """Every stated default left out; n5's auto_pad forbids pads, n6's strides are not the default."""
    return named(
        """g (float[N, 3, 6, 7] x, uint8[N, 3, 5, 5] q) => (float[N, 2, 7, 6] a, float[N, 4, 4, 4] b,
        float[N, 4, 3, 3] c, float[N, 4, 2, 2] d, float[N, 4, 3, 3] e, float[N, 4, 5, 5] f, float[N, 4, 2, 2] h,
        int32[N, 2, 4, 4] i) {
    y = Conv(x, w)
    a = ConvTranspose(y, wt)
    b = MaxPool<kernel_shape = [2, 2]>(y)
    c = AveragePool<kernel_shape = [2, 2]>(b)
    d = LpPool<kernel_shape = [2, 2]>(c)
    f = MaxPool<kernel_shape = [2, 2], auto_pad = "SAME_UPPER">(y)
    h = AveragePool<kernel_shape = [2, 2], strides = [2, 2]>(b)
    e = Relu(c)
    i = ConvInteger(q, wi)
}""",
        opset=19,
        initializers=[W, WT, WI],
    )


def EXPLICIT():
    """The same computation with every stated default written (n3's pads are not the default)."""
    return named(
        """g (float[N, 3, 6, 7] x) => (float[N, 2, 7, 6] a, float[N, 4, 4, 4] b, float[N, 4, 5, 5] c) {
    y = Conv<kernel_shape = [2, 3], strides = [1, 1], dilations = [1, 1], pads = [0, 0, 0, 0]>(x, w)
    a = ConvTranspose<kernel_shape = [3, 2], strides = [1, 1], dilations = [1, 1], pads = [0, 0, 0, 0],
                      output_padding = [0, 0]>(y, wt)
    b = MaxPool<kernel_shape = [2, 2], strides = [1, 1], dilations = [1, 1], pads = [0, 0, 0, 0]>(y)
    c = AveragePool<kernel_shape = [2, 2], pads = [1, 1, 1, 1]>(b)
}""",
        opset=19,
        initializers=[W, WT],
    )


CASES = [
    ("prose-default-explicit", OMITTED, ["n0", "n1", "n2", "n3", "n4", "n5", "n6", "n8"]),
    ("prose-default-omitted", EXPLICIT, ["n0", "n1", "n2"]),
]


def _output_shapes(model: onnx.ModelProto) -> dict[str, list]:
    g = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True).graph
    return {
        v.name: [d.dim_value if d.HasField("dim_value") else d.dim_param for d in v.type.tensor_type.shape.dim]
        for v in list(g.value_info) + list(g.output)
    }


def _check(original: onnx.ModelProto, mutant: onnx.ModelProto, rid: str) -> None:
    onnx.checker.check_model(mutant, full_check=True)
    verify_equivalent(original, mutant, feeds(original), rid)
    before, after = _output_shapes(original), _output_shapes(mutant)
    for o in original.graph.output:
        assert after.get(o.name) == before[o.name], f"{rid}: shape inference lost {o.name}"


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[r for r, _b, _s in CASES])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    original = build()
    mutant, where = REWRITES[rid].apply(original)
    assert list(where.nodes) == sites
    _check(original, mutant, rid)
    for site in sites:
        _check(original, REWRITES[rid].apply(original, [site])[0], f"{rid}@{site}")
    back = REWRITES[REWRITES[rid].inverse].apply(mutant)
    assert back is not None and set(sites) <= set(back[1].nodes)  # the inverse may write more than was dropped
    _check(original, back[0], REWRITES[rid].inverse)


def _attrs(model: onnx.ModelProto, node: str) -> dict:
    n = next(n for n in model.graph.node if n.name == node)
    return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}


def test_explicit_writes_the_stated_values():
    mutant, _ = REWRITES["prose-default-explicit"].apply(OMITTED())
    assert _attrs(mutant, "n0") == {"kernel_shape": [2, 3], "strides": [1, 1], "dilations": [1, 1], "pads": [0] * 4}
    assert _attrs(mutant, "n1")["output_padding"] == [0, 0]
    assert _attrs(mutant, "n1")["kernel_shape"] == [3, 2]
    assert "pads" not in _attrs(mutant, "n5")  # auto_pad forbids pads
    assert _attrs(mutant, "n6")["strides"] == [2, 2]
    assert _attrs(mutant, "n3")["dilations"] == [1, 1]  # AveragePool-19 has dilations


def test_explicit_respects_the_opset_the_default_is_stated_at():
    """AveragePool has no dilations before 19; Conv-1's strides description states no default."""
    m = OMITTED()
    m.opset_import[0].version = 13
    mutant, _ = REWRITES["prose-default-explicit"].apply(m)
    assert "dilations" not in _attrs(mutant, "n3")
    assert "strides" in _attrs(mutant, "n0")  # Conv-11 states it
    m.opset_import[0].version = 10
    mutant, _ = REWRITES["prose-default-explicit"].apply(m)
    assert "strides" not in _attrs(mutant, "n0") and "kernel_shape" in _attrs(mutant, "n0")


def _classified() -> set[tuple[str, str]]:
    return set(STATED) | set(NOT_REWRITTEN)


def test_every_optional_attribute_without_a_schema_default_is_classified():
    """Fails when the installed onnx gains an optional attribute with no schema default that neither
    table names: read its description and add a row."""
    found = set()
    for s in onnx.defs.get_all_schemas_with_history():
        for name, a in s.attributes.items():
            if s.domain == "" and not a.required and a.default_value.type == onnx.AttributeProto.UNDEFINED:
                found.add((s.name, name))
    wild = {name for op, name in NOT_REWRITTEN if op == "*"}
    missing = {k for k in found if k not in _classified() and k[1] not in wild}
    assert not missing, f"unclassified attributes: {sorted(missing)}"
    stale = {k for k in _classified() if k[0] != "*" and k not in found}
    assert not stale, f"rows naming no such attribute: {sorted(stale)}"
    assert not set(STATED) & set(NOT_REWRITTEN)


@pytest.mark.parametrize("key", sorted(STATED), ids="-".join)
def test_each_stated_row_quotes_its_schema(key):
    op, name = key
    descriptions = [
        " ".join(s.attributes[name].description.split())
        for s in onnx.defs.get_all_schemas_with_history()
        if s.name == op and s.domain == "" and name in s.attributes
    ]
    assert any(STATED[key].quote in d for d in descriptions), f"{op}.{name}: quote not in its description"
