"""Which CPU kernels the installed onnxruntime registers: one answer to "does onnxruntime's CPU provider run
(domain, op) at this schema version with these element types".

Source: onnxruntime's own kernel registry, ``onnxruntime.capi._pybind_state.get_all_opkernel_def()``: per
kernel its op, domain, version range (inclusive; an open end is 2**31 - 1), provider and type constraints
(constraint name → ``tensor(<type>)`` strings). onnxruntime picks a kernel by the node's schema
``since_version`` (the newest schema at or below the model's opset) and its bound element types; a constraint
a kernel does not declare accepts any type. Ops without a kernel whose schema has a function body
(``has_function`` / ``has_context_dependent_function``) are expanded by onnxruntime instead: their body's
nodes decide (a static body's nodes are looked up in turn, :func:`_body_runs`; a context-dependent one
answers None, unknown), unless a bound type is one the op's own schema rejects (onnxruntime's type check
refuses the model: no run). Constant is loaded as an initializer.
Read once per onnxruntime version.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from passcheck.typestr import schema_type

PROVIDER = "CPUExecutionProvider"
#: ops onnxruntime turns into initializers when it loads the graph (no kernel runs them: graph.cc).
LOADED_AS_INITIALIZERS = frozenset({("", "Constant")})
#: ``(domain, op)`` → [(first version, last version, {constraint: frozenset of type strings})].
Registry = dict[tuple[str, str], list[tuple[int, int, dict[str, frozenset[str]]]]]


def _domain(d: str) -> str:
    return "" if d == "ai.onnx" else d


@functools.cache
def _registry(ort_version: str) -> Registry:
    try:
        from onnxruntime.capi import _pybind_state
    except ImportError:
        return {}
    out: Registry = {}
    for k in _pybind_state.get_all_opkernel_def():
        if k.provider == PROVIDER:
            lo, hi = k.version_range
            types = {name: frozenset(allowed) for name, allowed in k.type_constraints.items()}
            out.setdefault((_domain(k.domain), k.op_name), []).append((lo, hi, types))
    return out


def registry() -> Registry:
    """The installed onnxruntime's CPU kernels (see module docs); empty when onnxruntime is not installed."""
    from passcheck._versions import tool_version

    return _registry(tool_version("onnxruntime") or "")


def versions(domain: str, op: str) -> list[tuple[int, int]]:
    """The (first, last) schema versions of ``op``'s CPU kernels, inclusive."""
    return [(lo, hi) for lo, hi, _ in registry().get((_domain(domain), op), ())]


def has_cpu_kernel(domain: str, op: str, since_version: int, types: Mapping[str, str] | None = None) -> bool | None:
    """Whether onnxruntime's CPU provider registers a kernel for ``op`` of ``domain`` (``""`` for ai.onnx) at
    schema ``since_version`` whose type constraints accept ``types`` (constraint name → ``tensor(<type>)``,
    the node's bound types; names a kernel does not declare are not compared). None when no kernel covers the
    version but the schema has a function body onnxruntime expands (its body decides)."""
    if (_domain(domain), op) in LOADED_AS_INITIALIZERS:
        return True
    found = False
    for lo, hi, allowed in registry().get((_domain(domain), op), ()):
        if lo <= since_version <= hi:
            found = True
            if all(t in allowed[name] for name, t in (types or {}).items() if name in allowed):
                return True
    if found:
        return False
    import onnx

    try:
        schema = onnx.defs.get_schema(op, since_version, _domain(domain))
    except Exception:  # noqa: BLE001 - an op onnx does not know: no kernel, no function
        return False
    # a type the op's own constraint rejects: onnxruntime refuses the model at load (Graph::Resolve's type
    # check) before it would expand the body, whose nodes may accept it (HardSwish-14's Mul on int32)
    allowed = {c.type_param_str: c.allowed_type_strs for c in schema.type_constraints}
    if any(name in allowed and t not in allowed[name] for name, t in (types or {}).items()):
        return False
    if schema.has_function:
        return _body_runs(schema, types or {})
    if getattr(schema, "has_context_dependent_function", False):
        return None
    return False


def _body_runs(schema, types: Mapping[str, str]) -> bool | None:
    """Whether every node of ``schema``'s function body has a CPU kernel (None: one it cannot tell), each
    body node's type variables taking the outer node's one bound type where the body node's schema allows
    it (a body of elementwise ops on the outer ``T``: HardSwish's HardSigmoid and Mul)."""
    import onnx

    outer = set(types.values())
    body = schema.function_body
    versions = {o.domain: o.version for o in body.opset_import}
    if len(outer) != 1:
        return None
    (t,) = outer
    answer: bool | None = True
    for n in body.node:
        try:
            inner = onnx.defs.get_schema(n.op_type, versions.get(n.domain, 0), n.domain)
        except Exception:  # noqa: BLE001 - a body op onnx does not know at that version: cannot tell
            return None
        bound = {c.type_param_str: t for c in inner.type_constraints if t in c.allowed_type_strs}
        found = runs_on_cpu(n.domain, n.op_type, inner.since_version, bound)
        if found is False:
            return False
        if found is None:
            answer = None
    return answer


def bound_types(node, schema, elem_of) -> dict[str, str]:
    """``node``'s type variables bound to ``tensor(<type>)`` strings: each variable of ``schema`` (an
    ``onnx.defs.OpSchema``) takes the element type (``elem_of(value name) -> TensorProto code``, 0 unknown)
    of the first value at a formal of that type (a variadic formal's type repeats); unknown ones left out."""

    names = {c.type_param_str for c in schema.type_constraints}
    out: dict[str, str] = {}
    for values, formals in ((node.input, schema.inputs), (node.output, schema.outputs)):
        for i, v in enumerate(values):
            if not v or not formals:
                continue
            t = formals[min(i, len(formals) - 1)].type_str
            if t in names and t not in out and (elem := elem_of(v)):
                out[t] = schema_type(elem)
    return out


def node_has_cpu_kernel(node, schema, elem_of) -> bool | None:
    """:func:`has_cpu_kernel` for ``node`` with :func:`bound_types` (``schema``: the node's at the model's
    opset)."""
    return has_cpu_kernel(node.domain, node.op_type, schema.since_version, bound_types(node, schema, elem_of))


def node_runs_on_cpu(node, schema, elem_of) -> bool | None:
    """:func:`runs_on_cpu` for ``node`` with :func:`bound_types` (``schema``: the node's at the model's opset)."""
    return runs_on_cpu(node.domain, node.op_type, schema.since_version, bound_types(node, schema, elem_of))


def runs_on_cpu(domain: str, op: str, since_version: int, types: Mapping[str, str] | None = None) -> bool | None:
    """Whether onnxruntime's CPU provider runs ``op`` with ``types`` bound (as :func:`has_cpu_kernel` takes them):
    a kernel for them, or, when a type variable of one of its inputs is bound to float16, one for them with every
    float16 read as float. onnxruntime's ``InsertCastTransformer`` (onnxruntime/core/optimizer/
    insert_cast_transformer.cc, run whatever the optimization level) gives a node no kernel took that has a float16
    *input* Casts to float on its float16 inputs and back on its float16 outputs (and a float16 ``dtype`` attribute
    set to float); a node whose float16 is on outputs only (RandomNormal's ``dtype``, EyeLike's ``T2``) gets none.
    onnxruntime 1.32.0 registers no float16 Add-14 and runs it so. The registry lists kernels, not this fallback: a
    caller asking "does onnxruntime run it" asks here, not :func:`has_cpu_kernel`."""
    found = has_cpu_kernel(domain, op, since_version, types)
    half = {k for k, t in (types or {}).items() if t == "tensor(float16)"}
    if found is not False or not half or not half & _input_params(domain, op, since_version):
        return found
    as_float = {k: "tensor(float)" if k in half else t for k, t in (types or {}).items()}
    return has_cpu_kernel(domain, op, since_version, as_float)


def _input_params(domain: str, op: str, since_version: int) -> set[str]:
    """The type variables (or fixed types) of ``op``'s input formals at schema ``since_version``; empty when onnx
    does not know the op."""
    import onnx

    try:
        schema = onnx.defs.get_schema(op, since_version, _domain(domain))
    except Exception:  # noqa: BLE001 - an op onnx does not know: no formals to read
        return set()
    return {f.type_str for f in schema.inputs}
