"""The generator's side of withdrawn schemas (:mod:`passcheck.oracles.withdrawn`: a deprecated version of an op that
a later version supersedes): the gate of a version-converter source accepts the checker's refusal of such a node
for the deprecation alone (:func:`forgiving`), so the source becomes a base searched under the converters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import onnx
import onnx.defs

from passcheck.oracles.withdrawn import refusal, withdrawn

#: The checker as the gate calls it: ``model → message | None``.
Check = Callable[[onnx.ModelProto], Any]


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
        if type(err) is str and text in err:  # a CheckerDied (a str subclass) is never forgiven
            return None
        return err

    return check
