"""The numeric oracle leaves `unchecked` the positions of a TopK index or a comparison (and a Where it drives) that
the input model's own rounding decided (M278, M279), and still reports a pass that changes them where the values are
clearly apart. The input model rounds `x` on a grid (`s = (x + 100) - 100`, float32: a step of 2^-17 ≈ 7.6e-6); a
planted pass folds the pair away (`s = x`, exact in the reals), so the near-equal values come out in the other order.
Real onnxruntime sessions through `check_model`, onnx's reference evaluator."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.oracles.compare_ties import flipped_positions
from passcheck.oracles.index_ties import near, tied_positions
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

#: 0.100001 and 0.100002 round to one grid point (a tie), the rest are clearly apart.
X = np.array([[0.100001, 0.100002, 0.05, 0.02]], np.float32)
#: Compared with x: 0.1000035 < 0.100004, but its rounding 0.1000061 > it (near); 0.5 > 0.2, 0.01 < 0.3 (apart).
A = np.array([[0.1000035, 0.5, 0.01]], np.float32)
Y = np.array([[0.100004, 0.2, 0.3]], np.float32)
P, Q = np.ones((1, 3), np.float16), np.zeros((1, 3), np.float16)


def _model(body: list, inputs: dict, outputs: dict) -> onnx.ModelProto:
    """``s = Sub(Add(x, 100), 100)`` then ``body``; float32 inputs of the given shapes, outputs of the given types."""
    nodes = [helper.make_node("Add", ["x", "big"], ["t"]), helper.make_node("Sub", ["t", "big"], ["s"]), *body]
    graph = helper.make_graph(
        nodes,
        "rounded",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs.items()],
        [numpy_helper.from_array(np.array(100, np.float32), "big"), numpy_helper.from_array(np.array([2]), "k")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def topk() -> onnx.ModelProto:
    """values, indices = TopK(s, k=2), axis -1, largest, sorted: float32[1, 2], int64[1, 2]."""
    node = helper.make_node("TopK", ["s", "k"], ["values", "indices"], axis=-1)
    return _model([node], {"x": [1, 4]}, {"values": TensorProto.FLOAT, "indices": TensorProto.INT64})


def compare(half: bool = True) -> onnx.ModelProto:
    """gt = Greater(s, y): bool[1, 3]; w = Where(gt, p, q): float16[1, 3] (float16: the float64 judge, M194, reads
    float32 outputs only, so the rule is what judges ``w``; ``half=False``: float32, which M194 judges first)."""
    body = [helper.make_node("Greater", ["s", "y"], ["gt"]), helper.make_node("Where", ["gt", "p", "q"], ["w"])]
    inputs = {"x": [1, 3], "y": [1, 3], "p": [1, 3], "q": [1, 3]}
    model = _model(body, inputs, {"gt": TensorProto.BOOL, "w": TensorProto.FLOAT16 if half else TensorProto.FLOAT})
    for v in model.graph.input[2:] if half else ():
        v.type.tensor_type.elem_type = TensorProto.FLOAT16
    return model


def _fold(model: onnx.ModelProto, swap: tuple[str, str] | None = None, **attrs) -> onnx.ModelProto:
    """Planted pass: ``s = x`` (the Add/Sub pair folded away); ``swap`` renames one op type, ``attrs`` set on the last
    node."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    kept = [n for n in out.graph.node if n.op_type not in ("Add", "Sub")]
    for n in kept:
        n.input[:] = ["x" if v == "s" else v for v in n.input]
        if swap and n.op_type == swap[0]:
            n.op_type = swap[1]
    kept[-1].attribute.extend(helper.make_attribute(k, v) for k, v in attrs.items())
    del out.graph.node[:]
    out.graph.node.extend(kept)
    return out


@pytest.fixture
def passes():
    ids = [
        register_pass(FunctionAdapter("test:fold-grid", _fold)).id,
        register_pass(FunctionAdapter("test:fold-grid-smallest", lambda m: _fold(m, largest=0))).id,
        register_pass(FunctionAdapter("test:fold-grid-less", lambda m: _fold(m, ("Greater", "Less")))).id,
    ]
    yield ids
    for pid in ids:
        unregister_pass(pid)


def _cell(model, pid, feeds):
    report = check_model(model, [pid], feeds=[feeds], name="numeric/rounding-decided", isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pid]
    return cell


def _numeric(cell) -> list[str]:
    return [f.message for f in cell.findings if f.oracle == "numeric"]


def test_near_is_the_rounding_both_sides_may_add():
    band = lambda v: (1e-4, 1e-5)  # noqa: E731
    a = np.array([1.0, 1.0, 0.1, 0.1], np.float32)
    b = np.array([1.0001, 1.01, 0.10002, 0.2], np.float32)
    assert near(a, b, band).tolist() == [True, False, True, False]
    assert near(a, a, lambda v: (0.0, 0.0)).all() and not near(a, b, lambda v: (0.0, 0.0)).any()


def test_a_topk_index_the_rounding_tied_is_unchecked_and_clearly_apart_values_are_reported(passes):
    fold, smallest, _ = passes
    cell = _cell(topk(), fold, {"x": X})
    assert cell.status == "changed" and not _numeric(cell), cell.findings
    assert cell.verdict == "unchecked"
    assert "TopK's input 's' ties in the unoptimized run" in cell.unchecked["output 'indices'"], cell.unchecked
    # the same pass also taking the smallest two: indices 3, 2 against 0, 1, values 0.02 / 0.05 against 0.1
    assert any("'indices'" in m for m in _numeric(_cell(topk(), smallest, {"x": X}))), "a real change unreported"
    # x fed straight to TopK: its ties are exact, the tie rule decides, nothing is excused
    direct = _fold(topk())
    assert tied_positions(direct, {"x": X}, "indices", np.array([[1, 0]]), np.array([[0, 1]])) is None


def test_a_comparison_and_its_where_the_rounding_decided_are_unchecked_a_flip_clearly_apart_is_reported(passes):
    fold, _, less = passes
    feeds = {"x": A, "y": Y, "p": P, "q": Q}
    cell = _cell(compare(), fold, feeds)
    assert cell.status == "changed" and not _numeric(cell), cell.findings
    assert cell.verdict == "unchecked"
    assert "equal within rounding" in cell.unchecked["output 'gt'"], cell.unchecked
    assert "other branch" in cell.unchecked["output 'w'"], cell.unchecked
    # float32 Where: float64 evaluates the input model's comparison as the pass does, so `w` is checked, not unchecked
    wide = _cell(compare(half=False), fold, {**feeds, "p": P.astype(np.float32), "q": Q.astype(np.float32)})
    assert not _numeric(wide) and "output 'w'" not in wide.unchecked, (wide.findings, wide.unchecked)
    flipped = _numeric(_cell(compare(), less, feeds))  # Less: every position flips, two clearly apart
    assert any("'gt'" in m for m in flipped) and any("'w'" in m for m in flipped), flipped
    # a Where output that is neither branch is no rounding's choice
    band = lambda v: (1e-4, 1e-5)  # noqa: E731
    got, expected = np.array([[7.0, 1.0, 0.0]], np.float16), np.array([[0.0, 1.0, 0.0]], np.float16)
    assert flipped_positions(compare(), feeds, "w", got, expected, band) is None


def test_a_float16_chain_is_judged_at_float16_rounding_and_sorted_0_leaves_topk_order_open():
    from passcheck.oracles.numeric import tolerance

    band = lambda v: tolerance(v.dtype)  # noqa: E731  # the numeric oracle's band for the data's own dtype
    nodes = [helper.make_node("Mul", ["x", "x"], ["s"]), helper.make_node("ArgMax", ["s"], ["i"], axis=-1)]
    graph = helper.make_graph(
        nodes,
        "half",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [1, 3])],
        [helper.make_tensor_value_info("i", TensorProto.INT64, [1, 1])],
    )
    half = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    x = np.array([[1.0, 1.001, 0.5]], np.float16)  # squares 1.0 and 1.002: one float16 step apart
    why = tied_positions(half, {"x": x}, "i", np.array([[0]]), np.array([[1]]), band)
    assert why is not None and "equal within rounding" in why, why
    assert tied_positions(half, {"x": x}, "i", np.array([[2]]), np.array([[1]]), band) is None  # 0.25 is apart
    model = topk()
    model.graph.node[-1].attribute.append(helper.make_attribute("sorted", 0))
    expected = np.array([[0, 1]])  # the evaluator's order: the two largest after rounding, 0.0999985 twice
    why = tied_positions(model, {"x": X}, "indices", np.array([[1, 0]]), expected, band)
    assert why is not None and "sorted=0" in why, why
    assert tied_positions(model, {"x": X}, "indices", np.array([[2, 0]]), expected, band) is None
