"""data-prop/*: a consumer's shape input computed from x's shape, which only data propagation resolves.

Each case feeds a shape input (Reshape ``shape``, Expand ``shape``, ConstantOfShape ``input``,
Resize ``sizes``) with a chain of shape ops on the graph input x (``passcheck.cases.shape_chain``):
onnx shape inference without data propagation knows only the rank of the consumer's output;
``infer_shapes(data_prop=True)`` and onnxruntime's symbolic shape inference compute the dims,
symbolic ones (``N``, ``T``, bound per run) included. The graph outputs are annotated with their
rank only, so every dim a pass writes is its own claim, checked at run time by the annotations
oracle (seed 000: one binding map per run) and compared across forms by the parity oracle.

Forms: ``common`` is the exporter-typical chain (a 0-D Gather, Unsqueeze, Concat; TensorFlow's
int32 Cast round trip for ``*-int32``); the others spell the same vector differently (each an exact
identity of the ONNX spec, cited per spelling in ``shape_chain.SPELLINGS``).
"""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases import Case, Expectation, Form, register
from passcheck.cases.builders import FLOAT, model, node, tensor, vi
from passcheck.cases.opsets import opset_forms
from passcheck.cases.shape_chain import SPELLINGS, Chain

OPSET = 18
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
)
SYM = ["N", 4, 6]
SYM2 = ["N", "T", 6]
BIND = ({"N": 1}, {"N": 3})
BIND2 = ({"N": 1, "T": 2}, {"N": 3, "T": 5})


def _reshape(parts):
    def body(c: Chain, nodes: list, inits: list) -> None:
        nodes.append(node("Reshape", ["x", c.target(parts)], ["y"], name="reshape"))

    return body


def _expand(parts):
    def body(c: Chain, nodes: list, inits: list) -> None:
        inits.append(tensor("bias", np.linspace(-1.0, 1.0, 6, dtype=np.float32)))
        nodes.append(node("Expand", ["bias", c.target(parts)], ["y"], name="expand"))

    return body


def _constant_of_shape(parts, slice_x: bool):
    def body(c: Chain, nodes: list, inits: list) -> None:
        one = tensor("one", np.array([1.5], np.float32))
        if not slice_x:
            nodes.append(node("ConstantOfShape", [c.target(parts)], ["y"], name="fill", value=one))
            return
        nodes.append(node("ConstantOfShape", [c.target(parts)], ["fill"], name="fill", value=one))
        inits += [tensor("s1", [1], np.int64), tensor("e1", [6], np.int64), tensor("a2", [2], np.int64)]
        nodes += [
            node("Slice", ["x", "s1", "e1", "a2"], ["tail"], name="slice"),
            node("Add", ["tail", "fill"], ["y"], name="add"),
        ]

    return body


def _resize(parts):
    def body(c: Chain, nodes: list, inits: list) -> None:
        nodes.append(node("Resize", ["x", "", "", c.target(parts)], ["y"], name="resize", mode="nearest"))

    return body


#: case name → (x shape, bindings, body, output shape with data propagation, what it computes,
#: the spelling its common form uses).
CASES = {
    "reshape-flatten": (
        SYM,
        BIND,
        _reshape([("dim", 0), ("mul", 1, 2)]),
        ("N", 24),
        "Reshape(x, [dim 0, dim 1 * dim 2]): PyTorch's flatten(1)",
        "int64",
    ),
    "reshape-heads": (
        SYM,
        BIND,
        _reshape([("dims", 0, 2), ("const", [2, 3])]),
        ("N", 4, 2, 3),
        "Reshape(x, [dims 0..1, 2, 3]): splitting the last axis into heads",
        "int64",
    ),
    "reshape-heads-int32": (
        SYM2,
        BIND2,
        _reshape([("dim", 0), ("dim", 1), ("const", [3, 2])]),
        ("N", "T", 3, 2),
        "Reshape(x, [dim 0, dim 1, 3, 2]) with TensorFlow's int32 shape arithmetic",
        "int32",
    ),
    "expand-shape": (
        SYM,
        BIND,
        _expand([("dim", 0), ("dims", 1, 3)]),
        ("N", 4, 6),
        "Expand(bias[6], [dim 0, dims 1..2])",
        "int64",
    ),
    "mask-2d": (
        SYM2,
        BIND2,
        _constant_of_shape([("dims", 0, 2)], slice_x=False),
        ("N", "T"),
        "ConstantOfShape([dims 0..1], 1.5): an attention mask of x's batch and sequence dims",
        "int64",
    ),
    "fill-sub": (
        SYM,
        BIND,
        _constant_of_shape([("dim", 0), ("dim", 1), ("sub", 2, 1)], slice_x=True),
        ("N", 4, 5),
        "x[:, :, 1:] + ConstantOfShape([dim 0, dim 1, dim 2 - 1], 1.5)",
        "int64",
    ),
    "pad-fill": (
        SYM,
        BIND,
        _constant_of_shape([("dims", 0, 2), ("add", 2, 2)], slice_x=False),
        ("N", 4, 8),
        "ConstantOfShape([dims 0..1, dim 2 + 2], 1.5): a buffer two wider than x's last axis",
        "int64",
    ),
    "resize-twice": (
        SYM,
        BIND,
        _resize([("dims", 0, 2), ("twice", 2)]),
        (None, 4, 12),
        "Resize(x, sizes=[dims 0..1, dim 2 * 2], nearest): a 2x upsample of the last axis (onnx's Resize "
        "inference reads only the dim_values of the propagated sizes: y is [?, 4, 12], not [N, 4, 12])",
        "int64",
    ),
    "rank-fill": (
        SYM,
        BIND,
        _constant_of_shape([("rank",), ("dim", 2)], slice_x=False),
        (3, 6),
        "ConstantOfShape([rank of x, dim 2], 1.5), the rank as Size(Shape(x))",
        "int64",
    ),
}
#: spellings that write nothing different for a case (it has no part they change).
_INERT = {
    "reshape-heads": ("unsqueeze-negative", "add-negative"),
    "reshape-heads-int32": ("add-negative",),
    "expand-shape": ("add-negative",),
    "mask-2d": ("unsqueeze-negative", "add-negative", "concat-negative-axis"),
    "reshape-flatten": (),  # every spelling changes it
    "fill-sub": (),
    "pad-fill": ("unsqueeze-negative",),
    "resize-twice": ("unsqueeze-negative",),
    "rank-fill": ("add-negative",),
}


def build(name: str, spelling: str, opset: int = OPSET) -> onnx.ModelProto:
    """The form of ``data-prop/<name>`` written with ``spelling`` at ``opset``."""
    xshape, _, body, out, _, _ = CASES[name]
    chain = Chain(spelling, len(xshape), opset)
    nodes: list = []
    inits: list = []
    body(chain, nodes, inits)
    return model(
        chain.nodes + nodes,
        [vi("x", FLOAT, xshape)],
        [vi("y", FLOAT, [None] * len(out))],
        opset=opset,
        initializers=chain.inits + inits,
    )


def forms(name: str, opset: int = OPSET, common: str = "") -> dict[str, Form]:
    """``common`` (the case's exporter spelling, or ``common``) and one form per other spelling that
    changes it and is valid at ``opset`` (Shape start/end from 15; Unsqueeze/Squeeze ``axes`` inputs and
    Slice data propagation from 13, so below 13 only the 1-D Gather spellings; negative Gather indices
    from 11, so below 11 the forms are the model at its schema-keeping neighbour opsets)."""
    common = common or CASES[name][5]
    if opset < 11:  # Gather-1 allows no negative index: the forms are the neighbouring opsets instead
        return opset_forms(lambda v: build(name, common, v), opset, what=CASES[name][4])
    out = {"common": Form((lambda: build(name, common, opset)), "")}
    for sp, doc in SPELLINGS.items():
        if sp == common or sp in _INERT[name] or (sp == "shape-start-end" and opset < 15):
            continue
        if opset < 13 and sp not in ("gather-1d", "gather-negative", "concat-negative-axis"):
            continue
        out[sp] = Form((lambda s: lambda: build(name, s, opset))(sp), doc)
    if common != "int64" and opset >= 13:
        out["int64"] = Form(lambda: build(name, "int64", opset), "the same chain in int64, no Cast")
    return out


def _register(name: str, opset: int = OPSET, suffix: str = "", common: str = "") -> None:
    xshape, bindings, _, out, what, _ = CASES[name]
    register(
        Case(
            id=f"data-prop/{name}{suffix}",
            forms=forms(name, opset, common),
            doc=f"""{what}, on x: {xshape} (opset {opset}).

Uncommon: {_UNCOMMON if opset >= 11 else _UNCOMMON_OLD}
Shape inference with data propagation gives y the shape {["?" if d is None else d for d in out]};
without it only the rank.
Valid: opset {opset}, onnx >= {_first_release(opset)}.""",
            opset=opset,
            min_onnx=_first_release(opset),
            bindings=bindings,
            passes=PASSES,
            tags=frozenset({"data-prop", "shape", "symbolic" if bindings[0] else "static"}),
            expect=()
            if None in out
            else (
                Expectation(
                    pass_id="onnx:infer-shapes-data-prop",
                    form="common",
                    output_shapes={"y": out},
                    reason="onnx data propagation (Shape, Gather, Slice, Squeeze, Unsqueeze, Concat, Cast, "
                    "Size, Add/Sub/Mul) computes the consumer's shape input",
                ),
            ),
        )
    )


_UNCOMMON = """the shape input is spelled another way (Gather with negative or 1-D indices, Shape
start/end, Slice + Squeeze, a Cast to the same type, an Identity, int32 arithmetic, negative Unsqueeze
or Concat axes, Add for Sub); every spelling computes the same int64 vector (Operators.md Gather, Shape,
Slice, Squeeze, Unsqueeze, Concat, Cast, Add/Sub/Mul; each identity cited in
passcheck.cases.shape_chain.SPELLINGS)."""
_UNCOMMON_OLD = """the same model imported at a neighbouring opset where every op keeps its schema (onnx
docs/Versioning.md: semantics change only with a new since_version); Gather-1 has no negative
indices and Unsqueeze-1 no axes input, so the spellings above opset 11 do not apply."""
#: the onnx release that first knows an opset above 21 (onnx.helper.VERSION_TABLE)
MIN_ONNX = {23: "1.18", 24: "1.19", 25: "1.20"}


def _first_release(opset: int) -> str:
    """The first onnx release whose default domain reaches ``opset`` (onnx.helper.VERSION_TABLE rows: release,
    IR, ai.onnx opset, …), as ``major.minor``; "1.16" for what every pinned onnx knows."""
    if opset in MIN_ONNX or opset <= 21:
        return MIN_ONNX.get(opset, "1.16")
    rows = [r for r, _ir, o, *_ in onnx.helper.VERSION_TABLE if o >= opset]
    return ".".join(min(rows, key=lambda r: tuple(map(int, r.split(".")))).split(".")[:2])


def propagation_opsets(low: int = 13) -> list[int]:
    """Every ``since_version`` >= ``low`` of a default-domain schema with a data-propagation function
    (``OpSchema.has_data_propagation_function``: onnx's ``PartialDataPropagationFunction``s, onnx/defs: Shape,
    Size, Gather, Slice, Squeeze, Unsqueeze, Concat, Cast, Add/Sub/Mul) in the installed onnx, at most the opset
    it knows: the opsets where a propagator changes, so a chain imported there runs that version's propagator
    (Versioning.md: an op's semantics change only with a new since_version)."""
    import onnx.defs

    return sorted(
        {
            s.since_version
            for s in onnx.defs.get_all_schemas_with_history()
            if s.domain == ""
            and low <= s.since_version <= onnx.defs.onnx_opset_version()
            and getattr(s, "has_data_propagation_function", False)
        }
    )


for _name in CASES:
    _register(_name)
# the same chains at the opsets where Shape, Size, Gather, Cast, Squeeze, Unsqueeze change since_version
_register("mask-2d", 10, "-opset10", common="gather-1d")
_register("mask-2d", 11, "-opset11", common="gather-1d")
_register("expand-shape", 13, "-opset13")
# … and at every opset from 19 where a data propagator's since_version changes, read off the installed schemas
# (Shape, Size, Cast, Squeeze, Unsqueeze: 19, 21, 23, 24, 25; Cast-28 in onnx 1.23)
for _opset in propagation_opsets(19):
    _register("reshape-heads-int32", _opset, f"-opset{_opset}")
    _register("rank-fill", _opset, f"-opset{_opset}")
