"""Index and count inputs in int32 ↔ int64, where the operator schema takes either.

ONNX operator spec: a node's input is typed by a type constraint, and the constraints that allow
exactly ``tensor(int32)`` and ``tensor(int64)`` are the spec's index, axis, count and position types
(Gather/GatherElements/Scatter/ScatterElements ``Tind``, Slice ``Tind`` for starts/ends/axes/steps,
Pad-18 ``Tind`` axes, CumSum ``T2`` axis, SequenceAt/SequenceInsert/SequenceErase ``I``, the window
ops' ``T1`` size, …). Sites are derived from the schemas (:func:`index_constraints`), not listed: a
default-domain main-graph node at the model's opset, a constraint allowing exactly those two types,
bound to no output (so no output changes type). Every input bound to it changes together, so the
node stays well typed.

- A static input (initializer or Constant) gets a fresh tensor of the other type, spelled as the old
  one (initializer or Constant; the old one goes when nothing else reads it). int64 → int32 only when
  every value fits int32, except Slice starts/ends: Slice-10/11/13 clamp starts and ends to the
  dimension (a value past it means the end), so int64 values beyond int32's range are clamped to it
  (the same slice for any dimension below 2**31).
- A computed input gets ``Cast(to=…)`` right before the node, read by that node alone. Its values are
  indices, axes and counts, bounded by a dimension; the equivalence gate's runs reject a mutant where
  a computed value does not fit.

Sites are the nodes, only where the installed onnxruntime's CPU provider has a kernel for the new
binding (:mod:`passcheck.runtime.kernels`), onnx's own inference for the node takes it (the checker
and onnxruntime's loader run it: onnx 1.23.2's Pad-18+ inference reads static axes as int64 only,
``ParseData<int64_t>`` in onnx/defs/tensor, and refuses int32 axes the schema allows), and shape
inference knows every bound input's element type.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import splice
from passcheck.mutations._shapes import known
from passcheck.mutations.index_sign import fresh_static
from passcheck.runtime import isolated_tools
from passcheck.typestr import schema_type

if TYPE_CHECKING:
    import onnx

INT32, INT64 = 6, 7  # onnx.TensorProto.INT32, INT64
_PAIR = frozenset({"tensor(int32)", "tensor(int64)"})
_INT32_RANGE = (-(2**31), 2**31 - 1)
#: op → input slots whose out-of-range values the op clamps (Operators.md Slice-10/11/13: starts, ends).
CLAMPED = {"Slice": frozenset({1, 2})}


def _eligible(allowed: frozenset[str], name: str, output_types: set[str]) -> bool:
    """Whether a constraint allowing ``allowed`` is an index constraint typing no output."""
    return allowed == _PAIR and name not in output_types


@functools.lru_cache(maxsize=4096)
def index_constraints(op: str, version: int) -> dict[str, tuple[int, ...]]:
    """Constraint name → the input slots it types, for ``op``'s (default domain) schema at opset
    ``version``: the constraints allowing exactly tensor(int32) and tensor(int64) and typing no output.
    Empty when onnx knows no such op. A variadic last formal is not a site (its slot count varies)."""
    import onnx.defs

    try:
        schema = onnx.defs.get_schema(op, version, "")
    except onnx.defs.SchemaError:
        return {}
    outs = {f.type_str for f in schema.outputs}
    found: dict[str, tuple[int, ...]] = {}
    for c in schema.type_constraints:
        if not _eligible(frozenset(c.allowed_type_strs), c.type_param_str, outs):
            continue
        slots = tuple(
            i
            for i, f in enumerate(schema.inputs)
            if f.type_str == c.type_param_str and f.option != onnx.defs.OpSchema.FormalParameterOption.Variadic
        )
        if slots:
            found[c.type_param_str] = slots
    return found


def _runs(n: onnx.NodeProto, version: int, elem_of, retyped: dict[str, int]) -> bool:
    """Whether onnxruntime's CPU provider runs ``n`` with the constraints in ``retyped`` bound to the given element
    types (the others as ``elem_of`` says): a kernel, or the float kernel its cast insertion falls back to for a
    float16 input (:func:`passcheck.runtime.kernels.runs_on_cpu`)."""
    import onnx

    from passcheck.runtime import kernels

    schema = onnx.defs.get_schema(n.op_type, version, "")
    bound = kernels.bound_types(n, schema, elem_of)
    for name, elem in retyped.items():
        bound[name] = schema_type(elem)
    return kernels.runs_on_cpu("", n.op_type, schema.since_version, bound) is True


def value_types(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    """Main-graph value → its TypeProto (tensor, sequence, optional…) after onnx shape inference: graph
    inputs, value_info, outputs, and initializers as tensors; empty when inference raises."""
    import onnx

    try:
        g = isolated_tools.infer_shapes(model).graph
    except Exception:  # noqa: BLE001 - nothing known: no node is probed, so none is a site
        return {}
    out = {t.name: onnx.helper.make_tensor_type_proto(t.data_type, list(t.dims)) for t in g.initializer}
    out.update((v.name, v.type) for v in [*g.input, *g.value_info, *g.output] if v.type.WhichOneof("value"))
    return out


def _onnx_infers(n: onnx.NodeProto, version: int, typed, plan: dict[int, object], to: int, static) -> bool:
    """Whether onnx's own inference for ``n``'s schema (``onnx.shape_inference.infer_node_outputs``; the
    checker's full_check and onnxruntime's graph load run the same function) takes the new binding: the
    slots in ``plan`` typed ``to``, their new static values (an array) as input data, other static inputs
    as they are (``typed``: :func:`value_types`). False when an input's type is unknown. A mutant it
    refuses could not be verified."""
    import onnx
    from onnx import numpy_helper

    input_types, data = {}, {}
    for s, x in enumerate(n.input):
        if not x:
            continue
        if x not in typed:
            return False
        t = onnx.TypeProto()
        t.CopyFrom(typed[x])
        if s in plan:
            t.tensor_type.elem_type = to
            if plan[s] is not None:
                data[x] = numpy_helper.from_array(plan[s], x)
        elif x in static:
            data[x] = static[x]
        input_types[x] = t
    try:
        onnx.shape_inference.infer_node_outputs(onnx.defs.get_schema(n.op_type, version, ""), n, input_types, data)
    except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
        return False
    return True


def _restore(values, to: int, clamp: bool):
    """``values`` (a numpy int array) as int32 (``to`` INT32) or int64; None when a value does not fit
    int32 and ``clamp`` is False."""
    import numpy as np

    if to == INT64:
        return values.astype(np.int64)
    lo, hi = _INT32_RANGE
    if not clamp and ((values < lo) | (values > hi)).any():
        return None
    return np.clip(values, lo, hi).astype(np.int32)


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, to: int) -> list[str]:
    import onnx
    from onnx import numpy_helper

    frm = INT64 if to == INT32 else INT32
    g, version = model.graph, opset(model)
    static = static_tensors(g)
    types, typed = known(model), None

    def elem_of(v: str) -> int:
        k = types.get(v)
        return k.elem_type if k is not None else 0

    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        if not is_default_domain(n) or not chosen(only, node_label(n, i)):
            continue
        constraints = index_constraints(n.op_type, version)
        plan: dict[int, object] = {}  # slot → new array (static) or None (Cast)
        retyped: dict[str, int] = {}
        for name, slots in constraints.items():
            present = [s for s in slots if s < len(n.input) and n.input[s]]
            if not present or any(elem_of(n.input[s]) != frm for s in present):
                continue
            new: dict[int, object] = {}
            for s in present:
                x = n.input[s]
                if x in static:
                    array = _restore(numpy_helper.to_array(static[x]), to, s in CLAMPED.get(n.op_type, ()))
                    if array is None:
                        break
                    new[s] = array
                else:
                    new[s] = None
            else:
                plan.update(new)
                retyped[name] = to
        if not plan or not _runs(n, version, elem_of, retyped):
            continue
        typed = value_types(model) if typed is None else typed
        if not _onnx_infers(n, version, typed, plan, to, static):
            continue
        made, renamed = [], {}
        for s, array in plan.items():
            x = n.input[s]
            if x not in renamed:
                if array is None:
                    out = fresh_name(taken, f"{x}_{'i32' if to == INT32 else 'i64'}")
                    made.append(onnx.helper.make_node("Cast", [x], [out], name=fresh_name(taken, f"{out}_node"), to=to))
                    renamed[x] = out
                else:
                    consts = fresh_static(g, taken, f"{x}_{'i32' if to == INT32 else 'i64'}", array, x)
                    made.extend(consts)
                    renamed[x] = consts[0].output[0] if consts else g.initializer[-1].name
                    freed.add(x)
            n.input[s] = renamed[x]
        before[i] = made
        sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def to_int32(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Index/count inputs bound to int64 (schema constraint allowing exactly int32 and int64) → int32:
    static ones re-stored (values fit, Slice starts/ends clamped), computed ones through Cast."""
    return _edit(model, only, INT32)


def to_int64(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Index/count inputs bound to int32 → int64: static ones re-stored, computed ones through Cast."""
    return _edit(model, only, INT64)


REWRITES = (
    Rewrite(
        "index-int32",
        "index/axis/count inputs int64 → int32 where the schema's constraint takes exactly int32 and int64 "
        "(Gather/Slice/CumSum/Scatter* Tind, …): static re-stored, computed through Cast",
        to_int32,
        inverse="index-int64",
    ),
    Rewrite(
        "index-int64",
        "index/axis/count inputs int32 → int64 where the schema's constraint takes exactly int32 and int64",
        to_int64,
        inverse="index-int32",
    ),
)

FREEDOMS = (
    Freedom(
        "index-width",
        "data types",
        "Operators.md Gather-13, GatherElements-13, ScatterElements-18, Slice-13, Pad-18, CumSum-14, "
        "SequenceAt-11 (type constraints Tind / T2 / I: tensor(int32) or tensor(int64); Slice clamps starts "
        "and ends to the dimension)",
        "An index, axis or count input whose type constraint takes int32 or int64 may hold its values in "
        "either width: the node computes the same output.",
        ("index-int32", "index-int64"),
        "main-graph default-domain nodes, per constraint allowing exactly int32 and int64 and typing no "
        "output (derived from the schema at the model's opset), every input it binds changed together: "
        "static ones re-stored (int32 when every value fits; Slice starts/ends clamped), computed ones "
        "through a Cast read by that node alone; only where onnxruntime's CPU provider has a kernel for the "
        "new binding",
    ),
)
