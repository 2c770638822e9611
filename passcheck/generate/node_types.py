"""Element types of a generated node's outputs as its schema's own type-inference function gives them
(``onnx.shape_inference.infer_node_outputs``, the function onnx shape inference runs per node): where an
attribute or an input's type selects an output's type (LabelEncoder's ``values_*``, CategoryMapper's string
or integer input), the inference function is the schema's statement of which.
"""

from __future__ import annotations

import onnx
import onnx.helper

from passcheck.generate.recipe import Node, _param_of


def output_param(node: Node, output: str) -> str | None:
    """The type parameter of ``output``'s formal (a variadic output ``name_j`` is ``name``'s)."""
    f = next((o for o in node.schema.outputs if output in (o.name,) or output.startswith(o.name + "_")), None)
    return _param_of(f.type_str) if f is not None else None


def _proto(node: Node) -> onnx.NodeProto:
    from passcheck.generate.model import _attribute

    n = onnx.helper.make_node(node.op, [i.name for i in node.inputs], list(node.outputs), domain=node.domain or None)
    n.attribute.extend(_attribute(k, v, node.attr_types.get(k, 0)) for k, v in node.attrs.items())
    return n


def inferred(node: Node) -> dict[str, int] | None:
    """Each output's element type as ``node``'s schema's type-inference function gives it (0 where it gives
    none); None when it rejects the node (an attribute of one type beside an input of another)."""
    import onnx.shape_inference

    types = {i.name: onnx.helper.make_tensor_type_proto(i.elem, list(i.shape)) for i in node.inputs if not i.empty}
    opsets = [onnx.helper.make_opsetid("", node.opset if not node.domain else 17)]
    if node.domain:
        opsets.append(onnx.helper.make_opsetid(node.domain, node.schema.since_version))
    try:
        out = onnx.shape_inference.infer_node_outputs(node.schema, _proto(node), types, opset_imports=opsets)
    except Exception:  # noqa: BLE001 - InferenceError / a checker error: the schema rejects the node
        return None
    return {o: out[o].tensor_type.elem_type if o in out else 0 for o in node.outputs}


def settle(node: Node) -> Node | None:
    """``node`` with its outputs' element types (and their type variables) read off inference; None when the
    schema rejects it or leaves an output's type unknown."""
    got = inferred(node)
    if got is None or not all(got.values()):
        return None
    for o, e in got.items():
        node.out_elems[o] = e
        if p := output_param(node, o):
            node.dtypes[p] = e
    return node
