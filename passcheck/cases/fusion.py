"""Fusion-pattern cases: the chain an exporter emits for one computation, and its valid respellings.

onnxruntime's graph transformers (fusions) match node chains by op type, operand position and
constant value. A fusion case names the transformer it targets (the last line of its doc, see
:data:`TARGET`, and the tag ``ort-<name in lower case>``; names from
passcheck/attribution/ort_transformers.json) and states that the common form is fused at that
transformer's level (an :class:`~passcheck.cases.Expectation` on ``ort:<level>`` and every higher
level). Uncommon forms compute the same values; whether each is fused too is for the parity and
numeric oracles to report.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from passcheck._versions import ir_version_for
from passcheck.case_model import COMMON, Case, Expectation
from passcheck.cases._registry import REGISTRY
from passcheck.cases.builders import tensor, text_form
from passcheck.passes import DEFAULT_PASSES

#: ORT optimizer levels in order; a level runs every lower one too.
LEVELS = ("basic", "extended", "all")
#: dtype name in textual syntax → numpy dtype of the initializers.
DTYPES = {"float": np.float32, "float16": np.float16, "double": np.float64}
#: Default tolerances by dtype for cases whose forms round differently (fp16 accumulates in fp16
#: in a decomposed chain, in fp32 inside a fused kernel).
TOLERANCES = {"float16": (2e-2, 2e-2)}


def transformer_tag(transformer: str) -> str:
    """The selection tag of a transformer's cases: ``ort-`` and its name in lower case, ``_`` as ``-``
    (``ort-layernormfusion``, ``ort-pad-fusion``)."""
    return f"ort-{transformer.lower().replace('_', '-')}"


#: "Targets onnxruntime's <Name> (ort:<level>)." closes every fusion case's doc.
TARGET = re.compile(r"Targets onnxruntime's (\w+) \(ort:(\w+)\)\.$")


def expect_fused(transformer: str, level: str, gone: Sequence[str], form: str = COMMON) -> tuple[Expectation, ...]:
    """Expectations that ``gone`` op types are absent after ``ort:<level>`` and every higher level.

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    start = LEVELS.index(level)
    reason = f"{transformer} runs at ort:{level}"
    return tuple(
        Expectation(pass_id=f"ort:{lv}", form=form, no_op_types=tuple(gone), reason=reason, transformer=transformer)
        for lv in LEVELS[start:]
    )


def _initializers(consts: Mapping[str, object], body: str, dtype: str):
    """TensorProtos for the constants ``body`` names; float constants take ``dtype``, others keep theirs."""
    import onnx

    def build():
        out = []
        for name, value in consts.items():
            if not re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", body):
                continue
            if callable(value):  # a fixed dtype (the float32 constants of an upcast chain), or a TensorProto (int4)
                made = value()
                if isinstance(made, onnx.TensorProto):
                    made.name = name
                    out.append(made)
                    continue
                arr = np.asarray(made)
            else:
                arr = np.asarray(value)
                arr = arr.astype(DTYPES[dtype]) if arr.dtype.kind == "f" else arr
            out.append(tensor(name, arr))
        return out

    return build


def fusion_case(
    case_id: str,
    *,
    transformer: str,
    level: str,
    doc: str,
    signature: str,
    forms: Mapping[str, tuple],
    consts: Mapping[str, object] | None = None,
    gone: Sequence[str] = (),
    opset: int = 17,
    dtype: str = "float",
    bindings=({"N": 1}, {"N": 3}),
    tags: Sequence[str] = (),
    rtol: float | None = None,
    atol: float | None = None,
    expect: Sequence[Expectation] = (),
    feeds=None,
    extra_opsets: Mapping[str, int] | None = None,
    targets: Sequence[str] = (),
) -> Case:
    """Register a fusion case.

    Args:
        case_id: ``family/name``.
        transformer: the onnxruntime transformer the chain targets (e.g. ``LayerNormFusion``).
        level: ``basic``, ``extended`` or ``all``: where that transformer runs.
        signature: ``(inputs) => (outputs)`` in ONNX textual syntax; ``T`` stands for ``dtype``.
        forms: form name → ``(nodes, doc)`` or ``(nodes, doc, opset)``; ``T`` in the nodes is
            replaced by the dtype's TensorProto number (for ``Cast <to = T>``).
        consts: initializer name → values; each form gets only the ones its nodes name. Float
            array-likes are stored as ``dtype``; a callable's array keeps its own dtype, and a callable
            may return a TensorProto (elem_types numpy lacks, e.g. int4), renamed to the key.
        gone: op types the transformer removes from the common form (empty: no expectation).
        opset: the default-domain opset of the forms that name none; the case's opset is the
            highest any form imports.
        dtype: ``float``, ``float16`` or ``double``: the elem_type ``T`` stands for.
        bindings, tags, rtol, atol: as in :class:`Case` (``float16`` defaults to :data:`TOLERANCES`).
        expect: further expectations.
        feeds: the case's feed function (:data:`~passcheck.cases.FeedFn`), when random normal
            feeds do not fit (masks).
        extra_opsets: further opset imports, domain → version (``{"ai.onnx.ml": 4}``).
        targets: further transformers or rules the common form triggers (each adds its tag).

    The case's ``passes`` are :data:`~passcheck.passes.DEFAULT_PASSES` (every ORT level among them),
    so a run without ``--pass`` runs the transformer's level and the ones above it.

    Raises:
        RegistryError: the id is taken or the case is malformed (see :class:`Case`).
        KeyError: ``dtype`` is not one of :data:`DTYPES`.
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    import onnx

    tp = onnx.TensorProto
    elem = {"float": tp.FLOAT, "float16": tp.FLOAT16, "double": tp.DOUBLE}[dtype]
    sig = re.sub(r"\bT\[", f"{dtype}[", signature)
    built = {}
    for name, spec in forms.items():
        body, fdoc, form_opset = (*spec, opset)[:3]
        body = re.sub(r"\bto = T\b", f"to = {elem}", body)
        built[name] = text_form(
            f"g {sig} {{\n{body}\n}}",
            fdoc,
            opset=form_opset,
            initializers=_initializers(consts or {}, body, dtype),
            extra_opsets=extra_opsets,
        )
    d_rtol, d_atol = TOLERANCES.get(dtype, (None, None))
    expectations = (expect_fused(transformer, level, gone) if gone else ()) + tuple(expect)
    top = max((*spec, opset)[2] for spec in forms.values())
    lo = min((*spec, opset)[2] for spec in forms.values())
    valid = f"Valid: opset {lo}" + (f" to {top}" if top != lo else "") + f" (ir_version {ir_version_for(lo)}+)."
    return REGISTRY.register(
        Case(
            id=case_id,
            forms=built,
            opset=top,
            bindings=bindings,
            doc=f"{doc.strip()}\n{valid}\n\nTargets onnxruntime's {transformer} (ort:{level}).",
            tags=frozenset({"fusion", transformer_tag(transformer), *map(transformer_tag, targets), *tags}),
            expect=expectations,
            passes=DEFAULT_PASSES,
            feeds=feeds,
            rtol=rtol if rtol is not None else d_rtol,
            atol=atol if atol is not None else d_atol,
        )
    )
