"""What an op reads, and whether a form changes it (round 9e, M89).

An operator's type and shape inference function and the kernel a runtime picks are functions of the node's
attributes and of the types of the values it reads (Operators.md: each schema's type constraints and its
inference; IR.md "Static tensor shapes"). Of the generic rewrites and neighbours at a site on an op, the ones that
change those types at the op (a rank hidden behind ``rank-opaque-view``, a rank raised by ``input-rank-up``, a
shape lost through a sequence) reach the paths of the op's own code that the others do not (a renamed node, a doc
string, a neutral ``Add`` of zero leave every type the op reads as it was). :func:`reads` spells them;
:func:`changes_reads` compares a form with its base.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


def reads(model: onnx.ModelProto, op: str) -> tuple[tuple, ...]:
    """Per main-graph node of op type ``op``, in graph order, the inferred type of each value it reads: (element
    type, dims with ``?`` for a dim of no static value, None for no shape) (:func:`.compose.spelt_types`, inference
    with data propagation), ``None`` for an omitted optional input and for a value of no known type."""
    from passcheck.hunt.compose import spelt_types

    types = spelt_types(model)
    return tuple(
        tuple(types.get(name) if name else None for name in n.input) for n in model.graph.node if n.op_type == op
    )


def changes_reads(base: onnx.ModelProto, form: onnx.ModelProto, op: str, before: tuple | None = None) -> bool:
    """Whether ``form`` changes the type of a value a node of op type ``op`` reads, against ``base``: both hold
    the same number of such nodes in their main graph and a node reads another type (or another number of inputs).
    False when the nodes left the main graph (moved into a branch: compared nowhere). ``before``: ``reads(base, op)``
    when known."""
    before, after = reads(base, op) if before is None else before, reads(form, op)
    return len(before) == len(after) and before != after
