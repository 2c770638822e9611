"""Small hand-built models for the rewrite tests: textual syntax, nodes named n0, n1, …"""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import parse, tensor


def named(text: str, *, opset: int, initializers=()) -> onnx.ModelProto:
    m = parse(text, opset=opset, initializers=initializers)
    for i, n in enumerate(m.graph.node):
        n.name = f"n{i}"
    return m


W = tensor("w", np.linspace(-1, 1, 2 * 3 * 3 * 3, dtype=np.float32).reshape(2, 3, 3, 3))

OPTIONAL = lambda: named(
    """g (float[N, 3, 5, 5] x) => (float[N, 2, 3, 3] y, float[N, 2, 3, 3] z) {
    a = Conv(x, w)
    b = Relu(a)
    y = Clip(b)
    z = Clip(a, , )
}""",
    opset=13,
    initializers=[W],
)

SHAPE_SLICE = lambda: named(
    """g (float[N, 3, 4] x) => (int64[2] y, int64 z, int64[3] s2) {
    s = Shape(x)
    st = Constant<value = int64[1] {1}>()
    en = Constant<value = int64[1] {3}>()
    y = Slice(s, st, en)
    s1 = Shape(x)
    i = Constant<value = int64 {-1}>()
    z = Gather(s1, i)
    s2 = Shape(x)
}""",
    opset=18,
)

SHAPE_ATTRS = lambda: named(
    """g (float[N, 3, 4] x) => (int64[2] y, int64[1] z) {
    y = Shape<start = 1>(x)
    z = Shape<start = -2, end = -1>(x)
}""",
    opset=18,
)

CONSTANTS = lambda: named(
    """g (float[2] x) => (float[2] y, int64[2] c0, int64[2, 2] c2) {
    c0 = Constant<value = int64[2] {1, 2}>()
    c1 = Constant<value = float {1.5}>()
    c2 = Constant<value = int64[2, 2] {1, 2, 3, 4}>()
    y = Add(x, c1)
}""",
    opset=13,
)

INITIALIZERS = lambda: named(
    """g (float[2, 3] x, float[3] bias) => (float[2, 3] y) {
    a = Add(x, bias)
    y = Mul(a, k)
}""",
    opset=13,
    initializers=[tensor("bias", np.ones(3, np.float32)), tensor("k", np.arange(3, dtype=np.float32))],
)

AXES = lambda: named(
    """g (float[2, 3, 4] x, float[2, 3, 4] x2) => (float[2, 6, 4] a, float[2, 3, 4] b, float[24, 1] c) {
    a = Concat<axis = 1>(x, x2)
    b = Softmax<axis = -1>(x)
    c = Flatten<axis = 3>(x)
}""",
    opset=13,
)

DEFAULTS = lambda: named(
    """g (float[2, 3] x) => (float[2, 3] y) {
    a = Softmax(x)
    y = Relu(a)
}""",
    opset=13,
)

BRANCHES = lambda: named(
    """g (float[2, 3] x) => (float[2, 3] y) {
    a = Relu(x)
    b = Neg(x)
    y = Add(a, b)
}""",
    opset=13,
)

CHAIN = lambda: named(
    """g (float[2, 3] x) => (float[2, 3] y) {
    a = Relu(x)
    y = Neg(a)
}""",
    opset=13,
)

EDGES = lambda: named(
    """g (float[2, 3] x) => (float[2, 3] y, float[2, 3] a) {
    a = Relu(x)
    y = Neg(a)
}""",
    opset=13,
)

COMMUTE = lambda: named(
    """g (float[2, 3] x, float[3] b, bool[2, 3] p) => (float[2, 3] y, bool[2, 3] q) {
    a = Add(x, b)
    s = Sum(a, x, b)
    y = Max(s, s)
    p2 = Not(p)
    q = And(p, p2)
}""",
    opset=13,
)

BROADCAST = lambda: named(
    """g (float[2, 3, 4] x, float[4] b, float[3, 1] c) => (float[2, 3, 4] y) {
    a = Add(x, b)
    y = Mul(a, c)
}""",
    opset=13,
)

UNSQUEEZED = lambda: named(
    """g (float[2, 3, 4] x, float[4] b, float[3, 4] c) => (float[2, 3, 4] y) {
    ax = Constant<value = int64[2] {0, 1}>()
    u = Unsqueeze(b, ax)
    a = Add(x, u)
    sh = Constant<value = int64[3] {2, 3, 4}>()
    e = Expand(c, sh)
    y = Mul(e, a)
}""",
    opset=13,
)

REDUCE = lambda: named(
    """g (float[2, 3, 4] x) => (float[2, 1, 4] m, float[2, 3, 1] s) {
    m = ReduceMean<axes = [1]>(x)
    s = ReduceSum<keepdims = 1>(x, ax)
}""",
    opset=13,
    initializers=[tensor("ax", np.array([-1], np.int64))],
)

REDUCED = lambda: named(
    """g (float[2, 3, 4] x) => (float[2, 1, 4] m, float[2, 3] k) {
    r = ReduceMean<axes = [-2], keepdims = 0>(x)
    m = Unsqueeze<axes = [1]>(r)
    k = ReduceMax<axes = [2], keepdims = 0>(x)
}""",
    opset=11,
)

SAME_RANK = lambda: named(
    """g (float[2, 3] x, float[1, 3] s, float[2, 3] t) => (float[2, 3] y) {
    a = Mul(x, s)
    y = Add(a, t)
}""",
    opset=13,
)


def feeds(model):
    """The synthesized feeds of each default binding (as the engine makes them)."""
    from passcheck.engine import seed_for
    from passcheck.runtime import default_bindings, synthesize

    return [synthesize(model, b, seed_for("t", i)) for i, b in enumerate(default_bindings(model))]


def run_planted(subject, pass_id: str, fn):
    """The cells of ``subject`` under the Python pass ``fn`` registered as ``pass_id`` (unregistered after)."""
    from passcheck.engine import evaluate
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    register_pass(FunctionAdapter(pass_id, fn))
    try:
        return [c for c in evaluate(subject, [pass_id]) if c.pass_id == pass_id]
    finally:
        unregister_pass(pass_id)


def assert_verified_on_case(rid: str, case_id: str) -> None:
    """The common form of the library case ``case_id``: rewrite ``rid`` applies and the gate accepts it."""
    from passcheck.cases import registry
    from passcheck.mutations.subject import verified_mutants

    model = registry().get(case_id).forms["common"].build()
    found = verified_mutants(model, [rid], feeds(model), case_id)
    assert list(found) == [rid] and found[rid][1].count >= 1


def assert_sites_gate_and_inverse(rid: str, original: onnx.ModelProto, sites: list[str]) -> None:
    """Rewrite ``rid`` on ``original``: exactly ``sites``; the mutant, the last site alone and the inverse's
    undoing (when ``rid`` has an inverse) each pass the equivalence gate (real onnxruntime, shape inference)."""
    from passcheck.mutations import REWRITES, verify_equivalent

    mutant, applied = REWRITES[rid].apply(original)
    assert list(applied.nodes) == sites
    verify_equivalent(original, mutant, feeds(original), rid)
    one, _ = REWRITES[rid].apply(original, [sites[-1]])
    verify_equivalent(original, one, feeds(original), rid)
    inverse = REWRITES[rid].inverse
    if inverse is not None:
        back = REWRITES[inverse].apply(mutant)
        assert back is not None, f"{inverse} does not undo {rid}"
        verify_equivalent(original, back[0], feeds(original), inverse)
