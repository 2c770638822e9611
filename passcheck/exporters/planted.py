"""Planted exporter bugs: corrupt an exported model the way a faulty exporter would, to show the
exporter oracle catches it. Each takes and returns an ``onnx.ModelProto`` (a modified copy).
Give one as ``corrupt=`` to :func:`passcheck.exporters.check_export` (or define ``corrupt`` in a
``check-export`` file)."""

from __future__ import annotations

import numpy as np


def _copy(model):
    import onnx

    m = onnx.ModelProto()
    m.CopyFrom(model)
    return m


def fixed_batch(model, size: int = 1):
    """Every graph output's (and value_info's) first dim annotated as the fixed ``size``, as an
    exporter that specialised the dynamic batch to one example would."""
    m = _copy(model)
    for vi in list(m.graph.output) + list(m.graph.value_info):
        tt = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and tt.HasField("shape") and len(tt.shape.dim) > 0:
            d = tt.shape.dim[0]
            if not d.HasField("dim_value"):
                d.Clear()
                d.dim_value = size
    return m


def drop_bias(model):
    """The first bias set to zeros: a Gemm/Conv bias initializer, else a LinearRegressor /
    LinearClassifier ``intercepts`` attribute, else a Scaler ``offset``.

    Raises:
        ValueError: the model has none of them.
    """
    from onnx import numpy_helper

    m = _copy(model)
    inits = {t.name: t for t in m.graph.initializer}
    for node in m.graph.node:
        if node.op_type in ("Gemm", "Conv", "ConvTranspose") and len(node.input) > 2 and node.input[2] in inits:
            t = inits[node.input[2]]
            t.CopyFrom(numpy_helper.from_array(np.zeros_like(numpy_helper.to_array(t)), t.name))
            return m
    for op, attr in (("LinearRegressor", "intercepts"), ("LinearClassifier", "intercepts"), ("Scaler", "offset")):
        for node in m.graph.node:
            for a in node.attribute:
                if node.op_type == op and a.name == attr:
                    a.floats[:] = [0.0] * len(a.floats)
                    return m
    raise ValueError("no Gemm/Conv bias, linear intercepts or Scaler offset to drop")


PLANTED = {"fixed-batch": fixed_batch, "drop-bias": drop_bias}
