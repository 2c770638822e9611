"""Planted passes that mishandle a spelling only the rewrites of index_sign / layout_forms produce:
each is right on the model as written, and its docstring names the freedom and the guard the real
pass has (the tests never name the rewrite: ``check --mutations`` picks it by default)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper

from passcheck.cases.builders import parse, tensor

from .planted_freedoms import _attr, _static


def _replace_nodes(model: onnx.ModelProto, nodes) -> onnx.ModelProto:
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


# --- 1. Pad folded into a Conv that pads by auto_pad (auto-pad-named) ----------------------------


def pad_then_conv() -> onnx.ModelProto:
    w = np.linspace(-1, 1, 3 * 2 * 3 * 3, dtype=np.float32).reshape(3, 2, 3, 3)
    return parse(
        """g (float[1, 2, 5, 5] x) => (float[1, 3, 5, 5] y) {
        p = Pad(x, pads)
        y = Conv<pads = [0, 0, 0, 0]>(p, w)
    }""",
        opset=13,
        initializers=[tensor("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64)), tensor("w", w)],
    )


def fold_pad_ignoring_auto_pad(model: onnx.ModelProto) -> onnx.ModelProto:
    """Folds a zero-valued constant Pad into the Conv that reads it by adding its spatial pads to the
    Conv's ``pads``, without looking at ``auto_pad``. Freedom: explicit zero pads are auto_pad VALID
    (Conv-11); a Conv with auto_pad set ignores ``pads``, so the folded padding is lost.
    onnxruntime's PadFusion refuses a child whose auto_pad is not NOTSET."""
    static, g = _static(model), model.graph
    producer = {o: n for n in g.node for o in n.output}
    dropped, out = set(), []
    for n in g.node:
        pad = producer.get(n.input[0]) if n.op_type == "Conv" else None
        if pad is not None and pad.op_type == "Pad" and pad.input[1] in static and len(pad.input) < 3:
            pads = [int(v) for v in static[pad.input[1]]]
            half = len(pads) // 2
            spatial = pads[2:half] + pads[half + 2 :]
            own = list(_attr(n, "pads", [0] * len(spatial)))
            keep = [a for a in n.attribute if a.name != "pads"]
            del n.attribute[:]
            n.attribute.extend([*keep, onnx.helper.make_attribute("pads", [a + b for a, b in zip(own, spatial)])])
            n.input[0] = pad.input[0]
            dropped.add(id(pad))
    out = [n for n in g.node if id(n) not in dropped]
    return _replace_nodes(model, out)


# --- 2. Two Unsqueezes merged by arithmetic on non-negative axes (axes-input-negative) -----------


def unsqueeze_twice() -> onnx.ModelProto:
    return parse(
        """g (float[N, 4] x) => (float[1, N, 1, 4] y) {
        a = Unsqueeze(x, ax0)
        y = Unsqueeze(a, ax2)
    }""",
        opset=13,
        initializers=[tensor("ax0", np.array([0], np.int64)), tensor("ax2", np.array([2], np.int64))],
    )


def merge_unsqueezes_unsigned(model: onnx.ModelProto) -> onnx.ModelProto:
    """Merges Unsqueeze(Unsqueeze(x, [a1]), [a2]) into Unsqueeze(x, [a1, a2]) when a1 < a2, else
    [a2, a1 + 1], arithmetic that holds for axes counted from the front only. Freedom: an axes input
    may count from the back (Unsqueeze-13: range [-r, r-1] of the output rank); onnxscript's
    UnsqueezeUnsqueeze rule checks "Axes are negative" before merging."""
    static, g = _static(model), model.graph
    producer = {o: n for n in g.node for o in n.output}
    for n in g.node:
        inner = producer.get(n.input[0]) if n.op_type == "Unsqueeze" else None
        if inner is None or inner.op_type != "Unsqueeze" or len(inner.input) < 2 or len(n.input) < 2:
            continue
        if inner.input[1] not in static or n.input[1] not in static:
            continue
        a1, a2 = int(static[inner.input[1]].reshape(-1)[0]), int(static[n.input[1]].reshape(-1)[0])
        axes = [a1, a2] if a1 < a2 else [a2, a1 + 1]
        name = f"{n.output[0]}_merged_axes"
        g.initializer.append(onnx.numpy_helper.from_array(np.array(axes, np.int64), name))
        n.input[:] = [inner.input[0], name]
    return model
