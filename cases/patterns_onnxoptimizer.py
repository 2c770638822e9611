"""pattern-onnxoptimizer/*: the node patterns of onnxoptimizer passes that no other base reaches.

onnxoptimizer 0.4.2's passes match node patterns written in their own sources (onnx/optimizer,
``onnxoptimizer/passes/*.h``). In a run of the whole hand-written library under each
``onnxoptimizer:pass-NAME`` (session 18, 1,147 forms), 16 passes changed no form but the four every pass
changes (a round trip), so neither the library nor a hunt over it ever judged them. Each case here is the
pattern one of them names, in its common spelling, with the spellings its operator schemas allow:

- ``fuse_pad_into_pool`` (``FusePadIntoPool``): ``Pad`` (mode ``constant``, value 0) read only by
  ``AveragePool`` / ``MaxPool``, whose ``pads`` absorb the Pad's (Operators.md Pad, AveragePool, MaxPool);
- ``fuse_consecutive_log_softmax``: ``Log(Softmax(x))`` → ``LogSoftmax`` (Operators.md Softmax-13, LogSoftmax-13:
  ``axis`` defaults to -1);
- ``eliminate_nop_monotone_argmax``: ``ArgMax`` of a monotone op (``Exp``, ``Softmax`` on the same axis) →
  ``ArgMax`` of its input (Operators.md ArgMax: ``axis`` in ``[-r, r-1]``);
- ``fuse_consecutive_concats``: ``Concat(Concat(a, b), c)`` on one axis → one Concat (Operators.md Concat:
  ``axis`` in ``[-r, r-1]``).

The hunt's neighbours move what these passes read (a flag of AveragePool's, an axis, a pad value).
"""

from __future__ import annotations

import re

import numpy as np

from passcheck.cases import Case, register
from passcheck.cases.builders import tensor, text_form
from passcheck.passes import DEFAULT_PASSES

FAMILY = "pattern-onnxoptimizer"
OPSET = 13
BINDINGS = ({"N": 1}, {"N": 2})


def _form(sig: str, body: str, doc: str, consts):
    """A form whose initializers are the ``consts`` its nodes name (no unread initializer in any form)."""
    named = [n for n in consts if re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", body)]
    return text_form(
        f"g {sig} {{\n{body}\n}}", doc, opset=OPSET, initializers=lambda: [tensor(n, consts[n]) for n in named]
    )


def _case(name: str, onnxoptimizer_pass: str, doc: str, sig: str, body: str, forms, consts=None) -> None:
    """Register ``FAMILY/name``; ``body`` is a node list with ``{}`` fields, ``forms``: form → (fields, doc)."""
    slug = onnxoptimizer_pass.replace("_", "-")
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms={f: _form(sig, body.format(*fill), fdoc, consts or {}) for f, (fill, fdoc) in forms.items()},
            doc=f"{doc.strip()}\nValid: opset {OPSET}+.\n\nTargets onnxoptimizer's {onnxoptimizer_pass}.",
            opset=OPSET,
            bindings=BINDINGS,
            passes=(*DEFAULT_PASSES, "onnxoptimizer:optimize", f"onnxoptimizer:pass-{slug}"),
            tags=frozenset({"pattern", "onnxoptimizer", f"onnxoptimizer-{slug}"}),
        )
    )


PADS = {
    "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64),
    "pads_h": np.array([0, 0, 1, 0, 0, 0, 1, 0], np.int64),
    "zero": np.array(0, np.float32),
}
AVG = "AveragePool <kernel_shape = [3, 3], count_include_pad = 1{}> (p)"
MAX = "MaxPool <kernel_shape = [3, 3]{}> (p)"
POOL_DOC = """y = {}(Pad(x, 1 around H and W), 3x3), x: float[N, 1, 4, 4].

Uncommon: the pad value 0 written as Pad's third input (Operators.md Pad-13: constant_value defaults to 0){}."""
POOL_SIG = "(float[N,1,4,4] x) => (float[N,1,4,4] y)"
WRITTEN = (("pads, zero", ""), "constant_value written")

_case(
    "pad-averagepool",
    "fuse_pad_into_pool",
    POOL_DOC.format(
        "AveragePool(…, count_include_pad=1)",
        "; part of the padding (W) moved into the pool's own pads, which count_include_pad=1 counts as zeros too "
        "(Operators.md AveragePool)",
    ),
    POOL_SIG,
    "p = Pad(x, {})\ny = " + AVG,
    {
        "common": (("pads", ""), ""),
        "value-written": WRITTEN,
        "pool-pads": (("pads_h", ", pads = [0, 1, 0, 1]"), "W in the pool's pads"),
    },
    PADS,
)
_case(
    "pad-maxpool",
    "fuse_pad_into_pool",
    POOL_DOC.format("MaxPool", ""),
    POOL_SIG,
    "p = Pad(x, {})\ny = " + MAX,
    {"common": (("pads", ""), ""), "value-written": WRITTEN},
    PADS,
)
_case(
    "log-softmax",
    "fuse_consecutive_log_softmax",
    """y = Log(Softmax(x, axis=-1)), x: float[N, 3, 4].

Uncommon: Softmax's axis omitted (Operators.md Softmax-13: default -1); written as 2, the same axis of a
rank-3 input (axis in [-r, r-1]).""",
    "(float[N,3,4] x) => (float[N,3,4] y)",
    "s = Softmax{} (x)\ny = Log(s)",
    {
        "common": ((" <axis = -1>",), ""),
        "axis-omitted": (("",), "axis at its default"),
        "axis-positive": ((" <axis = 2>",), "axis 2"),
    },
)
_case(
    "argmax-monotone",
    "eliminate_nop_monotone_argmax",
    """y = ArgMax(Softmax(x, axis=-1), axis=-1), x: float[N, 3, 4]: Softmax keeps the order along its axis.

Uncommon: ArgMax's axis written as 2 (the same axis, Operators.md ArgMax: axis in [-r, r-1]); Exp, monotone
everywhere, for the Softmax.""",
    "(float[N,3,4] x) => (int64[N,3,1] y)",
    "s = {}(x)\ny = ArgMax <axis = {}> (s)",
    {
        "common": (("Softmax <axis = -1> ", -1), ""),
        "axis-positive": (("Softmax <axis = -1> ", 2), "ArgMax's axis as 2"),
        "exp": (("Exp", -1), "Exp for Softmax"),
    },
)
_case(
    "concat-concat",
    "fuse_consecutive_concats",
    """y = Concat(Concat(a, b, axis=1), c, axis=1), a, b, c: float[N, 2, 3].

Uncommon: the inner Concat's axis written as -2 (the same axis of rank 3, Operators.md Concat: axis in
[-r, r-1]).""",
    "(float[N,2,3] a, float[N,2,3] b, float[N,2,3] c) => (float[N,6,3] y)",
    "t = Concat <axis = {}> (a, b)\ny = Concat <axis = 1> (t, c)",
    {"common": ((1,), ""), "axis-negative": ((-2,), "inner axis as -2")},
)
