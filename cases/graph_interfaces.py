"""graph-interface/*: graph outputs that are not plain shaped tensors (seed 001).

IR.md "Graphs" and "Static tensor shapes": a graph output's type may be a sequence
(``sequence_type``) or an optional (``optional_type``, IR version 8+), and a tensor type's
``shape`` field is optional ("the shape of a tensor may be left unspecified"). Passes that read
``graph.output[i].type.tensor_type.shape`` without looking, or rebuild outputs as tensors,
mistreat these interfaces.
"""

from __future__ import annotations

import dataclasses

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

FAMILY = "graph-interface"
OPSET = 18
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
)
BINDINGS = ({"N": 1}, {"N": 3})


def _case(name, doc, sig, forms, tags, edit=None):
    built = text_forms(sig, "", forms, opset=OPSET)
    if edit:
        built = {n: dataclasses.replace(f, build=(lambda b=f.build, n=n: edit(n, b()))) for n, f in built.items()}
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms=built,
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset(tags),
        )
    )


_case(
    "sequence-output",
    """A sequence-typed graph output [a, b]: SequenceConstruct vs SequenceEmpty + SequenceInsert.

Uncommon: the graph output is seq(tensor(float)) (IR.md: a graph output may have any type;
Operators.md SequenceConstruct, SequenceEmpty, SequenceInsert, opset 11+).
Valid: opset 11+ (here 18, ir_version 8).""",
    "(float[N,3] a, float[N,3] b) => (seq(float[N,3]) s)",
    {
        "common": ("s = SequenceConstruct(a, b)", ""),
        "insert": (
            "e = SequenceEmpty <dtype = 1> ()\ns1 = SequenceInsert(e, a)\ns = SequenceInsert(s1, b)",
            "built element by element from an empty sequence",
        ),
    },
    {"non-tensor", "sequence", "graph-output"},
)

_case(
    "optional-output",
    """An optional-typed graph output holding x: Optional(x) vs Identity of an optional.

Uncommon: the graph output is optional(tensor(float)) (IR.md: optional_type, IR version 8;
Operators.md Optional-15, Identity-16 accepts optionals). Passes must keep the output optional.
Valid: opset 16+ (here 18, ir_version 8).""",
    "(float[N,3] x) => (optional(float[N,3]) o)",
    {
        "common": ("o = Optional(x)", ""),
        "identity": (
            "r = Relu(x)\nt = Sub(x, r)\ny = Add(r, t)\no1 = Optional(y)\no = Identity(o1)",
            "the optional produced by Identity, from x rebuilt as Relu(x) + (x - Relu(x))",
        ),
    },
    {"non-tensor", "optional", "graph-output"},
)


def _drop_output_shape(form: str, model):
    """The ``no-shape`` form: the graph output's tensor type keeps elem_type, loses ``shape``."""
    if form == "no-shape":
        model.graph.output[0].type.tensor_type.ClearField("shape")
    return model


_case(
    "output-without-shape",
    """Relu(x) + x with the graph output typed float[N,3] vs float with no shape field.

Uncommon: the output's tensor_type has elem_type but no shape field (IR.md "Static tensor
shapes": the shape may be left unspecified, which is not the same as rank 0).
Passes that read the output's dims, or write a shape there, must handle the absent field.
Valid: every IR version (here ir_version 8, opset 18).""",
    "(float[N,3] x) => (float[N,3] y)",
    {
        "common": ("r = Relu(x)\ny = Add(r, x)", ""),
        "no-shape": ("r = Relu(x)\ny = Add(r, x)", "graph output type without a shape field"),
    },
    {"graph-output"},
    edit=_drop_output_shape,
)
