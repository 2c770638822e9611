"""An attribute value that changes how many outputs its node must write (round 19g, M405).

A schema may tie a node's output count to an attribute's value. BatchNormalization-14 and -15 list ``Y`` and the
optional ``running_mean`` and ``running_var`` (Operators.md), and onnx's inference for them refuses a node whose
output count disagrees with ``training_mode``: "This number of op outputs should be 3 when Training_mode = True"
(and 1 when false). IR.md lets a node output be read by nobody and lets a trailing optional output be omitted, so
the same computation at the flag's other value is one output list away. The attribute neighbours of
:mod:`.variation` set only the attribute: ``attr-training_mode=1`` on the library's one-output BatchNormalizations was
refused by the checker every time (``invalid-variation``), so no neighbour held a batch-statistics
BatchNormalization for a fusion that folds the running statistics into a Conv or Gemm (docs/found.md row 1150).

:func:`fit` asks onnx's own node inference (``onnx.shape_inference.infer_node_outputs``) which output count the
changed node accepts: the count it has first, then each other count the schema allows (``min_output`` to
``max_output``), nearest first. Outputs are added at the end under fresh names, unread; outputs are removed only
from the end and only when nothing reads them and no graph output names them. Nothing else changes, so the
neighbour computes what the attribute's new value makes the op compute, and the unoptimized run judges it.
"""

from __future__ import annotations

from typing import Any

#: The most outputs :func:`fit` writes for one node (a variadic schema's ``max_output`` is 2**31 - 1).
MOST = 8


def _accepts(schema: Any, node: Any, types: dict[str, Any]) -> bool:
    import onnx

    try:
        onnx.shape_inference.infer_node_outputs(schema, node, types)
    except Exception:  # noqa: BLE001 - onnx's inference refuses the node as it is written (InferenceError and kin)
        return False
    return True


def _counts(schema: Any, now: int) -> list[int]:
    """The output counts the schema allows other than ``now``, nearest first (ties: more outputs first)."""
    top = min(schema.max_output, MOST)
    return sorted((c for c in range(max(schema.min_output, 1), top + 1) if c != now), key=lambda c: (abs(c - now), -c))


def fit(model: Any, node: Any, schema: Any, types: dict[str, Any]) -> bool:
    """Give ``node`` (a node of ``model``'s main graph, changed in place) the output count onnx's inference accepts
    for its attributes as they now are.

    ``schema``: the node's OpSchema; ``types``: value name → TypeProto of at least the node's inputs (an input
    without a type leaves the node as it is). Returns True when the node is accepted (as it was, or with outputs
    added at the end as ``<node>__out<i>``, or trailing unread outputs removed), False when no allowed count is
    accepted or the inputs' types are unknown; the node is unchanged then. Raises nothing.
    """
    if schema is None:
        return False
    known = {n: types[n] for n in node.input if n and n in types}
    if any(n and n not in known for n in node.input):
        return False
    if _accepts(schema, node, known):
        return True
    now = len(node.output)
    read = {i for n in model.graph.node for i in n.input} | {o.name for o in model.graph.output}
    taken = (
        {o for n in model.graph.node for o in n.output}
        | {i.name for i in model.graph.input}
        | {t.name for t in model.graph.initializer}
    )
    for count in _counts(schema, now):
        if count < now and any(o in read for o in node.output[count:]):
            continue
        kept = list(node.output)
        base = node.name or node.op_type
        fresh = [f"{base}__out{i}" for i in range(now, count)]
        if set(fresh) & taken:
            continue
        del node.output[:]
        node.output.extend(kept[:count] + fresh)
        if _accepts(schema, node, known):
            return True
        del node.output[:]
        node.output.extend(kept)
    return False
