"""Tensors through sequence and optional values (``through_types``, ``sequence_ops``): every site of every
rewrite checked with the real tools — onnx's checker with full_check, onnxruntime running both models
(CPU, no optimization) with bit-equal outputs, and onnx shape inference (strict) still typing every graph
output — plus the limits the schemas and onnxruntime's CPU kernels set, and an oracle catching a planted
wrong SequenceAt position."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py
import numpy as np
import onnx
import pytest

from passcheck.engine import seed_for
from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, sequence_ops, verify_equivalent
from passcheck.runtime import default_bindings, run_ort, synthesize

#: x read by three nodes and a graph output; a Concat with a negative axis; Splits in equal parts and by sizes.
BODY = """
    r = Relu(x)
    c = Concat<axis=-1>(r, x)
    p, q = Split<axis=1>(r)
    y = Mul(x, r)
    z = Neg(c)
"""
SIGNATURE = "(float[2, 3] p, float[2, 3] q, float[2, 6] y, float[2, 12] z, float[2, 2] u, float[2, 4] v)"


def model(opset: int, elem: str = "float") -> onnx.ModelProto:
    sizes = (
        "u, v = Split<axis=1, split=[2, 4]>(x)"
        if opset < 13
        else "sp = Constant<value = int64[2] {2, 4}>()\n    u, v = Split<axis=1>(x, sp)"
    )
    text = f"g ({elem}[2, 6] x) => {SIGNATURE} {{{BODY}    {sizes}\n}}"
    if opset >= 18:
        text = text.replace("Split<axis=1>(r)", "Split<axis=1, num_outputs=2>(r)")
    if elem != "float":
        text = text.replace("float[", f"{elem}[").replace("Relu(x)", "Abs(x)").replace("Mul(x, r)", "Add(x, r)")
    return M.named(text, opset=opset)


def feeds(m):
    return [synthesize(m, b, seed_for("t", i)) for i, b in enumerate(default_bindings(m))]


def assert_same_computation(original, mutant):
    """full_check accepts the mutant; onnxruntime runs it (no fallback) bit-equal; shape inference types its outputs."""
    onnx.checker.check_model(mutant, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(mutant, strict_mode=True)
    for o in inferred.graph.output:
        assert o.type.tensor_type.elem_type and o.type.tensor_type.HasField("shape"), o.name
    for f in feeds(original):
        a, b = run_ort(original, f), run_ort(mutant, f)
        assert b.error is None, b.error
        for name, value in a.outputs.items():
            assert np.array_equal(b.outputs[name], value) and b.outputs[name].dtype == value.dtype, name


FORWARD = {
    "through-sequence": 11,
    "through-optional": 15,
    "through-optional-identity": 16,
    "concat-from-sequence": 11,
    "split-to-sequence": 11,
}


@pytest.mark.parametrize("opset", [11, 13, 16, 18])
@pytest.mark.parametrize("rewrite", sorted(FORWARD))
def test_every_site_and_all_at_once_compute_the_same(rewrite, opset):
    original = model(opset)
    r = REWRITES[rewrite]
    sites = r.sites(original)
    assert bool(sites) == (opset >= FORWARD[rewrite])
    for label in [None, *sites] if sites else []:
        mutant, applied = r.apply(original, None if label is None else [label])
        assert label is None or list(applied.nodes) == [label]
        assert_same_computation(original, mutant)


def test_sites_are_values_and_edges_and_the_split_nodes():
    m = model(18)
    assert REWRITES["through-sequence"].sites(m) == [
        *("x", "x->n0", "x->n1", "x->n3", "x->n6", "r", "r->n1", "r->n2", "r->n3"),
        *("c", "p", "q", "y", "z", "u", "v"),
    ]
    assert REWRITES["split-to-sequence"].sites(m) == ["n2", "n6"]
    assert REWRITES["concat-from-sequence"].sites(m) == ["n1"]


def test_an_edge_site_changes_only_that_reader():
    mutant, _ = REWRITES["through-optional"].apply(model(15), ["x->n3"])
    nodes = {n.name: n for n in mutant.graph.node}
    assert nodes["n3"].input[0] != "x" and list(nodes["n0"].input) == ["x"]
    assert [n.op_type for n in mutant.graph.node[:2]] == ["Optional", "OptionalGetElement"]


@pytest.mark.parametrize("rewrite", ["through-sequence", "through-optional", "through-optional-identity"])
def test_fold_undoes_each_wrap(rewrite):
    original = model(18)
    mutant, applied = REWRITES[rewrite].apply(original)
    back, folded = REWRITES["through-fold"].apply(mutant)
    assert len(folded.nodes) == len(applied.nodes)
    assert [n.op_type for n in back.graph.node] == [n.op_type for n in original.graph.node]
    assert_same_computation(original, back)


def test_sequence_concat_undoes_concat_from_sequence():
    original = model(13)
    mutant, _ = REWRITES["concat-from-sequence"].apply(original)
    back, _ = REWRITES["sequence-concat"].apply(mutant)
    assert [n.op_type for n in back.graph.node] == [n.op_type for n in original.graph.node]
    assert_same_computation(original, back)


def test_split_18_uneven_parts_and_parts_that_do_not_fit():
    uneven = M.named(
        """g (float[2, 7] x) => (float[2, 3] a, float[2, 3] b, float[2, 1] c) {
    a, b, c = Split<axis=-1, num_outputs=3>(x)
}""",
        opset=18,
    )
    mutant, _ = REWRITES["split-to-sequence"].apply(uneven)
    assert_same_computation(uneven, mutant)
    # 5 in chunks of ceil(5 / 4) = 2 makes 3 chunks, not 4: no SplitToSequence spelling
    unfit = M.named(
        """g (float[5] x) => (float[2] a, float[2] b, float[1] c, float[0] d) {
    a, b, c, d = Split<num_outputs=4>(x)
}""",
        opset=18,
    )
    assert REWRITES["split-to-sequence"].sites(unfit) == []


def test_only_types_with_cpu_kernels():
    """onnxruntime's SplitToSequence CPU kernel takes no int8 (its type constraint T); the other ops take it."""
    m = model(18, "int8")
    assert REWRITES["split-to-sequence"].sites(m) == []
    assert REWRITES["through-sequence"].sites(m) and REWRITES["concat-from-sequence"].sites(m)


def test_a_wrong_sequence_position_is_caught(monkeypatch):
    """Planted: split-to-sequence takes each output from the next position; the equivalence gate rejects it."""
    made = sequence_ops.int64_constant

    def shifted(taken, base, values, dims=None):
        if base.endswith("_position"):
            values = [(values[0] + 1) % 2]
        return made(taken, base, values, dims)

    monkeypatch.setattr(sequence_ops, "int64_constant", shifted)
    original = model(13)
    mutant, _ = REWRITES["split-to-sequence"].apply(original, ["n2"])
    with pytest.raises(PasscheckInternalError, match="differs"):
        verify_equivalent(original, mutant, feeds(original), "split-to-sequence@n2")
