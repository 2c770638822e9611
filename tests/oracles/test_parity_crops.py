"""Parity and Pads that crop (:func:`passcheck.oracles.parity._crops`): a Pad with a negative pad (Operators.md
Pad-11+) may not be folded into a window op (Conv takes non-negative pads), so keeping it, or a Pad that feeds only
such Pads, is no missed fold; a foldable Pad kept is still one. Judged by the engine on real onnxruntime runs with
planted Pad → Conv folds (the neutral-op rewrite ``pad-crop`` writes ``Pad(Pad(x, +1, edge), -1)``)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

PADS = [0, 0, 1, 1, 0, 0, 1, 1]


def _model(chain: list[tuple[str, list[int], str]]) -> object:
    """``y = Conv(<chain applied to x>, W)``: each link (name, pads, mode) a Pad-13 of constant ``pads``."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes, inits, cur = (
        [],
        [numpy_helper.from_array(np.linspace(-1, 1, 9, dtype=np.float32).reshape(1, 1, 3, 3), "W")],
        "x",
    )
    for name, pads, mode in chain:
        inits.append(numpy_helper.from_array(np.array(pads, np.int64), f"{name}_pads"))
        nodes.append(helper.make_node("Pad", [cur, f"{name}_pads"], [name], name=name, mode=mode))
        cur = name
    nodes.append(helper.make_node("Conv", [cur, "W"], ["y"], name="conv"))
    return helper.make_model(
        helper.make_graph(nodes, "g", [x], [y], inits), opset_imports=[helper.make_opsetid("", 13)]
    )


GROW, CROP = [0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, -1]
COMMON = [("pad", PADS, "constant")]
CROP_BEFORE_CONV = [("pad", PADS, "constant"), ("grow", GROW, "edge"), ("crop", CROP, "constant")]
CROP_BEFORE_PAD = [("grow", GROW, "edge"), ("crop", CROP, "constant"), ("pad", PADS, "constant")]


def _fold(only_from_inputs: bool):
    """A Pad → Conv fold: a constant-mode Pad of non-negative constant pads on the spatial axes, read by the Conv
    alone, becomes the Conv's ``pads``; ``only_from_inputs``: only a Pad that reads a graph input (a lazy fold)."""

    def fold(model):
        g = model.graph
        inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        inputs = {v.name for v in g.input}
        for conv in [n for n in g.node if n.op_type == "Conv"]:
            pad = next((n for n in g.node if n.op_type == "Pad" and n.output[0] == conv.input[0]), None)
            if pad is None or (only_from_inputs and pad.input[0] not in inputs):
                continue
            p = inits.get(pad.input[1])
            mode = next((a.s for a in pad.attribute if a.name == "mode"), b"constant")
            if p is None or (p < 0).any() or mode != b"constant" or p[[0, 1, 4, 5]].any():
                continue
            conv.input[0] = pad.input[0]
            conv.attribute.append(helper.make_attribute("pads", [int(v) for v in (*p[2:4], *p[6:8])]))
            g.node.remove(pad)
        return model

    return fold


@pytest.fixture(scope="module")
def planted():
    """An in-process executor (the planted passes are registered here) with both folds registered."""
    from passcheck.passes.isolation import executor_for

    ids = {"planted:fold-pad-conv": _fold(False), "planted:fold-pad-conv-lazy": _fold(True)}
    for pid, fn in ids.items():
        register_pass(FunctionAdapter(pid, fn, optimizes=True))
    with executor_for(None, timeout=60) as executor:
        yield executor
    for pid in ids:
        unregister_pass(pid)


def _parity(forms: dict, pass_id: str, executor) -> list:
    subject = Subject(id="parity-test/pad-conv", forms={k: _model(v) for k, v in forms.items()}, bindings=[{}])
    cells = evaluate(subject, [pass_id], executor=executor)
    ran = {c.form: c.status for c in cells if c.pass_id == pass_id}
    assert set(ran) == set(forms) and "error" not in ran.values(), ran
    return [f for c in cells for f in c.findings if f.oracle == "parity"]


def test_kept_pads_that_crop_or_feed_a_crop_are_no_missed_fold(planted):
    forms = {"common": COMMON, "crop-before-conv": CROP_BEFORE_CONV, "crop-before-pad": CROP_BEFORE_PAD}
    assert _parity(forms, "planted:fold-pad-conv", planted) == []


def test_a_foldable_pad_left_in_front_of_the_conv_is_still_a_missed_fold(planted):
    found = _parity({"common": COMMON, "crop-before-pad": CROP_BEFORE_PAD}, "planted:fold-pad-conv-lazy", planted)
    assert [(f.kind, f.form, f.details["kept_op_types"]) for f in found] == [
        ("missed-optimization", "crop-before-pad", ["Pad"])
    ], found
