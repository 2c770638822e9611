"""One node shared by two readers ↔ duplicated per reader (issue 15): a Pad shared by two Convs."""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import W, feeds, named

PAD_TWO_CONVS = """g (float[N, 3, 3, 3] x) => (float[N, 2, 3, 3] a, float[N, 2, 3, 3] b) {
    pads = Constant<value = int64[8] {0, 0, 1, 1, 0, 0, 1, 1}>()
    p = Pad(x, pads)
    a = Conv(p, w)
    b = Conv(p, w2)
}"""
W2 = tensor("w2", np.linspace(1, -1, 2 * 3 * 3 * 3, dtype=np.float32).reshape(2, 3, 3, 3))


def test_pad_shared_by_two_convs_is_duplicated_and_merged_back():
    m = named(PAD_TWO_CONVS, opset=13, initializers=[W, W2])
    mutant, applied = REWRITES["duplicate-shared-node"].apply(m)
    assert list(applied.nodes) == ["n1"]  # the Pad; its pads Constant has one reader
    verify_equivalent(m, mutant, feeds(m), "duplicate-shared-node")
    convs = [n for n in mutant.graph.node if n.op_type == "Conv"]
    assert convs[0].input[0] == "p" and convs[1].input[0] == "p_copy"
    assert [n.op_type for n in mutant.graph.node].count("Pad") == 2
    merged, applied = REWRITES["merge-duplicate-nodes"].apply(mutant)
    assert list(applied.nodes) == ["n1_copy"]
    verify_equivalent(m, merged, feeds(m), "merge-duplicate-nodes")
    assert [n.op_type for n in merged.graph.node] == [n.op_type for n in m.graph.node]


def test_only_and_what_is_never_copied_or_merged():
    m = named(PAD_TWO_CONVS, opset=13, initializers=[W, W2])
    assert REWRITES["duplicate-shared-node"].edit(m, frozenset({"n1"})) == ["n1"]
    m = named(
        """g (float[N, 3] x) => (float[N, 3] y, float[N, 3] z, float[N, 3] u) {
        y = Relu(x)
        z = Relu(x)
        a = Dropout(x)
        b = Dropout(x)
        u = Add(a, b)
    }""",
        opset=13,
    )
    assert REWRITES["merge-duplicate-nodes"].apply(m) is None  # z is a graph output; Dropout is random
