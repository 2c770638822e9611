"""The numeric oracle leaves `unchecked` the positions of a step function (Cast to an integer, NonZero, Hardmax,
Round) that the input model's own rounding decided, and every value computed from them (Not / And of a tied
comparison per element, a Gather of a tied index as a whole) (M306, M307); a pass that changes them where the
values are clearly apart is still reported. The input model rounds `x` on a grid (`s = (x + 100) - 100`, float32:
a step of 2^-17 ≈ 7.6e-6); a planted pass folds the pair away (`s = x`), another shifts it (`s = x + 1`). Real
onnxruntime sessions through `check_model`, onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.oracles.step_ties import stepped_positions
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests.oracles.test_numeric_rounding_decided import _cell, _numeric

#: s rounds 0.999999 to 1.0 (Cast: 1, not 0), 1e-6 to 0.0 (NonZero drops it); 0.5 is clearly apart from a step.
X = np.array([[0.999999, 0.5, 1e-6]], np.float32)
#: Greater(s, y): 1.0 > 0.9999995 but 0.999999 is not (near); 0.5 > 0.2 and 0 < 0.3 either way (apart).
Y = np.array([[0.9999995, 0.2, 0.3]], np.float32)
#: Hardmax rows: 0.100001 and 0.100002 share one grid point (a tie); Round: 3.4999995 rounds to 3.5 -> 4, not 3.
H = np.array([[0.100001, 0.100002], [3.4999995, 0.3]], np.float32)


def _model(body: list, inputs: dict, outputs: dict, inits: tuple = ()) -> onnx.ModelProto:
    """``s = Sub(Add(x, 100), 100)`` then ``body``; float32 inputs of the given shapes, outputs of the given types."""
    nodes = [helper.make_node("Add", ["x", "big"], ["t"]), helper.make_node("Sub", ["t", "big"], ["s"]), *body]
    graph = helper.make_graph(
        nodes,
        "stepped",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs.items()],
        [numpy_helper.from_array(np.array(100, np.float32), "big"), *inits],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def steps() -> onnx.ModelProto:
    """c = Cast(s, int64): int64[1, 3]; nz = NonZero(s): int64[2, n]; g = Gather(tbl, c): float16[1, 3] (float16:
    the float64 judge, M194, reads float32 only); a = And(Not(Greater(s, y)), keep): bool[1, 3]."""
    body = [
        helper.make_node("Cast", ["s"], ["c"], to=TensorProto.INT64),
        helper.make_node("NonZero", ["s"], ["nz"]),
        helper.make_node("Gather", ["tbl", "c"], ["g"]),
        helper.make_node("Greater", ["s", "y"], ["gt"]),
        helper.make_node("Not", ["gt"], ["n"]),
        helper.make_node("And", ["n", "keep"], ["a"]),
    ]
    inits = (
        numpy_helper.from_array(np.array([10, 20, 30], np.float16), "tbl"),
        numpy_helper.from_array(np.ones((1, 3), bool), "keep"),
    )
    outputs = {"c": TensorProto.INT64, "nz": TensorProto.INT64, "g": TensorProto.FLOAT16, "a": TensorProto.BOOL}
    return _model(body, {"x": [1, 3], "y": [1, 3]}, outputs, inits)


def hardmax_round() -> onnx.ModelProto:
    """hi = Cast(Hardmax(s, axis=-1), int64), ri = Cast(Round(s), int64): int64[2, 2] (int: M194 reads floats)."""
    body = [
        helper.make_node("Hardmax", ["s"], ["h"], axis=-1),
        helper.make_node("Cast", ["h"], ["hi"], to=TensorProto.INT64),
        helper.make_node("Round", ["s"], ["r"]),
        helper.make_node("Cast", ["r"], ["ri"], to=TensorProto.INT64),
    ]
    return _model(body, {"x": [2, 2]}, {"hi": TensorProto.INT64, "ri": TensorProto.INT64})


def _fold(model: onnx.ModelProto, shift: float = 0.0) -> onnx.ModelProto:
    """Planted pass: ``s = x`` (the Add/Sub pair folded away; exact in the reals), or ``s = x + shift``."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    kept = [n for n in out.graph.node if n.output[0] not in ("t", "s")]
    for n in kept:
        n.input[:] = [("xs" if shift else "x") if v == "s" else v for v in n.input]
    if shift:
        out.graph.initializer.append(numpy_helper.from_array(np.array(shift, np.float32), "shift"))
        kept.insert(0, helper.make_node("Add", ["x", "shift"], ["xs"]))
    del out.graph.node[:]
    out.graph.node.extend(kept)
    return out


@pytest.fixture
def passes():
    ids = [
        register_pass(FunctionAdapter("test:fold-step", _fold)).id,
        register_pass(FunctionAdapter("test:shift-step", lambda m: _fold(m, 1.0))).id,
    ]
    yield ids
    for pid in ids:
        unregister_pass(pid)


def test_a_cast_nonzero_and_what_follows_them_the_rounding_decided_are_unchecked(passes):
    fold, shift = passes
    cell = _cell(steps(), fold, {"x": X, "y": Y})
    assert cell.status == "changed" and not _numeric(cell), cell.findings
    assert cell.verdict == "unchecked"
    for out, step in (("c", "Cast 'c'"), ("nz", "NonZero 'nz'"), ("g", "Cast 'c'"), ("a", "Greater 'gt'")):
        assert step in cell.unchecked[f"output {out!r}"], (out, cell.unchecked)
    # s = x + 1: Cast moves 0.5 -> 1.5 and Greater flips 0 -> 1.000001 against 0.3, both clearly apart from a step;
    # the Gather reads the index per element, so its element at 0.5 is reported, not hidden by the tie at 1.0
    moved = _numeric(_cell(steps(), shift, {"x": X, "y": Y}))
    assert all(any(f"'{o}'" in m for m in moved) for o in ("c", "g", "a")), moved
    # x fed straight to the Cast: its values are exact, no rounding decided the step
    direct = _fold(steps())
    assert stepped_positions(direct, {"x": X, "y": Y}, "c", np.array([[0, 0, 0]]), np.array([[1, 0, 0]])) is None


def test_a_hardmax_tie_and_a_round_at_a_half_are_unchecked_a_clear_change_is_reported(passes):
    fold, shift = passes
    cell = _cell(hardmax_round(), fold, {"x": H})
    assert cell.status == "changed" and not _numeric(cell), cell.findings
    assert "Hardmax 'h'" in cell.unchecked["output 'hi'"], cell.unchecked
    assert "Round 'r'" in cell.unchecked["output 'ri'"], cell.unchecked
    moved = _numeric(_cell(hardmax_round(), shift, {"x": H}))  # Round(1.100001) = 1 against 0: apart from 0.5
    assert any("'ri'" in m for m in moved), moved


def test_a_reduction_of_a_tied_mask_is_flippable_as_a_whole_and_an_untied_one_is_not():
    """r = ReduceMax(Where(Greater(s, y), s, -1)): float32 scalar; onnx's reference evaluator reads the values."""
    band = lambda v: (1e-5, 1e-6)  # noqa: E731  # float32's band in the numeric oracle
    body = [
        helper.make_node("Greater", ["s", "y"], ["gt"]),
        helper.make_node("Where", ["gt", "s", "lo"], ["w"]),
        helper.make_node("ReduceMax", ["w"], ["r"], keepdims=0),
    ]
    lo = numpy_helper.from_array(np.array(-1, np.float32), "lo")
    model = _model(body, {"x": [1, 3], "y": [1, 3]}, {"r": TensorProto.FLOAT}, (lo,))
    got, expected = np.array(0.5, np.float32), np.array(1.0, np.float32)  # the tie at 1.0 masked: 0.5 is the max
    why = stepped_positions(model, {"x": X, "y": Y}, "r", got, expected, band)
    assert why is not None and "Greater 'gt'" in why, why
    apart = np.array([[0.4, 0.5, 1e-6]], np.float32)  # Greater(s, y) nowhere near a tie: nothing to excuse
    assert stepped_positions(model, {"x": apart, "y": Y}, "r", got, expected, band) is None
