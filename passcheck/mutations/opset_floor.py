"""The default-domain opset stamp moved below schema versions whose change no node of the model uses.

``opset-stamp-down`` stops at the newest ``since_version`` among the model's ops: the stamp where every
op keeps the very schema it has. Versioning.md ("Operator versioning") gives an op a new version for
any change of its signature, an added optional attribute whose default keeps the earlier meaning
included — likewise a trailing optional input or output, and a type added to a constraint. A node
that sets none of what a later version added means the same under the earlier schema, so the model
may carry the lower stamp (IR.md
§Operator Sets: a node follows the schema with the highest ``since_version`` not above the stamp).

A schema step between two consecutive versions of an op is taken only when it *only adds*
(:func:`additions_only`): the same inputs, outputs and attributes (names, types, options, defaults),
plus optional attributes, trailing optional inputs or outputs, an input turned optional, or types. A
step that adds nothing (a change of meaning under one signature: Conv-1 → -11's ``auto_pad``,
Gather-1 → -11's negative indices) or changes or removes anything stops the stamp. So does a node that
sets an added attribute, feeds an added input or omits one the earlier version requires (Gemm-9's
``C``); and a node with an operand past its first not known to be a scalar stops at a step that added
an attribute (the attribute may select how such an operand is read: QuantizeLinear-13's ``axis`` over a
1-D scale). Node types are checked at the target
(:func:`passcheck.mutations._opsets.data_types_allowed`). Site: ``opset_import``; offered only where
it reaches below ``opset-stamp-down``'s target. Models with model-local functions are left alone.

``opset-stamp-above`` (round 17a, M315) takes the same steps the other way: the stamp raised over versions
that only add, so each node resolves to a newer schema that means the same for it (IR.md §Operator Sets). A
pass that matches ops by a list of versions (onnxruntime's ``IsSupportedOptypeVersionAndDomain``) meets the
newer ``since_version``; one whose list omits it leaves the pattern alone. Capped by what every supported
environment knows (the opsets of the newest portable IR version); where the target needs a newer IR version
than the model's, the IR version is raised with it (IR.md §ONNX Versioning: a newer IR reads every older
model's constructs the same way; :func:`passcheck.mutations.ir_version.raise_ir`). Offered only where it
reaches above ``opset-stamp-up``'s target.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, opset
from passcheck.mutations._only import wanted
from passcheck.mutations._opsets import data_types_allowed, highest_opset, schema, set_default_opset
from passcheck.mutations.ir_version import portable_ir, raise_ir
from passcheck.mutations.opset_stamp import OLDEST, SITE, up_target
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx


def _nodes(graph: onnx.GraphProto) -> Iterator[onnx.NodeProto]:
    import onnx

    for n in graph.node:
        yield n
        for a in n.attribute:
            if a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS):
                for g in [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs):
                    yield from _nodes(g)


def _params(ps) -> list[tuple]:
    return [(p.name, p.type_str, p.option) for p in ps]


def _extends(old: list[tuple], new: list[tuple]) -> bool:
    """``new`` is ``old`` with trailing optional params added and params turned optional (index 2: option)."""
    opt = 1  # onnx.defs.OpSchema.FormalParameterOption.Optional
    if len(new) < len(old) or any(n[2] != opt for n in new[len(old) :]):
        return False
    return all(o[:2] == n[:2] and (o[2] == n[2] or n[2] == opt) for o, n in zip(old, new, strict=False))


def _attrs(s) -> dict[str, tuple]:
    return {
        a.name: (a.type, a.required, a.default_value.SerializeToString(deterministic=True))
        for a in s.attributes.values()
    }


def _types(s) -> dict[str, set[str]]:
    return {t.type_param_str: set(t.allowed_type_strs) for t in s.type_constraints}


def additions_only(old, new) -> bool:
    """Whether schema ``new`` only adds to ``old`` (see the module doc) and adds something."""
    ins, outs = (_params(old.inputs), _params(new.inputs)), (_params(old.outputs), _params(new.outputs))
    a, b = _attrs(old), _attrs(new)
    ta, tb = _types(old), _types(new)
    kept = (
        _extends(*ins)
        and _extends(*outs)
        and all(b.get(k) == v for k, v in a.items())
        and not any(b[k][1] for k in b.keys() - a.keys())
        and ta.keys() <= tb.keys()
        and all(ta[k] <= tb[k] for k in ta)
    )
    return kept and (ins[0] != ins[1] or outs[0] != outs[1] or a != b or ta != tb)


def _versions(op: str, lo: int, hi: int) -> list:
    """The distinct schemas of ``op`` selected by opsets ``lo`` .. ``hi``, oldest first."""
    out: list = []
    for v in range(lo, hi + 1):
        s = schema(op, v)
        if s is not None and (not out or out[-1].since_version != s.since_version):
            out.append(s)
    return out


def _used(slots, count: int) -> bool:
    return any(name for name in list(slots)[count:])


def _omits_required(node: onnx.NodeProto, old) -> bool:
    """``node`` leaves out an input ``old`` requires (one a later version turned optional)."""
    given = list(node.input)
    single = 0  # onnx.defs.OpSchema.FormalParameterOption.Single
    return any(p.option == single and (i >= len(given) or not given[i]) for i, p in enumerate(old.inputs))


def node_keeps(node: onnx.NodeProto, current: int, target: int, scalars: Collection[str]) -> bool:
    """Whether ``node`` (ai.onnx) means under opset ``target`` what it means under ``current``.

    Args:
        scalars: value names known (shape inference, initializers) to be rank 0.
    """
    if schema(node.op_type, target) is None:
        return False
    steps = _versions(node.op_type, target, current)
    for old, new in zip(steps, steps[1:], strict=False):
        if not additions_only(old, new):
            return False
        added = _attrs(new).keys() - _attrs(old).keys()
        if added & {a.name for a in node.attribute}:
            return False
        if _used(node.input, len(old.inputs)) or _used(node.output, len(old.outputs)) or _omits_required(node, old):
            return False
        if added and any(name and name not in scalars for name in list(node.input)[1:]):
            return False
    return True


def _scalars(model: onnx.ModelProto) -> set[str]:
    try:
        inferred = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - ranks unknown: none counts as a scalar
        return set()
    out = {t.name for t in model.graph.initializer if not len(t.dims)}
    for v in [*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output]:
        tt = v.type.tensor_type
        if v.type.HasField("tensor_type") and tt.HasField("shape") and not len(tt.shape.dim):
            out.add(v.name)
    return out


def floor(model: onnx.ModelProto) -> int | None:
    """The lowest stamp (not below 7) every default-domain node keeps its meaning at, or None when that is
    no lower than ``opset-stamp-down``'s (the newest ``since_version`` among the model's ops)."""
    v = opset(model)
    nodes = [n for n in _nodes(model.graph) if n.domain in ("", "ai.onnx")]
    if not v or not nodes or len(model.functions) or any(schema(n.op_type, v) is None for n in nodes):
        return None
    down = max([OLDEST] + [schema(n.op_type, v).since_version for n in nodes])
    scalars = _scalars(model)
    t = down
    while t - 1 >= OLDEST and all(node_keeps(n, v, t - 1, scalars) for n in nodes):
        t -= 1
    while t < down and not data_types_allowed(model, nodes, t):
        t += 1
    return t if t < down else None


def ceiling(model: onnx.ModelProto) -> int | None:
    """The highest stamp (within :func:`~passcheck.mutations._opsets.highest_opset` of the newest portable IR
    version) every default-domain node keeps its meaning at, or None when that is no higher than
    ``opset-stamp-up``'s."""
    v = opset(model)
    nodes = [n for n in _nodes(model.graph) if n.domain in ("", "ai.onnx")]
    if not v or not nodes or len(model.functions) or any(schema(n.op_type, v) is None for n in nodes):
        return None
    level = up_target(model) or v
    scalars = _scalars(model)
    t, cap = v, highest_opset(max(model.ir_version, portable_ir()))
    while t + 1 <= cap and all(schema(n.op_type, t + 1) and node_keeps(n, t + 1, v, scalars) for n in nodes):
        t += 1
    return t if t > level else None


def below(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """The stamp → the lowest opset at which every node keeps its meaning (see the module doc)."""
    if not wanted(only, SITE) or (t := floor(model)) is None:
        return []
    set_default_opset(model, t)
    return [SITE]


def above(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """The stamp → the highest opset at which every node keeps its meaning (see the module doc)."""
    import onnx

    if not wanted(only, SITE) or (t := ceiling(model)) is None:
        return []
    if highest_opset(model.ir_version) < t:  # the IR version that goes with the target (VERSION_TABLE)
        raise_ir(model, min(row[1] for row in onnx.helper.VERSION_TABLE if row[2] >= t))
    set_default_opset(model, t)
    return [SITE]


REWRITES = (
    Rewrite(
        "opset-stamp-below",
        "default-domain opset → below the versions whose additions no node uses (Versioning.md)",
        below,
        inverse="opset-stamp-up",
        detail="opset stamps",
    ),
    Rewrite(
        "opset-stamp-above",
        "default-domain opset → above the versions whose additions no node uses (Versioning.md)",
        above,
        inverse="opset-stamp-below",
        detail="opset stamps",
    ),
)
