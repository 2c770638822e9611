"""Attribute freedoms read from the schemas' own text (M356, passcheck.mutations.attr_text) and their rewrites
text-axis-negative / text-axis-positive / text-default-explicit / text-default-omitted (M357): the table over the
real onnx and onnxruntime schemas, each mutant through the equivalence gate (onnx checker, strict inference, a
real onnxruntime session), the inverses, and the rows the axis-sign rewrites already own left to them."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import onnxruntime as ort
import pytest

from passcheck.cases.builders import parse
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.attr_text import freedoms, table
from passcheck.mutations.gaps import text_rows
from passcheck.runtime import ort_schemas

from ._models import feeds, named

SHAPE = """g (float[2, 3, 4] x) => (int64[1] y, int64[?] z) {
    y = Shape<start = 1, end = 2>(x)
    z = Shape<start = -1>(x)
}"""
GATHER_1 = """g (float[5, 6] d) => (float[5, 3] z) {
    i = Constant<value = int64[3] {0, 2, 4}>()
    z = Gather<axis = 1>(d, i)
}"""


def _description(domain: str, op: str, version: int, attr: str) -> str:
    if domain in ("", "ai.onnx.ml", "ai.onnx.preview.training"):
        return onnx.defs.get_schema(op, version, domain).attributes[attr].description
    return (
        next(s for s in ort_schemas.history() if (s.domain, s.name, s.since_version) == (domain, op, version))
        .attributes[attr]
        .description
    )


def test_the_table_reads_the_text_of_every_domain():
    rows = {(r.domain, r.op, r.attr, r.kind): r for r in table()}
    shape = rows[("", "Shape", "start", "from-back")]
    assert shape.rank_slot == 0 and 15 in shape.versions
    assert rows[("", "Gather", "axis", "from-back")].versions[0] == 1  # Gather-1's text already says it
    gbq = rows[("com.microsoft", "GatherBlockQuantized", "gather_axis", "from-back")]
    assert gbq.rank_slot == 0  # "r = rank(data)": input 0
    rope = rows[("com.microsoft", "RotaryEmbedding", "scale", "stated-default")]
    assert rope.value == 1.0 and isinstance(rope.value, float)
    assert rows[("com.microsoft", "Attention", "do_rotary", "stated-default")].value == 0
    # r is no one input's rank: one per scan output (variadic), the output's ([-r-1, r])
    assert ("", "Scan", "scan_output_axes", "from-back") not in rows
    assert ("", "OneHot", "axis", "from-back") not in rows and ("", "Unsqueeze", "axes", "from-back") not in rows
    # a formula is no literal default ("Default value is 1/sqrt(head_size)")
    assert ("com.microsoft", "Attention", "scale", "stated-default") not in rows


def test_every_row_quotes_its_schema_and_a_stated_default_has_none_in_the_schema():
    for r in table():
        for v in r.versions:
            assert r.quote in " ".join(_description(r.domain, r.op, v, r.attr).split()), (r, v)
        if r.kind == "stated-default" and not r.domain:
            s = onnx.defs.get_schema(r.op, r.versions[0], r.domain).attributes[r.attr]
            assert not s.default_value.type and not s.required


def test_a_row_holds_only_at_the_versions_whose_text_states_it():
    assert "start" in freedoms("", "Shape", 15, "from-back")
    assert freedoms("", "Shape", 13, "from-back") == {}  # Shape-13 has no start
    assert "axis" in freedoms("ai.onnx", "Gather", 9, "from-back")


@pytest.mark.parametrize(("text", "opset", "sites"), [(SHAPE, 15, ["n0"]), (GATHER_1, 9, ["n1"])])
def test_text_axis_negative_computes_the_same(text, opset, sites):
    m = named(text, opset=opset)
    mutant, applied = REWRITES["text-axis-negative"].apply(m)
    assert list(applied.nodes) == sites
    verify_equivalent(m, mutant, feeds(m), "text-axis-negative")  # checker (full), strict inference, onnxruntime
    back, _ = REWRITES["text-axis-positive"].apply(mutant)
    assert [list(a.ints) or a.i for n in back.graph.node for a in n.attribute if a.name != "value"] == [
        list(a.ints) or a.i for n in m.graph.node for a in n.attribute if a.name != "value"
    ] or text is SHAPE  # SHAPE's z starts at -1 already, so positive-then-back writes it 2


def test_the_attributes_negative_axes_owns_are_left_to_it():
    m = named("g (float[2, 3] a, float[2, 3] b) => (float[4, 3] c) { c = Concat<axis = 0>(a, b) }", opset=13)
    assert REWRITES["text-axis-negative"].apply(m) is None
    assert REWRITES["negative-axes"].apply(m) is not None


ROPE = """g (float[2, 3, 4] x, int64[2, 3] p, float[3, 2] c, float[3, 2] s) => (float[2, 3, 4] y) {
    y = com.microsoft.RotaryEmbedding<num_heads = 1>(x, p, c, s)
}"""


def _rope_run(m: onnx.ModelProto) -> np.ndarray:
    rng = np.random.default_rng(0)
    ang = rng.uniform(0, 3, (3, 2)).astype(np.float32)
    feed = {
        "x": rng.standard_normal((2, 3, 4)).astype(np.float32),
        "p": np.array([[0, 1, 2], [2, 1, 0]], np.int64),
        "c": np.cos(ang),
        "s": np.sin(ang),
    }
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feed)[0]


def test_text_default_explicit_writes_the_stated_values_and_onnxruntime_agrees():
    m = parse(ROPE, opset=17, extra_opsets={"com.microsoft": 1})
    mutant, applied = REWRITES["text-default-explicit"].apply(m)
    written = {a.name: onnx.helper.get_attribute_value(a) for a in mutant.graph.node[0].attribute}
    assert written == {
        "num_heads": 1,
        "interleaved": 0,
        "is_packed_batching": 0,
        "rotary_embedding_dim": 0,
        "scale": 1.0,
    }
    assert mutant.graph.node[0].attribute[-1].type == onnx.AttributeProto.FLOAT  # scale is a FLOAT attribute
    np.testing.assert_array_equal(_rope_run(m), _rope_run(mutant))
    back, _ = REWRITES["text-default-omitted"].apply(mutant)
    assert [a.name for a in back.graph.node[0].attribute] == ["num_heads"]


def test_a_value_other_than_the_stated_default_stays():
    m = parse(
        ROPE.replace("num_heads = 1", "num_heads = 1, interleaved = 1"), opset=17, extra_opsets={"com.microsoft": 1}
    )
    assert REWRITES["text-default-omitted"].apply(m) is None


def test_the_gaps_audit_lists_every_text_freedom_with_its_rewrite():
    rows = {(g.family, g.where): g for g in text_rows()}
    assert len(rows) == len(table())
    assert rows[("text-from-back", "ai.onnx:Shape.start")].detail.startswith("text-axis-negative")
    assert rows[("text-from-back", "ai.onnx:Concat.axis")].detail == "negative-axes, positive-axes"
    assert rows[("text-from-back", "ai.onnx:Gather.axis")].detail.startswith("text-axis-negative")  # Gather-1..10
    stated = rows[("text-stated-default", "com.microsoft:RotaryEmbedding.scale")]
    assert stated.detail == "text-default-explicit, text-default-omitted"
    assert all(g.status == "rewrite" for g in rows.values())
