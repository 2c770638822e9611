"""A value x of element type T → ``Cast(Cast(x, to=W), to=T)`` for a W that represents every value of T: the
round trip is x, so a pass may cancel the pair (and must not cancel one through a narrowing type, the
``vary:cast-narrow`` neighbours of :mod:`passcheck.hunt.vary_pairs`).

The rule (Operators.md, Cast-6/13/19/21: a value the target type represents is converted exactly; float to
integer truncates, integer to bool is ``x != 0``, bool to a number is 0 or 1) with the formats' ranges
(IEEE 754 binary16/32/64, bfloat16: 8 exponent and 7 fraction bits; two's complement and unsigned integers):

* integer T, integer W: W's range holds T's;
* integer T, float W: every integer of T's range has magnitude ≤ 2^p (p: W's significand bits, implicit bit
  included), so each one is exact in W and truncates back to itself;
* float T, float W: W has at least T's significand bits, largest exponent and smallest subnormal (so every
  finite value, ±0, ±inf and NaN of T is one of W's);
* float T, integer W: never (fractions are truncated);
* bool T: any numeric W (0 and 1 are exact; back to bool is ``!= 0``).

Only where the schema at the model's opset takes T and W (Cast's T1, T2) and onnxruntime's CPU provider has a
Cast kernel for T→W and W→T (:mod:`passcheck.runtime.kernels`). Sites are those of
:func:`passcheck.mutations._value_sites.insert`, labelled ``VALUE:via-W`` / ``VALUE->READER:via-W``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _value_sites
from passcheck.mutations._base import Rewrite
from passcheck.mutations._freedom import Freedom

if TYPE_CHECKING:
    import onnx

    from passcheck.mutations._shapes import Known
    from passcheck.mutations._value_sites import Namer

#: ONNX element type → ("int", lowest, highest) or ("float", significand bits, largest exponent, smallest
#: subnormal exponent). BOOL is {0, 1}.
FORMATS: dict[int, tuple] = {
    9: ("int", 0, 1),  # BOOL
    2: ("int", 0, 2**8 - 1),  # UINT8
    3: ("int", -(2**7), 2**7 - 1),  # INT8
    4: ("int", 0, 2**16 - 1),  # UINT16
    5: ("int", -(2**15), 2**15 - 1),  # INT16
    12: ("int", 0, 2**32 - 1),  # UINT32
    6: ("int", -(2**31), 2**31 - 1),  # INT32
    13: ("int", 0, 2**64 - 1),  # UINT64
    7: ("int", -(2**63), 2**63 - 1),  # INT64
    10: ("float", 11, 15, -24),  # FLOAT16
    16: ("float", 8, 127, -133),  # BFLOAT16
    1: ("float", 24, 127, -149),  # FLOAT
    11: ("float", 53, 1023, -1074),  # DOUBLE
}
BOOL = 9
#: Type names in site labels.
NAMES = {
    9: "bool",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    12: "uint32",
    6: "int32",
    13: "uint64",
    7: "int64",
    10: "float16",
    16: "bfloat16",
    1: "float",
    11: "double",
}


def represents(wide: int, t: int) -> bool:
    """Whether every value of element type ``t`` is a value of ``wide`` and casts back to itself (module docs)."""
    if wide == t or wide not in FORMATS or t not in FORMATS:
        return False
    w, v = FORMATS[wide], FORMATS[t]
    if t == BOOL:
        return wide != BOOL
    if v[0] == "int" and w[0] == "int":
        return w[1] <= v[1] and v[2] <= w[2]
    if v[0] == "int":
        return max(-v[1], v[2]) <= 2 ** w[1]
    if w[0] == "int":
        return False
    return w[1] >= v[1] and w[2] >= v[2] and w[3] <= v[3]


def wider(t: int) -> tuple[int, ...]:
    """The element types that represent every value of ``t``, in :data:`FORMATS` order."""
    return tuple(w for w in FORMATS if represents(w, t))


def cast_runs(frm: int, to: int, version: int) -> bool:
    """Whether Cast from ``frm`` to ``to`` is in the schema at opset ``version`` and onnxruntime's CPU provider
    runs it (:func:`passcheck.runtime.kernels.node_runs_on_cpu`: a kernel, or the float one for a float16 input)."""
    import onnx

    from passcheck.mutations._schema_types import accepts
    from passcheck.runtime.kernels import node_runs_on_cpu

    if version < 6 or not accepts("Cast", version, frm):
        return False
    schema = onnx.defs.get_schema("Cast", version, "")
    name = f"tensor({NAMES[to]})"
    if not any(name in c.allowed_type_strs for c in schema.type_constraints if c.type_param_str == "T2"):
        return False
    node = onnx.helper.make_node("Cast", ["x"], ["y"], to=to)
    return bool(node_runs_on_cpu(node, schema, lambda v: frm if v == "x" else to))


def _via(wide: int):
    def step(x: str, k: Known, version: int, names: Namer):
        t = k.elem_type
        if not represents(wide, t) or not (cast_runs(t, wide, version) and cast_runs(wide, t, version)):
            return None
        mid, out = names.value(f"to_{NAMES[wide]}"), names.value("back")
        return [names.node("Cast", [x], mid, to=wide), names.node("Cast", [mid], out, to=t)]

    return step


#: (name, step) per intermediate type W, in :data:`FORMATS` order.
OPS = tuple((f"via-{NAMES[w]}", _via(w)) for w in FORMATS)


def round_trip(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site ``VALUE:via-W`` (or ``VALUE->READER:via-W``) → the value cast to W and back; with ``only``
    None, every W that fits, chained, on every value and edge. The labels changed, in model order."""
    return _value_sites.insert(model, only, OPS, each=True, edges=True)


def site_signature(label: str, signatures) -> tuple | None:
    """The signature of site ``VALUE:via-W`` or ``VALUE->READER:via-W``: the value's (or the edge's) with a
    Cast among its readers (:func:`passcheck.mutations._value_sites.signature`); None for another label."""
    if _value_sites.parse(label, dict(OPS)) is None:
        return None
    return _value_sites.signature(label.rpartition(":")[0], signatures, "Cast")


REWRITES = (
    Rewrite(
        "cast-round-trip",
        "a value x of type T → Cast(Cast(x, to=W), to=T) for a W representing every value of T (float→double, "
        "float16→float, int32→int64, uint8→int16, int8→float16, bool→uint8, …; site VALUE:via-W); all at once: "
        "every W chained",
        round_trip,
        detail="values",
        site_signature=site_signature,
        lists=True,
    ),
)

FREEDOMS = (
    Freedom(
        "cast-round-trip",
        "data types",
        "Operators.md Cast (a value the target type represents converts exactly); IEEE 754 binary16/32/64, "
        "bfloat16 and integer ranges",
        "A value may pass through a type that represents every value of its own and back: the round trip is the "
        "identity.",
        ("cast-round-trip",),
        "one round trip on one main-graph value that is not static, or on one edge (site VALUE:via-W); all at "
        "once, every fitting W chained on every such value; Cast kernels for both directions in onnxruntime's "
        "CPU provider",
    ),
)
