"""A graph input read through a long Identity chain (:mod:`passcheck.mutations.deep_chain`): where it applies, the
form as valid and computing the same as the model (full checker, onnxruntime), its depth past CPython's default
recursion limit, and a pass that walks producers one call per node failing on it where it did not on the model."""

from __future__ import annotations

import sys

import numpy as np
import onnx
import onnx.parser
import onnx.utils
import onnxruntime as ort
import pytest

from passcheck.mutations.deep_chain import DEPTH
from passcheck.mutations.registry import REWRITES

RID = "deep-identity-chain"


def model() -> onnx.ModelProto:
    """``y = Relu(x) * w``, ``z = x + 1``: two readers of the graph input ``x``, an initializer ``w``."""
    return onnx.parser.parse_model("""
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[2, 3] x) => (float[2, 3] y, float[2, 3] z)
        <float[3] w = {1.0, -2.0, 0.5}, float one = {1.0}>
        {
            r = Relu(x)
            y = Mul(r, w)
            z = Add(x, one)
        }""")


def run(m: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})


def longest_path(g: onnx.GraphProto) -> int:
    """Nodes on the longest producer chain ending at a graph output (iterative, so the test itself has no bound)."""
    producer = {o: i for i, n in enumerate(g.node) for o in n.output if o}
    depth: dict[int, int] = {}
    for i, n in enumerate(g.node):
        depth[i] = 1 + max((depth[producer[v]] for v in n.input if v in producer), default=0)
    return max(depth[producer[o.name]] for o in g.output if o.name in producer)


def recursive_producers(g: onnx.GraphProto, name: str, seen: set[str]) -> None:
    """A producer walk of one Python call per node, as a depth-first search written recursively does."""
    for n in g.node:
        if name in n.output and n.name not in seen:
            seen.add(n.name)
            for v in n.input:
                recursive_producers(g, v, seen)


def test_the_chain_reads_the_input_unchanged_past_the_recursion_bound():
    m = model()
    r = REWRITES[RID]
    assert r.sites(m) == ["x"]
    mutant, _ = r.apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    assert len(mutant.graph.node) == len(m.graph.node) + DEPTH
    assert [n.op_type for n in mutant.graph.node[:DEPTH]] == ["Identity"] * DEPTH
    assert longest_path(mutant.graph) == DEPTH + 2 > sys.getrecursionlimit()
    assert {v for n in mutant.graph.node[DEPTH:] for v in n.input} & {"x"} == set()
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    for a, b in zip(run(m, x), run(mutant, x), strict=True):
        assert np.array_equal(a, b)


def test_a_recursive_producer_walk_fails_on_the_form_not_on_the_model():
    m = model()
    mutant, _ = REWRITES[RID].apply(m)
    for g in (m.graph, mutant.graph):
        for i, n in enumerate(g.node):
            n.name = n.name or f"n{i}"
    recursive_producers(m.graph, "y", set())
    with pytest.raises(RecursionError):
        recursive_producers(mutant.graph, "y", set())


def test_onnx_extractor_keeps_the_whole_chain():
    """onnx's Extractor here walks producers with a stack: the extracted model is the form itself."""
    mutant, _ = REWRITES[RID].apply(model())
    extracted = onnx.utils.Extractor(mutant).extract_model(["x"], ["y", "z"])
    assert len(extracted.graph.node) == len(mutant.graph.node)
    x = np.ones((2, 3), np.float32)
    for a, b in zip(run(mutant, x), run(extracted, x), strict=True):
        assert np.array_equal(a, b)


def test_no_site_for_initializers_or_unread_inputs():
    m = onnx.parser.parse_model("""
        <ir_version: 3, opset_import: ["" : 9]>
        g (float[2] x, float[2] u, float[2] w) => (float[2] y)
        <float[2] w = {1.0, 2.0}>
        {
            y = Mul(x, w)
        }""")
    assert REWRITES[RID].sites(m) == ["x"]
