"""The forms of an onnx backend node test: as the spec's authors wrote it (``common``, its graph
inputs fed with the test's inputs) and with every graph input held as a constant.

Both compute the same values on the same data: a graph input with no initializer is fed at run time,
an initializer that is not a graph input is a constant (IR.md §Graphs, "Names Within a Graph" and
initializers), so a pass that folds constants must evaluate the op itself on the constant form.
Before IR version 4 every initializer had to be a graph input as well (IR.md, "initializer" in the
Graphs table; the onnx checker enforces it), so a model of IR version 3 holds the values as Constant
nodes instead (Operators.md Constant, since opset 1): the same constant, the spelling its IR allows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

CONSTANT_INPUTS = "constant-inputs"
CONSTANT_INPUTS_DOC = (
    "every graph input replaced by an initializer holding the test's input (IR.md §Graphs: an initializer "
    "that is not a graph input is a constant; before IR version 4 a Constant node): folding passes evaluate "
    "the op themselves"
)
#: The first IR version whose initializers need not be graph inputs (IR.md, Graphs).
IR_FREE_INITIALIZERS = 4


def with_static_inputs(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> onnx.ModelProto:
    """A copy of ``model`` whose tensor graph inputs declare the shape of the value they are fed
    (``dim_value`` for every dim; a ``dim_param`` or missing dim takes the fed size). Inputs without a
    tensor type, or whose declared rank differs from the fed value's, are left as written."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for vi in out.graph.input:
        if vi.name not in feeds or vi.type.WhichOneof("value") != "tensor_type":
            continue
        shape = np.asarray(feeds[vi.name]).shape
        tt = vi.type.tensor_type
        if tt.HasField("shape") and len(tt.shape.dim) != len(shape):
            continue
        tt.ClearField("shape")
        tt.shape.SetInParent()
        for n in shape:
            tt.shape.dim.add().dim_value = int(n)
    return out


def constant_inputs(model: onnx.ModelProto, feeds: Mapping[str, Any]) -> onnx.ModelProto:
    """``model`` with each fed graph input turned into an initializer of the same name holding its
    value (its elem_type and shape are the value's), or, below IR version 4, a Constant node
    (first in ``graph.node``) writing that name; graph outputs, other nodes and value_info stay.

    Raises:
        ValueError: a fed input is not a tensor (a sequence, optional or map has no initializer
            spelling), or its value's element type is not the declared one.
    """
    out = onnx.ModelProto()
    out.CopyFrom(model)
    g = out.graph
    kept, consts = [], []
    for vi in g.input:
        if vi.name not in feeds:
            kept.append(vi)
            continue
        if vi.type.WhichOneof("value") != "tensor_type":
            raise ValueError(f"input {vi.name!r} is a {vi.type.WhichOneof('value')}, not a tensor")
        init = numpy_helper.from_array(np.asarray(feeds[vi.name]), vi.name)
        if init.data_type != vi.type.tensor_type.elem_type:
            raise ValueError(
                f"input {vi.name!r}: its value is elem_type {init.data_type}, the input declares "
                f"{vi.type.tensor_type.elem_type}"
            )
        consts.append(init)
    if out.ir_version >= IR_FREE_INITIALIZERS:
        g.initializer.extend(consts)
    else:
        nodes = [onnx.helper.make_node("Constant", [], [t.name], value=t) for t in consts] + list(g.node)
        del g.node[:]
        g.node.extend(nodes)
    del g.input[:]
    g.input.extend(kept)
    return out
