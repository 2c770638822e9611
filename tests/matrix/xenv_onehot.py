"""A OneHot case whose graph output states no shape, loaded with --cases-from by tests/matrix/test_cross_env.py
(tests only): ``y = OneHot(i, depth, values)``, ``i: int64[2, 3]``, ``depth`` an initializer (scalar 5), axis -1,
so the output is ``float[2, 3, 5]`` (Operators.md OneHot-11). The ``common`` form states ``y`` as ``float[?, ?, ?]``
(rank 3, no dim); ``named-depth`` as ``float[2, 3, "depth"]``: what a tool infers of the last dim is its own."""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register


def onehot(dims):
    def build():
        node = helper.make_node("OneHot", ["i", "depth", "values"], ["y"], name="onehot", axis=-1)
        graph = helper.make_graph(
            [node],
            "onehot_depth",
            [helper.make_tensor_value_info("i", TensorProto.INT64, [2, 3])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, dims)],
            [
                numpy_helper.from_array(np.array(5, np.int64), "depth"),
                numpy_helper.from_array(np.array([0.0, 1.0], np.float32), "values"),
            ],
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], ir_version=7)

    return build


register(
    Case(
        id="xenv/onehot-depth",
        forms={
            "common": Form(onehot([None, None, None])),
            "named-depth": Form(onehot([2, 3, "depth"]), 'y: float[2, 3, "depth"]'),
        },
        doc="y = OneHot(i, depth=5, values)",
        opset=11,
    )
)
