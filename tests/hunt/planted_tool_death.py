"""A base case whose every form kills onnx shape inference as passcheck's routed call runs it (tests only).

Loaded with ``--cases-from`` (so in the hunt's process and, preloaded, in its isolation worker):
:func:`passcheck.runtime.isolated_tools.infer_job` (the one function through which the hunt, the generator's gate
and the rewrites infer shapes on a candidate form, M261) is given a body that calls ``os.abort()`` on a model of
graph ``isolate36-plant`` and infers every other model as before. The function keeps its name, so the worker
unpickles the same (planted) function. The checker and the front door's own inference of the original
(``Checker.inference_died``) are not this function: the base is admitted, and only the calls on what the hunt
makes from it die. Run in the worker, each death costs that call; run in the hunt's process, it ends the hunt.

Base case ``isolate36/plant``: ``y = Relu(x * w + b)``, opset 17 (uncommon form: ``w * x``).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.runtime import isolated_tools

PLANT = "isolate36-plant"


def _dying_infer(model, check_type, strict_mode, data_prop, slim=False):
    import os

    import onnx

    if model.graph.name == "isolate36-plant":
        os.abort()
    return onnx.shape_inference.infer_shapes(model, check_type=check_type, strict_mode=strict_mode, data_prop=data_prop)


isolated_tools.infer_job.__code__ = _dying_infer.__code__


def _build(swapped: bool = False):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    inits = [
        numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 0.25], np.float32), "w"),
        numpy_helper.from_array(np.array([0.1, -0.2, 0.3, 0.4], np.float32), "b"),
    ]
    nodes = [
        helper.make_node("Mul", ["w", "x"] if swapped else ["x", "w"], ["m"], name="mul"),
        helper.make_node("Add", ["m", "b"], ["a"], name="add"),
        helper.make_node("Relu", ["a"], ["y"], name="relu"),
    ]
    graph = helper.make_graph(nodes, PLANT, [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


register(
    Case(
        id="isolate36/plant",
        forms={"common": Form(_build), "constant-first": Form(lambda: _build(True), "w first")},
        doc="y = Relu(x * w + b)",
        opset=17,
    )
)


def _dying_reference(model, feeds):
    if model.graph.name == "isolate36-plant":
        import os

        os.abort()
    return _isolate36_original(model, feeds)  # noqa: F821 - a name of passcheck.runtime.reference (set below)


def _plant_reference() -> None:
    """The same for :func:`passcheck.runtime.reference.run_reference` (the function the gates' second opinion and the
    generator's gate run through :func:`passcheck.runtime.isolated_tools.run_reference`)."""
    import types

    from passcheck.runtime import reference

    fn = reference.run_reference
    reference._isolate36_original = types.FunctionType(fn.__code__, reference.__dict__, fn.__name__, fn.__defaults__)
    fn.__code__ = _dying_reference.__code__


_plant_reference()
