"""axes/*: the same axis written negative vs positive, as an attribute vs as an input, or implied.

Operators.md: Concat, Gather, Softmax, Flatten, Split, Unsqueeze and the Reduce ops accept
negative axes counting from the back (``axis + rank``) since opset 11/13. ReduceSum (opset 13),
Unsqueeze and Squeeze (opset 13) take ``axes`` as an input where older opsets had an attribute;
the other Reduce ops follow at opset 18. Transpose without ``perm`` reverses the dims. A pass
that normalizes axes, or reads only the attribute, handles one spelling and not the other.
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
    "onnx:convert-opset-18",
)
BINDINGS = ({"N": 1}, {"N": 3})


def _case(name, doc, sig, consts, forms, opset=13, **kw):
    register(
        Case(
            id=f"axes/{name}",
            forms=text_forms(sig, consts, forms, opset=opset),
            doc=doc,
            opset=opset,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"axes"}) | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "concat-negative",
    """Concat of x, y: [N, 2, 3] on axis 1 vs axis -2.

Uncommon: a negative axis (Operators.md Concat, opset 11+: axis in [-r, r-1]).
Valid: opset 11+ (here 13).""",
    "(float[N,2,3] x, float[N,2,3] y) => (float[N,4,3] z)",
    "",
    {"common": ("z = Concat <axis = 1> (x, y)", ""), "negative": ("z = Concat <axis = -2> (x, y)", "axis=-2")},
)

_case(
    "gather-negative",
    """Gather of columns [2, 0] of x: [N, 3] on axis 1 vs axis -1, indices positive vs negative.

Uncommon: a negative axis and negative indices (Operators.md Gather, opset 13: axis in [-r, r-1],
indices in [-s, s-1]).
Valid: opset 11+ (here 13).""",
    "(float[N,3] x) => (float[N,2] z)",
    "<int64[2] i = {2,0}, int64[2] ineg = {-1,-3}>",
    {
        "common": ("z = Gather <axis = 1> (x, i)", ""),
        "negative-axis": ("z = Gather <axis = -1> (x, i)", "axis=-1"),
        "negative-indices": ("z = Gather <axis = -1> (x, ineg)", "axis=-1, indices [-1, -3]"),
    },
)

_case(
    "softmax-axis",
    """Softmax over the last axis of x: [N, 2, 3]: default vs axis=2 vs axis=-1.

Uncommon: the default axis written out, positive or negative (Operators.md Softmax, opset 13:
axis defaults to -1).
Valid: opset 13+ (opset 11 Softmax flattens: a different op).""",
    "(float[N,2,3] x) => (float[N,2,3] z)",
    "",
    {
        "common": ("z = Softmax(x)", ""),
        "positive": ("z = Softmax <axis = 2> (x)", "axis=2"),
        "negative": ("z = Softmax <axis = -1> (x)", "axis=-1"),
    },
    tags=frozenset({"attributes"}),
)

_case(
    "reducesum-attribute-vs-input",
    """ReduceSum of x: [N, 2, 3] over axis 2: axes as an input (opset 13) vs as an attribute (opset 12), negative or not.

Uncommon: the same reduction at opset 12 with axes as an attribute, and with a negative axis
(Operators.md ReduceSum-11 vs ReduceSum-13: axes moved from attribute to input).
Valid: forms at opset 12 and 13 (ir_version 7).""",
    "(float[N,2,3] x) => (float[N,2] z)",
    "<int64[1] ax = {2}, int64[1] axn = {-1}>",
    {
        "common": ("z = ReduceSum <keepdims = 0> (x, ax)", ""),
        "input-negative": ("z = ReduceSum <keepdims = 0> (x, axn)", "axes input [-1]"),
        "attribute-opset12": ("z = ReduceSum <keepdims = 0, axes = [2]> (x)", "opset 12, axes=[2] attribute", 12),
        "attribute-negative-opset12": (
            "z = ReduceSum <keepdims = 0, axes = [-1]> (x)",
            "opset 12, axes=[-1] attribute",
            12,
        ),
    },
    tags=frozenset({"reduce", "opset"}),
)

_case(
    "reducemean-attribute-vs-input",
    """ReduceMean of x: [N, 2, 3] over axes [1, 2]: attribute (opset 17) vs input (opset 18).

Uncommon: ReduceMean's axes as an input, new in opset 18, and negative (Operators.md ReduceMean-18).
Valid: forms at opset 17 (ir_version 8) and 18 (ir_version 8).""",
    "(float[N,2,3] x) => (float[N,1,1] z)",
    "<int64[2] ax = {1,2}, int64[2] axn = {-1,-2}>",
    {
        "common": ("z = ReduceMean <axes = [1, 2]> (x)", "", 17),
        "input-opset18": ("z = ReduceMean(x, ax)", "opset 18, axes input", 18),
        "input-negative-opset18": ("z = ReduceMean(x, axn)", "opset 18, axes input [-1, -2] (unsorted)", 18),
    },
    opset=18,
    tags=frozenset({"reduce", "opset"}),
)

_case(
    "unsqueeze-attribute-vs-input",
    """Unsqueeze x: [N, 3] to [N, 1, 3, 1]: axes input [1, 3] vs [-1, 1] vs attribute (opset 12).

Uncommon: unsorted negative axes (Operators.md Unsqueeze-13: negative axes count in the output
rank; order does not matter) and the opset-12 attribute spelling.
Valid: forms at opset 12 and 13.""",
    "(float[N,3] x) => (float[N,1,3,1] z)",
    "<int64[2] ax = {1,3}, int64[2] axn = {-1,1}>",
    {
        "common": ("z = Unsqueeze(x, ax)", ""),
        "negative-unsorted": ("z = Unsqueeze(x, axn)", "axes [-1, 1]"),
        "attribute-opset12": ("z = Unsqueeze <axes = [1, 3]> (x)", "opset 12, axes attribute", 12),
    },
    tags=frozenset({"opset"}),
)

_case(
    "split-negative",
    """Split x: [N, 4] into [1, 3] on axis 1 vs axis -1.

Uncommon: a negative Split axis (Operators.md Split-13: axis in [-r, r-1]).
Valid: opset 13+.""",
    "(float[N,4] x) => (float[N,1] a, float[N,3] b)",
    "<int64[2] sp = {1,3}>",
    {"common": ("a, b = Split <axis = 1> (x, sp)", ""), "negative": ("a, b = Split <axis = -1> (x, sp)", "axis=-1")},
)

_case(
    "flatten-negative",
    """Flatten x: [N, 2, 3] at axis 2 vs axis -1.

Uncommon: a negative Flatten axis (Operators.md Flatten-13: axis in [-r, r]).
Valid: opset 11+ (here 13).""",
    "(float[N,2,3] x) => (float[M,3] z)",
    "",
    {"common": ("z = Flatten <axis = 2> (x)", ""), "negative": ("z = Flatten <axis = -1> (x)", "axis=-1")},
)

_case(
    "transpose-perm",
    """Transpose of x: [N, 2, 3] reversing the dims: perm omitted vs perm = [2, 1, 0].

Uncommon: Transpose without perm (Operators.md Transpose: perm defaults to reversing the dims).
Transpose folding and layout passes must read the implied perm.
Valid: every opset (here 13).""",
    "(float[N,2,3] x) => (float[3,2,N] z)",
    "",
    {"common": ("z = Transpose <perm = [2, 1, 0]> (x)", ""), "perm-omitted": ("z = Transpose(x)", "no perm attribute")},
    tags=frozenset({"attributes"}),
)
