"""float32 model → the same graph computed in float64, with Casts at the graph boundary (issue 15).
ONNX rule: every op's type constraint is checked by strict shape inference on the result, so the
rewrite applies only where every op accepts tensor(double); Cast (Cast-6+) converts float32
inputs to float64 exactly, and the float64 result rounds back to within float32 tolerance of
the float32 computation. float16 is not offered: its rounding changes results beyond the gate's
float32 tolerance. Main graphs without subgraphs or model-local functions; a graph with a node
onnxruntime's CPU provider has no kernel for at its float64 types (its own kernel registry,
:mod:`passcheck.runtime.kernels`) is left alone (its form would only test that gap).
Site: the graph's name."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, opset, subgraphs
from passcheck.mutations._only import wanted
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 7
#: ops with a float-typed attribute naming an output element type.
DTYPE_ATTRS = {"Cast": "to", "EyeLike": "dtype"}


def site(model: onnx.ModelProto) -> str:
    return model.graph.name or "graph"


def _convert_tensor(t: onnx.TensorProto) -> None:
    import numpy as np
    from onnx import numpy_helper

    t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float64), t.name))


def to_float64(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every float32 value → float64: initializers and Constant values converted, float32 graph
    inputs Cast to float64 on entry and float32 graph outputs Cast back on exit, ``Cast(to=FLOAT)``
    → ``to=DOUBLE``; nothing changes when strict shape inference rejects the result."""
    import onnx

    F, D = onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE
    g = model.graph
    if (
        not wanted(only, site(model))
        or opset(model) < MIN_OPSET
        or len(model.functions)
        or any(True for n in g.node for _ in subgraphs(n))
    ):
        return []
    work = onnx.ModelProto()
    work.CopyFrom(model)
    wg = work.graph
    tensor_type = lambda v: v.type.tensor_type if v.type.HasField("tensor_type") else None  # noqa: E731
    f_in = [v.name for v in wg.input if (t := tensor_type(v)) is not None and t.elem_type == F]
    f_out = [v.name for v in wg.output if (t := tensor_type(v)) is not None and t.elem_type == F]
    inputs = {v.name for v in wg.input}
    if set(f_out) & inputs or set(f_out) & {t.name for t in wg.initializer}:
        return []
    changed = bool(f_in or f_out)
    for t in wg.initializer:
        if t.name not in inputs and t.data_type == F:
            _convert_tensor(t)
            changed = True
    for n in wg.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR and a.t.data_type == F:
                _convert_tensor(a.t)
                changed = True
            elif n.op_type in DTYPE_ATTRS and a.name == DTYPE_ATTRS[n.op_type] and a.i == F:
                a.i = D
                changed = True
        if n.op_type == "Constant" and n.attribute[0].name in ("value_float", "value_floats"):
            import numpy as np
            from onnx import numpy_helper

            value = np.asarray(onnx.helper.get_attribute_value(n.attribute[0]), np.float64)
            n.attribute[0].CopyFrom(onnx.helper.make_attribute("value", numpy_helper.from_array(value)))
            changed = True
    if not changed:
        return []
    taken = all_names(work)
    rename = {x: fresh_name(taken, f"{x}_f64") for x in f_in + f_out}
    for n in wg.node:
        n.input[:] = [rename.get(x, x) for x in n.input]
        n.output[:] = [rename.get(x, x) if x in f_out else x for x in n.output]

    def cast(src, dst, to):
        return onnx.helper.make_node("Cast", [src], [dst], name=fresh_name(taken, f"{dst}_cast"), to=to)

    body = list(wg.node)
    del wg.node[:]
    wg.node.extend([cast(x, rename[x], D) for x in f_in] + body + [cast(rename[y], y, F) for y in f_out])
    for v in wg.value_info:
        if (t := tensor_type(v)) is not None and t.elem_type == F:
            t.elem_type = D
    try:
        inferred = isolated_tools.infer_shapes(work, check_type=True, strict_mode=True)
    except Exception:  # noqa: BLE001 - an op that does not take tensor(double): no float64 form
        return []
    if not _cpu_runs(inferred):
        return []
    model.CopyFrom(work)
    return [site(model)]


def _cpu_runs(model: onnx.ModelProto) -> bool:
    """Whether onnxruntime's CPU provider runs every node of ``model`` (inferred) with its element types: a kernel,
    or for a float16 input one for float that its cast insertion falls back to
    (:func:`passcheck.runtime.kernels.node_runs_on_cpu`; a function body: yes)."""
    import onnx

    from passcheck.runtime.kernels import node_runs_on_cpu

    g = model.graph
    elem = {v.name: v.type.tensor_type.elem_type for v in [*g.input, *g.value_info, *g.output]}
    elem.update({t.name: t.data_type for t in g.initializer})
    for n in g.node:
        try:
            schema = onnx.defs.get_schema(n.op_type, opset(model, n.domain), n.domain)
        except Exception:  # noqa: BLE001 - strict inference accepted it: an op onnx knows; else not ours to judge
            continue
        if node_runs_on_cpu(n, schema, lambda v: elem.get(v, 0)) is False:
            return False
    return True


REWRITES = (
    Rewrite(
        "float64-compute",
        "float32 graph → computed in float64 with Casts at the graph inputs/outputs (every op takes tensor(double))",
        to_float64,
        detail="graphs",
    ),
)
