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
checker; :func:`withdrawn` tells the two kinds apart and :func:`forgiving` lets the gate accept that one refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import onnx
import onnx.defs

#: The checker as the gate calls it: ``model → message | None``.
Check = Callable[[onnx.ModelProto], Any]


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


def forgiving(checker: Check, schema: onnx.defs.OpSchema) -> Check:
    """``checker`` (``model → message | None``, :class:`~passcheck.oracles.validity.Checker`), except that its
    refusal of a node of the withdrawn ``schema`` for the deprecation alone counts as acceptance (None).

    The checker stops at that refusal, so the node's other checks are not made here: the gate's onnxruntime
    and reference-evaluator runs judge the base, and the checker of an onnx that predates the deprecation
    (the pinned onnx 1.16 / 1.17 environments' ``input`` cell) judges it in full.

    Raises:
        ValueError: ``schema`` is not withdrawn (:func:`withdrawn`): nothing to forgive.
    """
    if not withdrawn(schema):
        raise ValueError(f"{schema.name}-{schema.since_version} is not a withdrawn schema")
    text = refusal(schema)

    def check(model: onnx.ModelProto) -> Any:
        err = checker(model)
        if isinstance(err, str) and type(err) is str and text in err:
            return None
        return err

    return check
