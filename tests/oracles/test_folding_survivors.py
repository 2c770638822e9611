"""Missed-folding behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on onnxruntime runs
that observe every node output (``tests/oracles/test_oracle_power.py``'s helpers)."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.oracles import folding
from tests.oracles.test_oracle_power import _form_run, _shape_model


def _constants(n: int, name: str = "constants_only"):
    """A constant-only Add of two ``n``-element initializers beside ``y = Identity(x)``."""
    g = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["c"], name=name), helper.make_node("Identity", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info(v, t, None) for v, t in (("y", TensorProto.FLOAT), ("c", TensorProto.INT64))],
        [
            numpy_helper.from_array(np.arange(n, dtype=np.int64), "a"),
            numpy_helper.from_array(np.ones(n, np.int64), "b"),
        ],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_an_unnamed_node_is_named_by_its_index():
    """Mutant killed: ``node.name or f"#{idx}"`` → ``and`` in ``check``: a named node was shown as its index
    and an unnamed one as nothing."""
    (named,) = folding.check(_form_run(_constants(3), [(2,)], folds_constants=True))
    (unnamed,) = folding.check(_form_run(_constants(3, name=""), [(2,)], folds_constants=True))
    assert named.message.startswith("Add node 'constants_only' reads only constants"), named.message
    assert unnamed.message.startswith("Add node '#0' reads only constants"), unnamed.message
    assert (unnamed.details["node"], unnamed.details["node_index"]) == ("", 0)


def test_shape_derived_values_need_runs_whose_dims_varied():
    """Mutants killed: ``len(runs) >= 2 and _dims_vary(…)`` → ``or``, and the feeds of the runs that failed
    (none) passed to ``_dims_vary`` instead of those that ran: two runs of one shape were taken to show a
    value independent of the symbolic dim."""
    m = _shape_model()
    assert folding.check(_form_run(m, [(2, 3), (2, 3)], folds_constants=True)) == []
    found = folding.check(_form_run(m, [(2, 3), (4, 3)], folds_constants=True))
    assert [f.details["node"] for f in found] == ["gather"]


def test_a_value_of_more_than_65536_elements_is_not_judged():
    """Mutants killed: ``MAX_ELEMENTS = 1 << 16`` → ``2 << 16`` / ``1 << 17``: a constant-only value past the
    limit (one not worth holding for every binding) was named."""
    assert folding.MAX_ELEMENTS == 65536
    (at,) = folding.check(_form_run(_constants(65536), [(2,)], folds_constants=True))
    assert at.details["node"] == "constants_only"
    assert folding.check(_form_run(_constants(65537), [(2,)], folds_constants=True)) == []
