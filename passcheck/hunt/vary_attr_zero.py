"""A float attribute at zero: the value at which a factor erases the term it scales (round 18e, M359).

Operators.md gives each float attribute its place in its op's formula, and most are a factor or an offset that no
schema bounds away from zero: Gemm's ``alpha`` and ``beta`` (``Y = alpha * A' * B' + beta * C``), LeakyRelu's,
Elu's, HardSigmoid's and ThresholdedRelu's ``alpha``, Selu's ``gamma``, LRN's ``alpha`` and ``beta``, Shrink's
``lambd``. At zero the scaled term is absent from the result while its input is still read, so a pass that derives
something from the factor and that input's values (a quantizer giving a Gemm bias the scale
``input_scale * weight_scale * beta``, a fusion folding ``beta * C`` into a constant) divides by, or multiplies
away, a value its own matching never met. The attribute neighbours of :mod:`.variation` move a float attribute by
1 %, by a power of two, or from zero to ½, and never to zero, so no neighbour held such a node; this module lists
the zero, and :func:`.variation.neighbours` offers it beyond each kind's sample, as it does an op version's added
values: one site per (node, attribute), the degenerate member of the attribute's domain.

Left out, as ``value-zero`` leaves a ``y_scale`` alone: an attribute the formula divides by, where zero gives
``x / 0``, a value the spec does not state, so a pass and the unoptimized run may both be right and differ. These
are every ``epsilon`` (added to a variance whose square root divides: BatchNormalization, LayerNormalization,
InstanceNormalization, GroupNormalization, RMSNormalization), Celu's ``alpha`` (``x / alpha``) and LRN's ``bias``
(the base of the divisor ``(bias + alpha / size * square_sum) ^ beta``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

#: The label of the zero in a site ``<node>=<value>`` (the spelling :func:`float` reads back).
ZERO = "0"
#: Float attributes every op's formula divides by (module docs).
DIVIDING_NAMES = frozenset({"epsilon"})
#: (op type, attribute) pairs whose formula divides by the attribute (Operators.md Celu, LRN).
DIVIDING = frozenset({("Celu", "alpha"), ("LRN", "bias")})


def offers_zero(op_type: str, name: str, current: Any) -> bool:
    """Whether a FLOAT attribute ``name`` of ``op_type`` now holding ``current`` (the written value or the schema's
    default) gets a zero neighbour: it is a non-zero float and not one the formula divides by (module docs)."""
    return (
        isinstance(current, float) and current != 0 and name not in DIVIDING_NAMES and (op_type, name) not in DIVIDING
    )


def sites(model, schema_of: Callable[[Any], Any]) -> Iterator[tuple[str, str]]:
    """``(attr-<name>, <node>=0)`` of every FLOAT attribute of a main-graph node of ``model`` (node-named) that
    :func:`offers_zero`; ``schema_of(node)``: its ``onnx.defs`` schema or None (an op no schema states is
    skipped). Written and defaulted attributes alike: a default is the value the node holds."""
    import onnx
    from onnx import helper

    for node in model.graph.node:
        schema = schema_of(node)
        if schema is None:
            continue
        written = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        for name, spec in schema.attributes.items():
            if spec.type != onnx.AttributeProto.FLOAT:
                continue
            default = spec.default_value
            if name in written:
                current = written[name]
            elif default is not None and default.type != onnx.AttributeProto.UNDEFINED:
                current = helper.get_attribute_value(default)
            else:
                continue
            if offers_zero(node.op_type, name, current):
                yield f"attr-{name}", f"{node.name}={ZERO}"
