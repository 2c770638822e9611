"""Which CPU kernels the installed onnxruntime registers: one answer to "does onnxruntime's CPU provider run
(domain, op) at this schema version with these element types".

Source: onnxruntime's own kernel registry, ``onnxruntime.capi._pybind_state.get_all_opkernel_def()``: per
kernel its op, domain, version range (inclusive; an open end is 2**31 - 1), provider and type constraints
(constraint name → ``tensor(<type>)`` strings). onnxruntime picks a kernel by the node's schema
``since_version`` (the newest schema at or below the model's opset) and its bound element types; a constraint
a kernel does not declare accepts any type. Ops without a kernel whose schema has a function body
(``has_function`` / ``has_context_dependent_function``) are expanded by onnxruntime instead: their body's
nodes decide, not this registry, so they answer None (unknown). Constant is loaded as an initializer.
Read once per onnxruntime version.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

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
    if schema.has_function or getattr(schema, "has_context_dependent_function", False):
        return None
    return False
