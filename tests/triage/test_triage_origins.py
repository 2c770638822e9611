"""A hunt's pairs shrunk from one base are one computation to triage (M162, round 12e).

Round 12e's triage made five candidates of docs/found.md row 82 (FuseMaxMinToClip losing the broadcast rank): the
rewrite hunt saved one pair per signature of `pattern-onnxscript/min-max-clip` (`@lo`, `@hi`; numeric,
annotations, invalid), each its own case, and a value or shape mismatch groups on its case. Here one real
onnxscript rewrite of the model checked under two pair ids gives two candidates, and one with the pairs' origins.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

PASS = "onnxscript:rewrite"
PAIRS = ("hunt/vary-shape-outrank-a-11111111", "hunt/vary-shape-outrank-b-22222222")


@pytest.fixture(scope="module")
def cells():
    pytest.importorskip("onnxscript")
    from passcheck import api

    g = helper.make_graph(
        [helper.make_node("Max", ["x", "lo"], ["a"]), helper.make_node("Min", ["a", "hi"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "N", 8])],
        [
            numpy_helper.from_array(np.full((1, 1, 1), -0.5, np.float32), "lo"),
            numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
        ],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    out = []
    for name in PAIRS:
        out += api.check_model(m, [PASS], name=name, isolation=False).cells
    assert len({c.case for c in out}) == 2
    return out


def _pairs(cells) -> list[str]:
    return list(dict.fromkeys(c.case for c in cells))


def _numeric(candidates):
    return [c for c in candidates if c.signature.oracle == "numeric"]


def test_the_pairs_of_one_base_are_one_candidate(cells):
    from passcheck.triage.candidates import group

    pairs = _pairs(cells)
    (one,) = _numeric(group(cells, {p: "pattern-onnxscript/min-max-clip:common" for p in pairs}))
    assert one.cases == pairs


def test_without_origins_each_pair_stays_its_own_candidate(cells):
    from passcheck.triage.candidates import group

    pairs = _pairs(cells)
    assert [c.cases for c in _numeric(group(cells))] == [[pairs[0]], [pairs[1]]]
    other = {pairs[0]: "base-a", pairs[1]: "base-b"}
    assert len(_numeric(group(cells, other))) == 2
