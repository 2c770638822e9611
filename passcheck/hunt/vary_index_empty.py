"""A neighbour whose index constant holds no element: the gather reading it selects nothing (M253).

Operators.md Gather: ``indices`` is a tensor "of any rank q" and the output's shape is ``data.shape[:axis] +
indices.shape + data.shape[axis+1:]``; GatherElements: the output has ``indices``'s shape; GatherND (``batch_dims``
0): ``indices.shape[:-1] + data.shape[indices.shape[-1]:]``. IR.md allows a zero-size dim, so an index tensor with a
0 in its first dim is valid, and the output then holds no element, with its rank unchanged. No other kind reaches
it: ``shape-empty`` empties only what broadcasts, and the value kinds keep an index's shape. A pass, an inference
function or an evaluator that takes an empty index for "no shape" (a flat ``[0]``), or reads its first element,
meets it here.

Form id ``vary:shape-index-empty@<constant>`` (:mod:`.variation`; family ``shape``): the constant (an int32/int64
initializer no graph input overrides, or a Constant's output, of rank >= 1, 1 to :data:`.graph_values.SMALL`
elements) read only as the ``indices`` of Gather, GatherElements or GatherND (``batch_dims`` 0, rank >= 2, its last
dim kept) becomes zero-filled with dim 0 set to 0. Not equivalent (the readers' outputs lose their elements); the
annotations are refreshed by the caller (:func:`.variation.build`); whether the values downstream still compute
(a reader needing an element) is for the variation gate.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from passcheck.hunt.graph_values import SMALL
from passcheck.hunt.graph_values import constants as _constants
from passcheck.hunt.graph_values import readers as _readers
from passcheck.hunt.graph_values import replace as _replace

if TYPE_CHECKING:
    from collections.abc import Iterator

    import numpy as np
    import onnx

KIND = "shape-index-empty"
KINDS = (KIND,)

#: Op types whose input 1 is an index tensor the output's shape is made of (Operators.md), in the default domain.
GATHERS = frozenset({"Gather", "GatherElements", "GatherND"})


def is_kind(k: str) -> bool:
    """Whether ``k`` (no ``vary:`` prefix) is this module's kind."""
    return k == KIND


def _batch_dims(node: onnx.NodeProto) -> int:
    return next((a.i for a in node.attribute if a.name == "batch_dims"), 0)


def site(model: onnx.ModelProto, name: str) -> bool:
    """Whether constant ``name`` may be emptied (see module docs)."""
    arr = _constants(model).get(name)
    if arr is None or arr.dtype.kind != "i" or arr.ndim < 1 or not 0 < arr.size <= SMALL:
        return False
    reads = _readers(model).get(name, [])
    for node, index in reads:
        if node.domain not in ("", "ai.onnx") or node.op_type not in GATHERS or index != 1:
            return False
        if node.op_type == "GatherND" and (_batch_dims(node) != 0 or arr.ndim < 2):
            return False
    return bool(reads) and refusing_reader(model, name) is None


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, constant name) for every constant this kind may empty."""
    for name in _constants(model):
        if site(model, name):
            yield KIND, name


def emptied(arr: np.ndarray) -> np.ndarray:
    """A tensor of ``arr``'s dtype and rank whose dim 0 is 0 (the other dims kept)."""
    import numpy as np

    return np.zeros((0, *arr.shape[1:]), dtype=arr.dtype)


def build(model: onnx.ModelProto, name: str) -> bool:
    """``model``'s constant ``name`` emptied in place (:func:`emptied`); False when it is no site."""
    if not site(model, name):
        return False
    _replace(model, name, emptied(_constants(model)[name]))
    return True


def _opset(model: onnx.ModelProto) -> int:
    return max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)


def parameter_slot(node: onnx.NodeProto, slot: int, version: int) -> bool:
    """Whether input ``slot`` of ``node`` (default domain, opset ``version``) is a parameter of the op's data: the
    schema calls it non-differentiable while another input of the op is differentiable (Reshape's ``shape``, Pad's
    ``pads``, TopK's ``K``, Slice's ``starts``...: values the op reads to shape its output, not elements it carries).
    False for an op the installed onnx has no schema for."""
    import onnx.defs

    try:
        ins = onnx.defs.get_schema(node.op_type, version, node.domain).inputs
    except onnx.defs.SchemaError:
        return False
    if not ins:
        return False
    cat = onnx.defs.OpSchema.DifferentiationCategory
    formal = ins[min(slot, len(ins) - 1)]
    return formal.differentiation_category == cat.NonDifferentiable and any(
        i.differentiation_category == cat.Differentiable for i in ins
    )


@functools.cache
def accepts_empty(op: str, domain: str, version: int, slot: int) -> bool:
    """Whether the schema's own inference function of ``op`` (opset ``version``) accepts a parameter input ``slot``
    holding no element: the node alone, its earlier inputs typed by their constraints' first type at rank 2
    (``[2, 3]``), input ``slot`` an int64 (else its first integer type) ``[0]`` whose value is given, run through
    ``onnx.shape_inference.infer_node_outputs``. Pad (``pads`` must hold 2 × rank values), Tile, TopK, Split,
    Resize refuse; Reshape, Expand, Slice (all of ``starts``/``ends`` empty), Squeeze, Unsqueeze accept. False when
    the probe cannot be typed."""
    import numpy as np
    import onnx.defs
    from onnx import helper, numpy_helper
    from onnx.helper import tensor_dtype_to_np_dtype

    try:
        schema = onnx.defs.get_schema(op, version, domain)
    except onnx.defs.SchemaError:
        return False
    allowed = {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}
    names, types, data = [], {}, {}
    for k, formal in enumerate(schema.inputs[: slot + 1]):
        strs = allowed.get(formal.type_str, [formal.type_str])
        pick = next((s for s in strs if s == "tensor(int64)"), None) if k == slot else None
        pick = pick or next((s for s in strs if k != slot or "int" in s), None)
        if pick is None or not pick.startswith("tensor("):
            return False
        elem = helper.np_dtype_to_tensor_dtype(np.dtype(_NP.get(pick[7:-1], "float32")))
        names.append(f"i{k}")
        types[f"i{k}"] = helper.make_tensor_type_proto(elem, [0] if k == slot else [2, 3])
        if k == slot:
            data[f"i{k}"] = numpy_helper.from_array(np.zeros((0,), tensor_dtype_to_np_dtype(elem)), f"i{k}")
    node = helper.make_node(op, names, [f"o{j}" for j in range(max(schema.min_output, 1))], domain=domain)
    try:
        onnx.shape_inference.infer_node_outputs(schema, node, types, data)
    except Exception:  # noqa: BLE001 - the schema's inference refuses an empty parameter (what is asked)
        return False
    return True


#: onnx type names → numpy dtype names (the integer and float types a probe may pick).
_NP = {
    "int64": "int64",
    "int32": "int32",
    "int16": "int16",
    "int8": "int8",
    "uint64": "uint64",
    "uint32": "uint32",
    "uint16": "uint16",
    "uint8": "uint8",
    "float": "float32",
    "double": "float64",
    "float16": "float16",
    "bool": "bool",
}


def refusing_reader(model: onnx.ModelProto, name: str) -> str | None:
    """The first main-graph reader downstream of the gathers reading constant ``name`` (through every node's
    outputs) that takes a value derived from them as a parameter (:func:`parameter_slot`) whose schema refuses an
    empty one (:func:`accepts_empty`), as ``"<op>[<slot>]"``; None when there is none (the gathers' own index slots
    excepted: they are what is emptied)."""
    reads, version = _readers(model), _opset(model)
    todo = [out for node, _ in reads.get(name, []) for out in node.output]
    seen: set[str] = set()
    while todo:
        value = todo.pop()
        if value in seen:
            continue
        seen.add(value)
        for node, slot in reads.get(value, []):
            gather_index = node.op_type in GATHERS and slot == 1
            if (
                node.domain in ("", "ai.onnx")
                and not gather_index
                and parameter_slot(node, slot, version)
                and not accepts_empty(node.op_type, node.domain, version, slot)
            ):
                return f"{node.op_type}[{slot}]"
            todo += [o for o in node.output if o]
    return None
