"""Which nodes draw anew on every run, derived from the operator schemas instead of a hand-kept list.

onnx marks each schema with a ``NodeDeterminism`` (``OpSchema.node_determinism``, onnx >= 1.20). The ops it marks
``NonDeterministic`` in the default domain are, in onnx 1.23: RandomNormal, RandomUniform, their ``*Like`` forms,
Bernoulli, Multinomial (Operators.md: "generate a tensor with random values"), Dropout, If, Loop, Scan, SequenceMap
and AffineGrid. Not all of those draw by themselves:

- If, Loop, Scan and SequenceMap are marked because a body may hold a random op; their bodies are read node by node
  (:func:`passcheck.oracles.numeric.drawn` descends into them), so the mark itself is not a draw.
- AffineGrid computes ``theta`` applied to a fixed grid of positions (Operators.md AffineGrid: "Generates a 2D or 3D
  flow field (sampling grid), given a batch of affine matrices theta"); nothing in its text is random: the mark is
  read as a schema slip and left out.
- Dropout draws its mask only in training mode (Operators.md Dropout-12+: "If ``training_mode`` is true then the
  output Y will be a random dropout"; Dropout-1 / -6: "if ``is_test`` [is zero] ... a random dropout", the
  attribute's default being 0); Dropout-7 and -10 have no mode (inference runs it as a copy). :func:`draws` decides
  that per node.

On an onnx without ``node_determinism`` (the pinned ``onnx-1.16`` … ``onnx-1.19`` environments) the set is
:data:`FALLBACK`, the marks of onnx 1.23 (the ops those versions define are a subset).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

#: The default-domain ops onnx 1.23 marks ``NonDeterministic`` (used where ``node_determinism`` is missing).
FALLBACK = frozenset(
    {
        "AffineGrid",
        "Bernoulli",
        "Dropout",
        "If",
        "Loop",
        "Multinomial",
        "RandomNormal",
        "RandomNormalLike",
        "RandomUniform",
        "RandomUniformLike",
        "Scan",
        "SequenceMap",
    }
)

#: Marked ops that do not draw by themselves, and why (see the module doc).
EXCLUDED = {
    "If": "non-deterministic only through its bodies, which are read node by node",
    "Loop": "non-deterministic only through its body, which is read node by node",
    "Scan": "non-deterministic only through its body, which is read node by node",
    "SequenceMap": "non-deterministic only through its body, which is read node by node",
    "AffineGrid": "Operators.md describes a deterministic grid: the mark reads as a schema slip",
    "Dropout": "draws only in training mode: decided per node by draws()",
}


def marked() -> frozenset[str]:
    """Default-domain op names some schema version of the installed onnx marks ``NonDeterministic``
    (:data:`FALLBACK` when onnx has no ``OpSchema.NodeDeterminism``, or is not importable: the matrix's parent
    process runs without onnx and builds nothing itself)."""
    try:
        import onnx.defs
    except ImportError:
        return FALLBACK
    kind = getattr(onnx.defs.OpSchema, "NodeDeterminism", None)
    if kind is None:
        return FALLBACK
    return frozenset(
        s.name
        for s in onnx.defs.get_all_schemas_with_history()
        if s.domain in ("", "ai.onnx") and s.node_determinism == kind.NonDeterministic
    )


#: Ops that draw on every run whatever their inputs: :func:`marked` less :data:`EXCLUDED`.
RANDOM = marked() - frozenset(EXCLUDED)


def _false(name: str, constants: dict[str, Any]) -> bool:
    """Whether input ``name`` is a known constant whose every element is false / zero."""
    v = constants.get(name)
    return v is not None and not np.asarray(v).any()


def draws(node: Any, constants: dict[str, Any] | None = None, opset: int | None = None) -> bool:
    """Whether ``node`` (a NodeProto) draws on every run: a default-domain op of :data:`RANDOM`, or a Dropout in
    training mode — at ``opset`` 12+ (or unknown) its ``training_mode`` input given and not a known constant false;
    at ``opset`` < 7 its ``is_test`` attribute zero or absent (its default); Dropout-7 / -10 have no training mode.
    A constant ``ratio`` input of 0 keeps every element, so it never draws. ``constants`` maps value names to arrays
    (initializers, Constant outputs) when known; an unknown input counts as possibly true."""
    if node.domain not in ("", "ai.onnx"):
        return False
    if node.op_type in RANDOM:
        return True
    if node.op_type != "Dropout":
        return False
    constants = constants or {}
    inputs = list(node.input)
    if opset is not None and opset < 7:
        return not any(a.name == "is_test" and a.i != 0 for a in node.attribute)
    if len(inputs) > 1 and inputs[1] and _false(inputs[1], constants):
        return False  # ratio 0
    return len(inputs) > 2 and bool(inputs[2]) and not _false(inputs[2], constants)


def constants_of(graph: Any) -> Mapping[str, Any]:
    """``graph``'s initializers and ``Constant(value=...)`` outputs, name → ndarray, each read when asked for
    (:meth:`_Constants.get`): only Dropout's ``ratio`` / ``training_mode`` are, so a model's weights are never
    decoded here; a tensor whose data is not in the model (external data, IR.md §External Tensor Data, or the
    isolation worker's held payloads) reads as unknown (None)."""
    return _Constants(graph)


class _Constants(Mapping):
    """A lazy name → ndarray view of a graph's constants (see :func:`constants_of`)."""

    def __init__(self, graph: Any):
        self._tensors = {t.name: t for t in graph.initializer}
        for n in graph.node:
            if n.op_type == "Constant" and n.domain in ("", "ai.onnx") and len(n.output) == 1:
                for a in n.attribute:
                    if a.name == "value":
                        self._tensors[n.output[0]] = a.t
        self._arrays: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._arrays:
            from onnx import TensorProto, numpy_helper

            t = self._tensors[name]
            external = t.HasField("data_location") and t.data_location == TensorProto.EXTERNAL
            try:
                self._arrays[name] = None if external else numpy_helper.to_array(t)
            except Exception:  # unreadable here: unknown, as an input fed at run time
                self._arrays[name] = None
        if self._arrays[name] is None:
            raise KeyError(name)
        return self._arrays[name]

    def __iter__(self):
        return iter(self._tensors)

    def __len__(self) -> int:
        return len(self._tensors)
