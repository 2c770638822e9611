"""A form cut down to a subset of its nodes, still a valid model.

A value a kept node reads but no kept node writes becomes an initializer when it is computable
from initializers alone (its value comes from :func:`constant_values`), else a graph input typed
from shape inference. Every value a kept node writes that no kept node reads becomes a graph
output (so the optimizer cannot drop the nodes as dead).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def key(node) -> str:
    """A node's identity across the forms of a pair: its outputs (rewrites keep value names)."""
    return "|".join(node.output)


def constant_values(model) -> dict[str, Any]:
    """Value name → numpy array for every tensor node output computable from initializers alone
    (evaluated with onnx.reference); nodes with subgraphs or outside the default domain are left.

    Only tensors are kept: an initializer is a TensorProto (IR.md §Graphs), so a constant sequence, map or
    optional (a list, dict or None from the reference evaluator) stays a value :func:`cut` types as a graph
    input."""
    import numpy as np
    import onnx
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    known = {t.name for t in model.graph.initializer}
    nodes = []
    for n in model.graph.node:
        if (
            n.domain in ("", "ai.onnx")
            and all(i in known or not i for i in n.input)
            and not any(a.g.node or a.graphs for a in n.attribute)
        ):
            nodes.append(n)
            known.update(o for o in n.output if o)
    outs = [o for n in nodes for o in n.output if o]
    if not outs:
        return {}
    g = helper.make_graph(
        nodes,
        "constants",
        [],
        [helper.make_empty_tensor_value_info(o) for o in outs],
        initializer=list(model.graph.initializer),
    )
    m = helper.make_model(g, opset_imports=list(model.opset_import), ir_version=model.ir_version)
    try:
        values = ReferenceEvaluator(m).run(None, {})
    except Exception:  # noqa: BLE001 - an op the reference lacks: no constants then
        return {}
    del onnx
    return {name: np.asarray(v) for name, v in zip(outs, values) if isinstance(v, np.ndarray | np.generic)}


def value_types(model) -> dict[str, Any]:
    """Value name → TypeProto for every value onnx shape inference can type (and the graph's own)."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # noqa: BLE001 - a model inference rejects: only the annotations it has
        inferred = model
    g = inferred.graph
    return {v.name: v.type for v in [*g.input, *g.output, *g.value_info] if v.type.WhichOneof("value")}


def cut(model, keep: Collection[str], types: dict[str, Any], consts: dict[str, Any]):
    """``model`` with only the nodes whose :func:`key` is in ``keep``; None when a cut value has
    no known type."""
    import onnx
    from onnx import helper, numpy_helper

    g = model.graph
    nodes = [n for n in g.node if key(n) in keep]
    written = {o for n in nodes for o in n.output if o}
    read = [i for n in nodes for i in n.input if i]
    inits = {t.name: t for t in g.initializer}
    graph_inputs = {v.name: v for v in g.input}
    new_inputs, new_inits = [], []
    for name in dict.fromkeys(read):
        if name in written:
            continue
        if name in inits:
            new_inits.append(inits[name])
        elif name in consts:
            new_inits.append(numpy_helper.from_array(consts[name], name))
        elif name in graph_inputs:
            new_inputs.append(graph_inputs[name])
        elif name in types:
            new_inputs.append(helper.make_value_info(name, types[name]))
        else:
            return None
    if model.ir_version < 4:  # IR < 4: every initializer is also a graph input
        named = {v.name for v in new_inputs}
        new_inputs += [
            graph_inputs.get(t.name) or helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
            for t in new_inits
            if t.name not in named
        ]
    consumed = set(read)
    graph_outputs = {v.name: v for v in g.output}
    outputs = []
    for o in (o for n in nodes for o in n.output if o):
        if o in graph_outputs:
            outputs.append(graph_outputs[o])
        elif o not in consumed:
            if o not in types:
                return None
            outputs.append(helper.make_value_info(o, types[o]))
    if not outputs:
        return None
    new = helper.make_graph(nodes, g.name, new_inputs, outputs, initializer=new_inits)
    m = helper.make_model(new, opset_imports=list(model.opset_import), ir_version=model.ir_version)
    m.functions.extend(model.functions)
    del onnx
    return m
