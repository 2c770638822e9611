"""A worker that cannot start is raised at the end of the tools' block, not read as "inference fails on this form".

Rewrites read a raise of :func:`passcheck.runtime.isolated_tools.infer_shapes` as "nothing known here" (their
broad ``except``), so a machine whose isolation worker never starts would silently get fewer forms. The block keeps
the :class:`~passcheck.errors.WorkerStartError`, sends nothing after it, and raises it at its end.
"""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper

from passcheck.errors import WorkerStartError
from passcheck.mutations import _shapes
from passcheck.runtime import isolated_tools


def _model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "start-error", [x], [y])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture
def unstartable():
    """An isolation worker no job reaches (each hand-over refused), and the count of hand-overs tried."""
    from passcheck.passes.isolation import IsolatedExecutor

    with IsolatedExecutor(timeout=60) as ex:
        tries: list[int] = []
        ex._ensure_worker = lambda: None

        def refused(*_args):
            tries.append(1)

        ex._submit = refused
        yield ex, tries


def test_a_start_error_swallowed_inside_the_block_is_raised_at_its_end(unstartable):
    ex, tries = unstartable
    model = _model()
    with pytest.raises(WorkerStartError, match="could not be started"):
        with isolated_tools.within(ex) as scope:
            try:
                isolated_tools.infer_shapes(model)
            except Exception:  # noqa: BLE001 - as the rewrites read a raise: "nothing known"
                pass
            assert isinstance(scope.start_error, WorkerStartError)
            sent = len(tries)
            with pytest.raises(WorkerStartError):
                isolated_tools.run_reference(model, {"x": np.ones((2, 3), np.float32)})
            assert len(tries) == sent  # nothing sent after the start error
    assert sent == 2  # one job, handed over twice (execution.worker._hand_over)


def test_a_rewrite_helper_does_not_keep_nothing_known_for_a_worker_that_never_started(unstartable):
    ex, _tries = unstartable
    model = _model()
    with pytest.raises(WorkerStartError):
        with isolated_tools.within(ex):
            _shapes.known(model)
    assert _shapes.known(model)["y"].dims == (2, 3)  # in process now: inferred, not a kept "nothing known"
