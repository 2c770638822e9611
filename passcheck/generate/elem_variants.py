"""Element-type variants: the recipe again with one type constraint bound to another element type the
schema allows (each a case of its own, ``generated/<op>-<since>.variant.elem.<param>.<type>``).

The dtype pairs (:func:`passcheck.generate.spellings.dtype_pair`) vary only the type parameter of the
schema's first input, and only over :data:`~passcheck.generate.recipe.CPU_TYPES`. Passes key on the
element type of every value (onnxruntime's fusions and constant folding check dtypes and run per-type
CPU kernels; onnxscript's rules check ``dtype``; shape inference propagates ``elem_type``), so this
module binds *every* type constraint of the schema (onnx Operators.md, "Type Constraints") in turn:

- **which types**: per constraint, one type per family of :data:`FAMILIES` (float, float16, bfloat16,
  double, int8, uint8, int16, int32, int64, uint64, bool, string) that the constraint allows and
  that onnxruntime's CPU provider runs with the recipe's other constraints as bound
  (:func:`passcheck.runtime.kernels.runs_on_cpu`: a kernel, or float16 cast around a float kernel; an unknown
  answer, a body onnxruntime expands, counts);
- **which are left out**: the recipe's own binding; the first input's constraint over
  ``CPU_TYPES`` (the dtype pairs build those); constraints of sequences or optionals; constraints
  only outputs carry unless the schema has one integer attribute stating the output's data type
  (``Cast.to``, ``EyeLike.dtype``, ``*Window.output_datatype``: it is set to the type); a type
  some later schema of the op also allows with a kernel (each (op, constraint, type) is built once,
  at the newest schema, as the dtype pairs are); a constant input whose recipe value the type
  cannot hold (a negative value as unsigned, a value other than 0/1 as bool, :func:`as_type`);
- **ties the schema states elsewhere** (:func:`retyped`): a data-type attribute tied to the input's bit width
  follows the bound input, or the input follows it (:mod:`passcheck.generate.widths`, BitCast's ``to``), and a
  Loop / Scan body is rebuilt with its values of the bound ``V`` (:mod:`passcheck.generate.bodies`);
- **combinations** (:func:`combos`): each type combination a CPU kernel of the schema registers one type
  per constraint for that differs from the recipe's binding in two constraints or more (OneHot's int32
  indices run only with int32 or float depth), all its constraints bound at once;
- **strings from integers** (:func:`text_sources`): where a constraint other than the first input's is bound
  to string while the first input's is a float type (Cast's ``to``, CastLike's target), the variant again
  with the first input's constraint bound to int64. Operators.md Cast leaves the text of a float open
  (onnxruntime writes 8 significant digits, onnx's reference evaluator the shortest repr), so the gate drops
  the float one; an integer has one decimal spelling, so this one is a base. It is built at the newest
  schema and at the newest one at or below ``NEWEST_PORTABLE`` (opset 21), which every pinned environment loads;
- **bound**: at most ``len(FAMILIES)`` = 12 variants per (schema, constraint), plus one per such kernel
  registration; on onnx 1.23.2 / onnxruntime 1.32.0 that is 268 + 23 variants of 79 operators, 216 of
  which pass the gate (13 combinations; the set: 3,779 generated cases, 3,563 without them); the 75
  dropped are counted in ``passcheck generate --stats``
  (no kernel once a function body is expanded, a checker or reference-evaluator refusal, onnxruntime
  and the reference evaluator disagreeing).

Inputs of the new type are fed at random as the recipe's are (:func:`passcheck.runtime.feeds.synthesize`:
integers in [0, 4), bool, strings from a small alphabet); constant inputs (indices, axes, sizes)
keep the recipe's values converted to the type (integers rounded), so an index stays in range.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import onnx.defs

from passcheck.cases.opsets import NEWEST_PORTABLE
from passcheck.generate import widths
from passcheck.generate.node_types import output_param, settle
from passcheck.generate.pair import Ctx, Pair
from passcheck.generate.recipe import CPU_TYPES, Node, _param_of, np_dtype, type_name

#: One representative element type per family, in the order variants are built.
FAMILIES = ("float", "float16", "bfloat16", "double", "int8", "uint8", "int16", "int32", "int64", "uint64", "bool")
FAMILIES += ("string",)
VARIADIC = onnx.defs.OpSchema.FormalParameterOption.Variadic


def code(name: str) -> int:
    """``"int16"`` → ``onnx.TensorProto.INT16``."""
    return int(getattr(onnx.TensorProto, name.upper()))


def formal_params(node: Node) -> list[str | None]:
    """The type parameter of each of ``node.inputs``' formals, aligned with ``node.inputs`` (None: a
    fixed type or an empty placeholder; a variadic formal's parameter repeats)."""
    formals = list(node.schema.inputs)
    out: list[str | None] = []
    for k, i in enumerate(node.inputs):
        f = formals[min(k, len(formals) - 1)] if formals else None
        out.append(None if i.empty or f is None else _param_of(f.type_str))
    return out


def as_type(value, elem: int) -> np.ndarray | None:
    """``value`` as an array of element type ``elem`` (float values rounded for integer types); None
    when the type cannot hold it (out of the integer type's range, not 0/1 for bool)."""
    arr = np.asarray(value)
    if elem == onnx.TensorProto.STRING:
        return np.array([str(x) for x in arr.ravel().tolist()], dtype=object).reshape(arr.shape)
    dt = np_dtype(elem)
    if arr.dtype == object or arr.dtype.kind in "OUS":
        return None
    if dt.kind in "iu":
        r = np.round(arr.astype(np.float64))
        info = np.iinfo(dt)
        return r.astype(dt) if r.size == 0 or (r.min() >= info.min and r.max() <= info.max) else None
    if dt.kind == "b":
        return arr.astype(bool) if np.isin(arr, (0, 1)).all() else None
    return arr.astype(dt)


def _type_attr(schema: onnx.defs.OpSchema) -> str | None:
    """The one integer attribute whose description states the output's data type, else None."""
    found = [
        n
        for n, a in schema.attributes.items()
        if a.type == onnx.AttributeProto.INT and "data type" in (a.description or "").lower()
    ]
    return found[0] if len(found) == 1 else None


def retyped(node: Node, param: str, elem: int) -> Node | None:
    """``node`` with type constraint ``param`` bound to ``elem``: its inputs of that constraint
    retyped (constants converted, :func:`as_type`), or, for a constraint only outputs carry, the
    schema's data-type attribute set; None when neither applies or a constant cannot be converted."""
    v = node.copy()
    params = formal_params(v)
    mine = [i for i, p in zip(v.inputs, params, strict=True) if p == param]
    if not mine:
        attr = _type_attr(v.schema)
        if attr is None or param not in {_param_of(o.type_str) for o in v.schema.outputs}:
            return None
        v.attrs[attr] = elem
        v.out_elems.update({o: elem for o in v.outputs if output_param(v, o) == param})
    for i in mine:
        if i.value is not None:
            conv = as_type(i.value, elem)
            if conv is None:
                return None
            i.value = conv
        i.elem = elem
    v.dtypes[param] = elem
    v = widths.tie(v, param)  # a constraint tied to this one by bit width follows it (BitCast's ``to``)
    return _bodies_follow(v) if v is not None else None


def _bodies_follow(node: Node) -> Node:
    """``node`` with its graph attributes (Loop / Scan / If bodies, :mod:`passcheck.generate.bodies`) rebuilt for
    its bound types: a body's values are of the type ``V`` is bound to (Operators.md Loop, Scan, If), so a body
    left as the recipe's would type them as the recipe's binding and the checker would refuse the form."""
    from passcheck.generate import bodies

    rank = next((len(i.shape) for i in node.inputs if not i.empty and i.value is None), 0)
    node.attrs.update(bodies.graph_attrs(node.schema, node.dtypes, rank, node.opset))
    return node


def _types(schema: onnx.defs.OpSchema, dtypes: dict[str, int]) -> dict[str, str]:
    names = {c.type_param_str for c in schema.type_constraints}
    return {p: f"tensor({type_name(e)})" for p, e in dtypes.items() if p in names}


def _runs(schema: onnx.defs.OpSchema, types: dict[str, str]) -> bool:
    """Whether onnxruntime's CPU provider runs ``schema`` with ``types`` bound
    (:func:`~passcheck.runtime.kernels.runs_on_cpu`: a float16 input cast around a float kernel runs too; unknown
    counts)."""
    from passcheck.runtime.kernels import runs_on_cpu

    return runs_on_cpu(schema.domain, schema.name, schema.since_version, types) is not False


def choices(node: Node, later: Sequence[onnx.defs.OpSchema] = ()) -> list[tuple[str, str]]:
    """The (type parameter, type name) pairs :func:`pairs` builds for ``node`` (see module docs);
    ``later``: the op's newer schemas the generator builds (a type one of them runs is left to it)."""
    schema = node.schema
    first = _param_of(schema.inputs[0].type_str) if schema.inputs else None
    out = []
    for c in schema.type_constraints:
        p = c.type_param_str
        if p not in node.dtypes or node.wraps.get(p):
            continue
        for t in FAMILIES:
            e = code(t)
            if f"tensor({t})" not in c.allowed_type_strs or e == node.dtypes[p]:
                continue
            if p == first and t in CPU_TYPES:
                continue  # the dtype pairs build it
            if not _runs(schema, _types(schema, {**node.dtypes, p: e})):
                continue
            if any(f"tensor({t})" in _allowed(s, p) and _runs(s, {p: f"tensor({t})"}) for s in later):
                continue
            out.append((p, t))
    return out


def _allowed(schema: onnx.defs.OpSchema, param: str) -> Sequence[str]:
    return next((c.allowed_type_strs for c in schema.type_constraints if c.type_param_str == param), ())


def combos(node: Node, later: Sequence[onnx.defs.OpSchema] = ()) -> list[tuple[tuple[str, str], ...]]:
    """The type combinations a CPU kernel of ``node``'s schema registers one type per constraint for that
    differ from the recipe's binding in two constraints or more (OneHot's int32 indices run only with int32
    or float depth: one constraint at a time never reaches them): ((param, type), ...) in schema order,
    each type in :data:`FAMILIES` and allowed by the schema, and none a later schema's kernel also runs."""
    from passcheck.runtime.kernels import registry

    schema = node.schema
    order = [c.type_param_str for c in schema.type_constraints]
    out: list[tuple[tuple[str, str], ...]] = []
    for lo, hi, types in registry().get((schema.domain, schema.name), ()):
        if not lo <= schema.since_version <= hi:
            continue
        single = {p: next(iter(ts))[7:-1] for p, ts in types.items() if len(ts) == 1 and p in node.dtypes}
        diff = tuple(
            (p, single[p])
            for p in order
            if p in single and not node.wraps.get(p) and code_or_0(single[p]) != node.dtypes[p]
        )
        if (
            len(diff) < 2
            or diff in out
            or any(t not in FAMILIES or f"tensor({t})" not in _allowed(schema, p) for p, t in diff)
        ):
            continue
        if any(_runs(s, {p: f"tensor({t})" for p, t in diff}) for s in later):
            continue
        out.append(diff)
    return out


#: TensorProto element types whose text Operators.md leaves to the implementation: FLOAT, FLOAT16, DOUBLE, BFLOAT16.
_FLOAT_SOURCES = (1, 10, 11, 16)


def text_sources(node: Node, later: Sequence[onnx.defs.OpSchema] = ()) -> list[tuple[tuple[str, str], ...]]:
    """((first input's parameter, "int64"), (parameter, "string")) for each constraint :func:`choices` binds to
    string that is not the first input's, where the first input's is bound to a float type, int64 is allowed
    there and a CPU kernel runs the pair (and no later schema's does); in schema order (see module docs)."""
    schema = node.schema
    first = _param_of(schema.inputs[0].type_str) if schema.inputs else None
    if first is None or node.dtypes.get(first) not in _FLOAT_SOURCES or "tensor(int64)" not in _allowed(schema, first):
        return []
    order = [c.type_param_str for c in schema.type_constraints]
    out = []
    for p, t in choices(node):  # the later schemas are asked below, with the portable one kept
        if t != "string" or p == first:
            continue
        bound = {first: "tensor(int64)", p: "tensor(string)"}
        if not _runs(schema, _types(schema, {**node.dtypes, first: code("int64"), p: code("string")})):
            continue
        if _left_to_later(schema, later, bound):
            continue
        out.append(tuple(sorted(((first, "int64"), (p, "string")), key=lambda b: order.index(b[0]))))
    return out


def _left_to_later(schema: onnx.defs.OpSchema, later: Sequence[onnx.defs.OpSchema], bound: dict[str, str]) -> bool:
    """Whether a later schema builds ``bound`` instead of ``schema``: the newest schema that runs it does, and so
    does the newest of those at or below :data:`~passcheck.cases.opsets.NEWEST_PORTABLE` (the newest opset every
    pinned environment's onnxruntime loads: a Cast-28 base is n/a where onnx knows opset 21)."""
    newer = [s for s in later if _runs(s, bound)]
    if not newer:
        return False
    portable = schema.since_version <= NEWEST_PORTABLE
    return not portable or any(s.since_version <= NEWEST_PORTABLE for s in newer)


def _outputs_follow(node: Node) -> bool:
    """Whether ``node``'s schema has a type constraint only outputs carry that no data-type attribute states:
    its type follows the inputs and attributes (CategoryMapper's ``T2``: string in, int64 out), as the schema's
    type-inference function says (:func:`passcheck.generate.node_types.inferred`)."""
    ins = {_param_of(f.type_str) for f in node.schema.inputs}
    outs = {_param_of(f.type_str) for f in node.schema.outputs} - ins - {None}
    return bool(outs) and _type_attr(node.schema) is None and not any(node.wraps.values())


def code_or_0(name: str) -> int:
    """:func:`code`, or 0 for a type name ``onnx.TensorProto`` lacks."""
    return int(getattr(onnx.TensorProto, name.upper(), 0))


def pairs(node: Node, ctx: Ctx, later: Sequence[onnx.defs.OpSchema] = ()) -> list[Pair]:
    """Every element-type variant of ``node`` (:func:`choices`, :func:`combos`, :func:`text_sources`), each a
    pair: static vs symbolic graph input dims; ``detail`` is ``elem.<param>.<type>[.<param>.<type>…]``."""
    from passcheck.generate.variants import variant_pair

    out = []
    several = combos(node, later)
    several += [b for b in text_sources(node, later) if b not in several]
    for bound in [((p, t),) for p, t in choices(node, later)] + several:
        v: Node | None = node
        for p, t in bound:
            v = retyped(v, p, code(t)) if v is not None else None
        if v is not None and _outputs_follow(v):  # CategoryMapper's T2: read off the schema's inference function
            v = settle(v)
        if v is not None:
            detail = ".".join(f"{p}.{t}" for p, t in bound)
            doc = ", ".join(f"{p} bound to {t}" for p, t in bound)
            out.append(variant_pair(f"elem.{detail}", v, f"type constraint {doc}"))
    return out
