"""onnx shape inference and data propagation per (op, since_version), and which a model triggers.

Catalogue: every schema of the ai.onnx and ai.onnx.ml domains onnx defines, at every
``since_version`` (``onnx.defs.get_all_schemas_with_history``), that has a type-and-shape
inference function (kind ``inference``) or a data-propagation function (``data-propagation``).
Each entry's ``scope`` says who runs the op: ``ort`` (a CPU kernel of onnxruntime's covering that
version, ``get_all_opkernel_def``), ``reference`` (``onnx.reference`` loads it), ``function`` (the
schema has a function body onnxruntime expands), joined by ``+``, or ``none``.

Evidence, by effect, on the main graph with its value_info and output types removed
(:func:`passcheck.coverage._graph.stripped`): inference ran for a node when
``onnx.shape_inference.infer_shapes`` gave every output of the node a type; data propagation
when inference with ``data_prop=True`` types a value downstream of the node differently from
inference without it.
"""

from __future__ import annotations

from passcheck.coverage._graph import opsets, since, stripped, typed, types
from passcheck.coverage.entry import Entry, key
from passcheck.runtime.kernels import versions

TOOL = "onnx-shape-inference"
DOMAINS = ("", "ai.onnx.ml")
#: The passes that run every inference function, and those of them that also run the data propagators.
PASSES = (
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "onnx:infer-shapes-data-prop",
    "onnx:infer-shapes-data-prop-strict",
)
DATA_PROP_PASSES = ("onnx:infer-shapes-data-prop", "onnx:infer-shapes-data-prop-strict")


def name(domain: str, op: str, version: int) -> str:
    return f"{domain + '.' if domain else ''}{op}@{version}"


def runs(schema) -> str:
    """Who runs ``schema`` at its since_version (see module docs)."""
    from onnx.reference import ops as reference

    v = schema.since_version
    who = []
    if any(lo <= v <= hi for lo, hi in versions(schema.domain, schema.name)):
        who.append("ort")
    try:
        reference.load_op(schema.domain, schema.name, v)
        who.append("reference")
    except Exception:  # noqa: BLE001 - the reference evaluator has no implementation of this version
        pass
    if schema.has_function or getattr(schema, "has_context_dependent_function", False):
        who.append("function")
    return "+".join(who) or "none"


def catalogue() -> list[Entry]:
    import onnx

    out = []
    for s in sorted(onnx.defs.get_all_schemas_with_history(), key=lambda s: (s.domain, s.name, s.since_version)):
        if s.domain not in DOMAINS or s.deprecated:
            continue
        n, who = name(s.domain, s.name, s.since_version), runs(s)
        if s.has_type_and_shape_inference_function:
            out.append(Entry(TOOL, "inference", n, PASSES, who, "onnx.defs schemas (installed)"))
        if getattr(s, "has_data_propagation_function", False):
            out.append(Entry(TOOL, "data-propagation", n, DATA_PROP_PASSES, who, "onnx.defs schemas (installed)"))
    return out


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every inference and data-propagation function ``model`` triggers."""
    import onnx

    base = stripped(model)
    plain = types(onnx.shape_inference.infer_shapes(base, strict_mode=False, data_prop=False))
    with_dp = types(onnx.shape_inference.infer_shapes(base, strict_mode=False, data_prop=True))
    imports = opsets(model)
    out: dict[str, str] = {}
    nodes = [n for n in model.graph.node if n.domain in DOMAINS or n.domain == "ai.onnx"]
    for n in nodes:
        domain = "" if n.domain == "ai.onnx" else n.domain
        v = since(n.op_type, domain, imports.get(domain))
        if v is None:
            continue
        outs = [o for o in n.output if o]
        if outs and all(o in plain and typed(plain[o]) for o in outs):
            out.setdefault(
                key(TOOL, "inference", name(domain, n.op_type, v)),
                f"infer_shapes typed every output of {n.op_type} node '{n.name}' ({', '.join(outs)})",
            )
    changed = sorted(v for v in with_dp if str(with_dp[v]) != str(plain.get(v)))
    if changed:
        for n in nodes:
            domain = "" if n.domain == "ai.onnx" else n.domain
            v = since(n.op_type, domain, imports.get(domain))
            s = _schema(n.op_type, domain, v)
            if s is None or not getattr(s, "has_data_propagation_function", False):
                continue
            down = _downstream(model, n) & set(changed)
            if down:
                out.setdefault(
                    key(TOOL, "data-propagation", name(domain, n.op_type, v)),
                    f"data_prop=True types {sorted(down)[0]!r} (downstream of {n.op_type} node '{n.name}') "
                    "differently from data_prop=False",
                )
    return out


def _schema(op: str, domain: str, version: int | None):
    import onnx

    if version is None:
        return None
    try:
        return onnx.defs.get_schema(op, version, domain)
    except onnx.defs.SchemaError:
        return None


def _downstream(model, node) -> set[str]:
    """Values computed from ``node``'s outputs (its outputs included), main graph."""
    reached = {o for o in node.output if o}
    for n in model.graph.node:  # nodes are topologically sorted (checker rule)
        if any(i in reached for i in n.input):
            reached.update(o for o in n.output if o)
    return reached
