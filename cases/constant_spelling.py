"""constant/*: one constant spelled every valid way.

Operators.md Constant (opset 12+): exactly one of ``value``, ``value_float(s)``, ``value_int(s)``,
``value_string(s)``, ``sparse_value`` gives the output; the scalar attributes produce 0-D tensors,
the list attributes 1-D tensors. IR.md "Tensor" / onnx.proto TensorProto: data sits either in
``raw_data`` (little-endian bytes) or in the typed field for its elem_type (``float_data``,
``int64_data``, ``string_data``, …); both are the same tensor. IR.md "Graphs": an initializer that
is also a graph input is a default the caller may override (IR version >= 4). Operators.md
ConstantOfShape: a tensor of the given shape filled with ``value``. A pass that folds or reads
constants must see the same value through every spelling.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, rng, tensor, text_form, vi

FAMILY = "constant"
OPSET = 13
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
VALID = "Valid: opset 12+ for the value_* attributes (here 13, ir_version 7), onnx >= 1.7."


def _case(name: str, doc: str, sig: str, forms, opset: int = OPSET, **kw) -> None:
    """``forms``: form name → (initializers in textual syntax, nodes, doc)."""
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms={
                f: text_form(f"g {sig} {consts} {{\n{body}\n}}", fdoc, opset=opset)
                for f, (consts, body, fdoc) in forms.items()
            },
            doc=doc,
            opset=opset,
            bindings=kw.pop("bindings", BINDINGS),
            passes=PASSES,
            tags=frozenset({"constant"}) | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "value-int",
    f"""x + 2 for int64 x: the 2 as an initializer, Constant(value_int), Constant(value=<0-D tensor>).

Uncommon: Constant's value_int attribute (Operators.md Constant, opset 12: a 0-D int64 tensor).
{VALID}""",
    "(int64[N,3] x) => (int64[N,3] y)",
    {
        "common": ("<int64 c = {2}>", "y = Add(x, c)", ""),
        "value-int": ("", "c = Constant <value_int = 2> ()\ny = Add(x, c)", "Constant(value_int=2)"),
        "value-tensor": (
            "",
            "c = Constant <value = int64 {2}> ()\ny = Add(x, c)",
            "Constant(value=<int64 0-D tensor>)",
        ),
    },
)

_case(
    "value-ints-reshape",
    f"""Reshape of x: [N, 12] to [-1, 3, 4], the target spelled three ways.

Uncommon: the Reshape target from Constant(value_ints) (Operators.md Constant, opset 12; Reshape,
opset 13: shape is a 1-D int64 input). Shape inference and folding must read it like an initializer.
{VALID}""",
    "(float[N,12] x) => (float[N,3,4] y)",
    {
        "common": ("<int64[3] t = {-1,3,4}>", "y = Reshape(x, t)", ""),
        "value-ints": (
            "",
            "t = Constant <value_ints = [-1, 3, 4]> ()\ny = Reshape(x, t)",
            "Constant(value_ints=[-1, 3, 4])",
        ),
        "value-tensor": (
            "",
            "t = Constant <value = int64[3] {-1,3,4}> ()\ny = Reshape(x, t)",
            "Constant(value=<int64[3]>)",
        ),
    },
    tags=frozenset({"reshape"}),
)

_case(
    "value-float",
    f"""x * 0.5: the scale as an initializer, Constant(value_float), Constant(value).

Uncommon: Constant's value_float attribute (Operators.md Constant, opset 12: a 0-D float tensor).
{VALID}""",
    "(float[N,3] x) => (float[N,3] y)",
    {
        "common": ("<float k = {0.5}>", "y = Mul(x, k)", ""),
        "value-float": ("", "k = Constant <value_float = 0.5> ()\ny = Mul(x, k)", "Constant(value_float=0.5)"),
        "value-tensor": ("", "k = Constant <value = float {0.5}> ()\ny = Mul(x, k)", "Constant(value=<float 0-D>)"),
    },
)

_case(
    "value-floats",
    f"""x + [1, 2, 3] broadcast over rows: initializer vs Constant(value_floats).

Uncommon: Constant's value_floats attribute (Operators.md Constant, opset 12: a 1-D float tensor).
{VALID}""",
    "(float[N,3] x) => (float[N,3] y)",
    {
        "common": ("<float[3] b = {1.,2.,3.}>", "y = Add(x, b)", ""),
        "value-floats": (
            "",
            "b = Constant <value_floats = [1.0, 2.0, 3.0]> ()\ny = Add(x, b)",
            "Constant(value_floats=[1, 2, 3])",
        ),
    },
)

_case(
    "value-strings",
    f"""Concat of a string vector x: [N] with ["p", "q"]: initializer vs Constant(value_strings).

Uncommon: string constants from Constant's value_strings (Operators.md Constant, opset 12; Concat
accepts every tensor type). Folding and type inference must keep elem_type STRING.
{VALID}""",
    "(string[N] x) => (string[M] y)",
    {
        "common": ('<string[2] c = {"p", "q"}>', "y = Concat <axis = 0> (x, c)", ""),
        "value-strings": (
            "",
            'c = Constant <value_strings = ["p", "q"]> ()\ny = Concat <axis = 0> (x, c)',
            'Constant(value_strings=["p", "q"])',
        ),
    },
    tags=frozenset({"string"}),
)

_case(
    "constant-of-shape",
    """x + 1.5 over x: [N, 3]: an initializer, ConstantOfShape of a constant shape, ConstantOfShape(Shape(x)).

Uncommon: ConstantOfShape (Operators.md ConstantOfShape, opset 9: output of the given shape filled
with the one-element value tensor), with a static and with a data-dependent shape.
Valid: opset 9+ (here 13).""",
    "(float[N,3] x) => (float[N,3] y)",
    {
        "common": ("<float[3] c = {1.5,1.5,1.5}>", "y = Add(x, c)", ""),
        "static-shape": (
            "<int64[1] s = {3}>",
            "c = ConstantOfShape <value = float[1] {1.5}> (s)\ny = Add(x, c)",
            "ConstantOfShape([3], value=1.5)",
        ),
        "dynamic-shape": (
            "",
            "s = Shape(x)\nc = ConstantOfShape <value = float[1] {1.5}> (s)\ny = Add(x, c)",
            "ConstantOfShape(Shape(x), value=1.5)",
        ),
    },
)


def _sparse_forms():
    dense = np.array([[0, 0, 2.5], [0, 0, -1.0]], np.float32)  # 2-D: onnxruntime 1.32 rejects a 1-D sparse_value

    def build(spelling: str):
        def make():
            if spelling == "sparse":
                idx = np.flatnonzero(dense).astype(np.int64)
                sp = onnx.helper.make_sparse_tensor(
                    tensor("c", dense.ravel()[idx]), tensor("c_idx", idx), list(dense.shape)
                )
                const = onnx.helper.make_node("Constant", [], ["c"], name="c_const", sparse_value=sp)
            else:
                const = node("Constant", [], ["c"], name="c_const", value=tensor("c", dense))
            return model(
                [const, node("Add", ["x", "c"], ["y"], name="add")],
                [vi("x", FLOAT, ["N", 2, 3])],
                [vi("y", FLOAT, ["N", 2, 3])],
                opset=OPSET,
            )

        return make

    return {
        "common": Form(build("dense")),
        "sparse-value": Form(build("sparse"), "Constant(sparse_value=<2 of 6 non-zero>)"),
    }


register(
    Case(
        id=f"{FAMILY}/sparse-value",
        forms=_sparse_forms(),
        doc=f"""x + c with c = [[0, 0, 2.5], [0, 0, -1]]: Constant(value) vs Constant(sparse_value).

Uncommon: Constant's sparse_value (Operators.md Constant; IR.md "Sparse tensors": values + int64
indices into the flattened dense shape). A pass that only reads ``value`` misses the constant.
{VALID}""",
        opset=OPSET,
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"constant", "sparse"}),
    )
)


def _data_field_forms():
    r = rng(FAMILY, "data-fields")
    w = r.standard_normal((4, 3)).astype(np.float32)
    table = r.standard_normal((5, 3)).astype(np.float32)
    idx = np.array(3, np.int64)

    def typed(name: str, a: np.ndarray) -> onnx.TensorProto:
        return onnx.helper.make_tensor(name, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), a.shape, a.ravel().tolist())

    def build(fields: str, where: str):
        def make():
            mk = typed if fields == "typed" else tensor
            consts = [mk("w", w), mk("table", table), mk("idx", idx)]
            nodes = [
                node("MatMul", ["x", "w"], ["xw"], name="mm"),
                node("Gather", ["table", "idx"], ["row"], name="gather", axis=0),
                node("Add", ["xw", "row"], ["y"], name="add"),
            ]
            inits = consts if where == "initializer" else []
            if where == "constant":
                nodes = [node("Constant", [], [t.name], name=f"{t.name}_const", value=t) for t in consts] + nodes
            return model(nodes, [vi("x", FLOAT, ["N", 4])], [vi("y", FLOAT, ["N", 3])], opset=OPSET, initializers=inits)

        return make

    return {
        "common": Form(build("raw", "initializer")),
        "typed-fields": Form(build("typed", "initializer"), "initializers in float_data / int64_data"),
        "constant-raw": Form(build("raw", "constant"), "Constant nodes with raw_data tensors"),
        "constant-typed": Form(build("typed", "constant"), "Constant nodes with typed-field tensors"),
    }


register(
    Case(
        id=f"{FAMILY}/tensor-data-fields",
        forms=_data_field_forms(),
        doc="""x @ w + table[3]: the float and int64 constants stored in raw_data vs in float_data / int64_data.

Uncommon: typed data fields instead of raw_data, in initializers and in Constant nodes (onnx.proto
TensorProto: "raw_data … or the typed field"; IR.md "Tensor"). Folding must read both encodings.
Valid: every opset (here 13); Constant(value) since opset 1.""",
        opset=OPSET,
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"constant", "tensor-data"}),
    )
)


def _overridable_forms():
    w = rng(FAMILY, "overridable").standard_normal((4, 3)).astype(np.float32)

    def build(as_input: bool):
        def make():
            inputs = [vi("x", FLOAT, ["N", 4])] + ([vi("w", FLOAT, [4, 3])] if as_input else [])
            return model(
                [node("MatMul", ["x", "w"], ["y"], name="mm")],
                inputs,
                [vi("y", FLOAT, ["N", 3])],
                opset=OPSET,
                initializers=[tensor("w", w)],
            )

        return make

    return {
        "common": Form(build(False)),
        "overridable-default": Form(build(True), "w is an initializer and also a graph input"),
    }


register(
    Case(
        id=f"{FAMILY}/initializer-as-input",
        forms=_overridable_forms(),
        doc="""x @ w with w an initializer vs w an initializer that is also a graph input (an overridable default).

Uncommon: IR.md "Graphs" (IR version >= 4): an initializer with the name of a graph input is that
input's default value; the caller may feed another. A pass must not fold it as a constant (the
feeds here keep the default, so only the graph's interface shows a wrong fold).
Valid: ir_version 4+ (here 7, opset 13).""",
        opset=OPSET,
        bindings=BINDINGS,
        passes=PASSES,
        tags=frozenset({"constant", "initializer"}),
    )
)
