"""Withdrawn schemas: a deprecated version of an op that a later version of the same op supersedes.

Changelog.md marks a schema *deprecated* in two ways. A removal marker is the op's last entry (Upsample-10,
Scatter-11, ai.onnx.ml TreeEnsembleClassifier-5): from its opset on no model may hold the op. A withdrawn version
is deprecated after its release while the op goes on in a later version (GroupNormalization-18, deprecated by
onnx 1.18 in favour of GroupNormalization-21): models written while it was current (onnx 1.16, 1.17 accept them)
hold it, onnxruntime runs them, and the newest checker refuses them with one message, "Op registered for <op> is
deprecated in domain_version of <opset>". docs/VersionConverter.md: the converter takes a model from one opset
to another, one step at a time, and onnx registers a step into the successor's opset, so a withdrawn version is
a source the converter is defined on and the only pass a user has for such a model. The generator left every
deprecated schema out (:func:`passcheck.generate.build.candidates`) and the adapter sources dropped it at the
checker; :func:`withdrawn` tells the two kinds apart. The generator's gate accepts that one refusal for such a
base (:func:`passcheck.generate.deprecated.forgiving`) and the validity oracle reports it on a form as an expected
``validity-disagreement`` (:func:`expected_refusal`): the tools disagree, by onnx's design.
"""

from __future__ import annotations

import re

import onnx
import onnx.defs


def withdrawn(schema: onnx.defs.OpSchema) -> bool:
    """Whether ``schema`` is deprecated and a later ``since_version`` of the same (domain, op) exists in the
    installed onnx (a removal marker, the op's last entry, is not)."""
    if not schema.deprecated:
        return False
    return any(
        s.name == schema.name and s.domain == schema.domain and s.since_version > schema.since_version
        for s in onnx.defs.get_all_schemas_with_history()
    )


def refusal(schema: onnx.defs.OpSchema) -> str:
    """The start of the onnx checker's message refusing a node of a deprecated ``schema`` (``checker.cc``)."""
    return f"Op registered for {schema.name} is deprecated in domain_version of"


_REFUSAL = re.compile(r"Op registered for (\S+) is deprecated in domain_version of (\d+)")


def expected_refusal(message: str) -> str:
    """Why the checker's ``message`` is expected on a valid model, or "" when it is not: it refuses a node of a
    default-domain schema the installed onnx holds as withdrawn (:func:`withdrawn`) and says nothing else."""
    m = _REFUSAL.search(message or "")
    if m is None:
        return ""
    try:
        schema = onnx.defs.get_schema(m.group(1), int(m.group(2)), "")
    except Exception:  # noqa: BLE001 - SchemaError: not a default-domain op this onnx knows
        return ""
    if not withdrawn(schema):
        return ""
    return (
        f"{schema.name}-{schema.since_version} is withdrawn (Changelog.md: deprecated, superseded by a later "
        f"{schema.name}); onnx {onnx.__version__}'s checker refuses every node of it, onnxruntime runs it, and the "
        "version converter carries it forward"
    )
