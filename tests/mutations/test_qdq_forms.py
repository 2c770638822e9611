"""The quantization spellings (passcheck/mutations/qdq_forms.py; Operators.md QuantizeLinear / DequantizeLinear
13–23): each rewrite's mutant passes the equivalence gate on real onnxruntime, and a planted pass that mishandles
the spelling is caught on that form only (its base is judged clean)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.mutations import REWRITES, mutation_subject, verify_equivalent

from ._models import feeds, named, run_planted

QDQ_IDS = [r for r in REWRITES if r.startswith("qdq-")]


def _activation(opset: int = 21) -> onnx.ModelProto:
    """x float [2, 4, 8] → QuantizeLinear(int8, per tensor, zero point 0) → DequantizeLinear."""
    return named(
        """g (float[2, 4, 8] x) => (float[2, 4, 8] y) {
        q = QuantizeLinear(x, s, z)
        y = DequantizeLinear(q, s, z)
    }""",
        opset=opset,
        initializers=[
            numpy_helper.from_array(np.array(0.05, np.float32), "s"),
            numpy_helper.from_array(np.array(0, np.int8), "z"),
        ],
    )


def _blocked_weight() -> onnx.ModelProto:
    """y = MatMul(x, DequantizeLinear(w uint4 [32, 8], s [1, 8], axis 0, block_size 32)): one block as long as K."""
    w = helper.make_tensor("w", onnx.TensorProto.UINT4, [32, 8], (np.arange(256) % 16).tolist())
    s = numpy_helper.from_array(np.linspace(0.01, 0.08, 8, dtype=np.float32).reshape(1, 8), "s")
    m = named(
        """g (float[2, 32] x) => (float[2, 8] y) {
        wd = DequantizeLinear<axis = 0, block_size = 32>(w, s)
        y = MatMul(x, wd)
    }""",
        opset=21,
        initializers=[w, s],
    )
    return m


def _node(m: onnx.ModelProto, op: str) -> onnx.NodeProto:
    return next(n for n in m.graph.node if n.op_type == op)


def _attrs(n: onnx.NodeProto) -> dict:
    return {a.name: helper.get_attribute_value(a) for a in n.attribute}


def test_the_spellings_are_what_the_spec_describes_and_compute_the_same():
    act, blocked = _activation(), _blocked_weight()
    per_axis = REWRITES["qdq-per-axis-scale"].apply(act)[0]
    q = _node(per_axis, "QuantizeLinear")
    assert _attrs(q) == {"axis": 1} and list(
        next(t for t in per_axis.graph.initializer if t.name == q.input[1]).dims
    ) == [4]
    back = REWRITES["qdq-per-tensor-scale"].apply(per_axis)[0]
    assert not next(t for t in back.graph.initializer if t.name == _node(back, "QuantizeLinear").input[1]).dims
    blocked_act = REWRITES["qdq-blocked-scale"].apply(act)[0]
    assert _attrs(_node(blocked_act, "QuantizeLinear")) == {"axis": 1, "block_size": 4}
    dtype = REWRITES["qdq-output-dtype"].apply(act)[0]
    assert list(_node(dtype, "QuantizeLinear").input) == ["x", "s"]
    assert _attrs(_node(dtype, "QuantizeLinear")) == {"output_dtype": onnx.TensorProto.INT8}
    inert = REWRITES["qdq-inert-attrs"].apply(act)[0]
    assert _attrs(_node(inert, "QuantizeLinear")) == {"saturate": 0, "axis": 0}
    assert _attrs(_node(inert, "DequantizeLinear")) == {"axis": 0}
    past = REWRITES["qdq-block-size"].apply(blocked)[0]
    assert _attrs(_node(past, "DequantizeLinear")) == {"axis": 0, "block_size": 64}
    tight = REWRITES["qdq-block-size"].apply(past)[0]
    assert _attrs(_node(tight, "DequantizeLinear")) == {"axis": 0, "block_size": 32}
    dq23 = REWRITES["qdq-output-dtype"].apply(_activation(opset=23))[0]
    assert _attrs(_node(dq23, "DequantizeLinear")) == {"output_dtype": onnx.TensorProto.FLOAT}
    for base, mutant, rid in [
        (act, per_axis, "qdq-per-axis-scale"),
        (per_axis, back, "qdq-per-tensor-scale"),
        (act, blocked_act, "qdq-blocked-scale"),
        (act, dtype, "qdq-output-dtype"),
        (act, inert, "qdq-inert-attrs"),
        (blocked, past, "qdq-block-size"),
        (past, tight, "qdq-block-size"),
        (_activation(opset=23), dq23, "qdq-output-dtype"),
    ]:
        verify_equivalent(base, mutant, feeds(base), rid)


def test_a_blocked_scale_with_different_rows_is_halved_and_a_per_axis_one_blocked_beside_its_axis():
    w = numpy_helper.from_array(np.arange(64, dtype=np.int8).reshape(16, 4), "w")
    s = numpy_helper.from_array(np.array([[0.1] * 4, [0.2] * 4], np.float32), "s")
    m = named(
        """g (float[2, 16] x) => (float[2, 4] y) {
        wd = DequantizeLinear<axis = 0, block_size = 8>(w, s)
        y = MatMul(x, wd)
    }""",
        opset=21,
        initializers=[w, s],
    )
    half = REWRITES["qdq-block-size"].apply(m)[0]
    assert _attrs(_node(half, "DequantizeLinear"))["block_size"] == 4
    verify_equivalent(m, half, feeds(m), "qdq-block-size")
    axis = named(
        """g (float[2, 16] x) => (float[2, 4] y) {
        wd = DequantizeLinear<axis = 1>(w, s)
        y = MatMul(x, wd)
    }""",
        opset=21,
        initializers=[w, numpy_helper.from_array(np.array([0.1, 0.2, 0.3, 0.4], np.float32), "s")],
    )
    got = REWRITES["qdq-blocked-scale"].apply(axis)[0]
    assert _attrs(_node(got, "DequantizeLinear")) == {"axis": 0, "block_size": 16}
    verify_equivalent(axis, got, feeds(axis), "qdq-blocked-scale")


def _init(g: onnx.GraphProto, name: str) -> np.ndarray | None:
    return next((numpy_helper.to_array(t) for t in g.initializer if t.name == name), None)


_RANGE = {np.dtype(np.int8): (-128, 127), np.dtype(np.uint8): (0, 255)}


def _fake_quant(per_tensor_only: bool, plain_attrs: bool):
    """A planted pass: each QuantizeLinear → DequantizeLinear pair on initializer scales → float arithmetic
    ``(clip(round(x / s) + z, lo, hi) - z) * s``, the range (lo, hi) read from the zero point's dtype (uint8 when
    omitted: ``output_dtype`` is not read). ``per_tensor_only``: a pair whose scale is not a scalar is left;
    ``plain_attrs``: a pair whose QuantizeLinear states any attribute besides ``axis`` is left."""

    def fake_quant(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        for q in [n for n in g.node if n.op_type == "QuantizeLinear"]:
            dq = next((n for n in g.node if n.op_type == "DequantizeLinear" and n.input[0] == q.output[0]), None)
            s = _init(g, q.input[1])
            z = _init(g, q.input[2]) if len(q.input) > 2 and q.input[2] else np.array(0, np.uint8)
            if dq is None or s is None or z is None or (per_tensor_only and s.ndim):
                continue
            if plain_attrs and any(a.name != "axis" for a in q.attribute):
                continue
            if s.ndim == 1:  # per axis: along ``axis`` of x (rank of the graph input it reads)
                shape = [1] * len(g.input[0].type.tensor_type.shape.dim)
                shape[_attrs(q).get("axis", 1)] = -1
                s, z = s.reshape(shape), z.reshape(shape)
            lo, hi = _RANGE[z.dtype]
            p = q.output[0]
            consts = {
                f"{p}_s": s.astype(np.float32),
                f"{p}_z": z.astype(np.float32),
                f"{p}_lo": np.float32(lo),
                f"{p}_hi": np.float32(hi),
            }
            g.initializer.extend(numpy_helper.from_array(np.asarray(v), k) for k, v in consts.items())
            new = [
                helper.make_node("Div", [q.input[0], f"{p}_s"], [f"{p}_d"]),
                helper.make_node("Round", [f"{p}_d"], [f"{p}_r"]),
                helper.make_node("Add", [f"{p}_r", f"{p}_z"], [f"{p}_a"]),
                helper.make_node("Clip", [f"{p}_a", f"{p}_lo", f"{p}_hi"], [f"{p}_c"]),
                helper.make_node("Sub", [f"{p}_c", f"{p}_z"], [f"{p}_u"]),
                helper.make_node("Mul", [f"{p}_u", f"{p}_s"], [dq.output[0]]),
            ]
            at = list(g.node).index(q)
            keep = [n for n in g.node if n is not q and n is not dq]
            del g.node[:]
            g.node.extend(keep[:at] + new + keep[at:])
        return model

    fake_quant.__name__ = f"fake_quant_{int(per_tensor_only)}{int(plain_attrs)}"
    return fake_quant


def _flagged(model: onnx.ModelProto, fn) -> dict[str, set[tuple[str, str]]]:
    subject, applied = mutation_subject(model, "qdq", QDQ_IDS)
    assert applied
    cells = run_planted(subject, f"planted:{fn.__name__}", fn)
    got: dict[str, set[tuple[str, str]]] = {}
    for c in cells:
        for f in c.findings:
            got.setdefault(c.form, set()).add((f.oracle, f.kind))
    return got


@pytest.mark.parametrize(
    ("per_tensor_only", "plain_attrs", "caught"),
    [
        (True, False, {"qdq-per-axis-scale": "parity", "qdq-blocked-scale": "parity", "qdq-output-dtype": "numeric"}),
        (False, False, {"qdq-output-dtype": "numeric"}),
        (False, True, {"qdq-output-dtype": "parity", "qdq-inert-attrs": "parity", "qdq-blocked-scale": "parity"}),
    ],
)
def test_a_fake_quant_pass_that_mishandles_a_spelling_is_caught_on_that_form_only(per_tensor_only, plain_attrs, caught):
    got = _flagged(_activation(), _fake_quant(per_tensor_only, plain_attrs))
    assert "common" not in got
    assert {form: {o for o, _ in kinds} for form, kinds in got.items()} == {k: {v} for k, v in caught.items()}


def _fold_blocked_floor(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted fold of a blocked DequantizeLinear on initializers that counts ``K // block_size`` scale rows
    (the spec's scale shape is ``ceil(K / block_size)``): rows past them get scale 0."""
    g = model.graph
    for n in [n for n in g.node if n.op_type == "DequantizeLinear"]:
        a = _attrs(n)
        w, s = _init(g, n.input[0]), _init(g, n.input[1])
        if w is None or s is None or not a.get("block_size") or a.get("axis", 1) != 0:
            continue
        k, b = w.shape[0], a["block_size"]
        rows = np.zeros(w.shape, np.float32)
        for r in range(k):
            if r // b < k // b:
                rows[r] = s[r // b]
        g.initializer.append(numpy_helper.from_array(w.astype(np.float32) * rows, n.output[0]))
        g.node.remove(n)
    return model


def test_a_fold_counting_blocks_by_floor_is_caught_on_the_respelled_block_size():
    got = _flagged(_blocked_weight(), _fold_blocked_floor)
    assert "common" not in got
    assert ("numeric", "wrong-result") in got.get("qdq-block-size", set())


def _activation_f16() -> onnx.ModelProto:
    """x float16 [2, 4, 8] → QuantizeLinear-23 (uint8, float16 scale) → DequantizeLinear."""
    return named(
        """g (float16[2, 4, 8] x) => (float16[2, 4, 8] y) {
        q = QuantizeLinear(x, s, z)
        y = DequantizeLinear(q, s, z)
    }""",
        opset=23,
        initializers=[
            numpy_helper.from_array(np.array(0.05, np.float16), "s"),
            numpy_helper.from_array(np.array(128, np.uint8), "z"),
        ],
    )


def _precision_as_float16(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted pass that reads QuantizeLinear-23's ``precision`` as "divide in float16" whatever it says, and
    rewrites such a node as Cast(x, f16) / Cast(s, f16) → Cast back → QuantizeLinear with scale 1 and no
    ``precision``: a float scale's division rounded to float16 and four nodes more; nodes without it are left."""
    g = model.graph
    for q in [n for n in g.node if n.op_type == "QuantizeLinear" and "precision" in _attrs(n)]:
        p = q.output[0]
        g.initializer.append(numpy_helper.from_array(np.array(1, np.float32), f"{p}_one"))
        new = [
            helper.make_node("Cast", [q.input[0]], [f"{p}_xh"], to=onnx.TensorProto.FLOAT16),
            helper.make_node("Cast", [q.input[1]], [f"{p}_sh"], to=onnx.TensorProto.FLOAT16),
            helper.make_node("Div", [f"{p}_xh", f"{p}_sh"], [f"{p}_dh"]),
            helper.make_node("Cast", [f"{p}_dh"], [f"{p}_d"], to=onnx.TensorProto.FLOAT),
        ]
        q.input[0], q.input[1] = f"{p}_d", f"{p}_one"
        kept = [a for a in q.attribute if a.name != "precision"]
        del q.attribute[:]
        q.attribute.extend(kept)
        at = list(g.node).index(q)
        for i, n in enumerate(new):
            g.node.insert(at + i, n)
    return model


def test_precision_is_written_as_its_stated_default_and_a_pass_misreading_it_is_caught():
    """Operators.md QuantizeLinear-23 ``precision``: "If not provided, it will be the same as the type of
    y_scale": the rewrite writes the scale's type (float, float16), onnxruntime computes the same values, and a
    planted pass that divides in float16 wherever ``precision`` is written is caught on that form only."""
    act23, f16 = _activation(opset=23), _activation_f16()
    inert = REWRITES["qdq-inert-attrs"].apply(act23)[0]
    assert _attrs(_node(inert, "QuantizeLinear")) == {"saturate": 0, "axis": 0, "precision": onnx.TensorProto.FLOAT}
    inert16 = REWRITES["qdq-inert-attrs"].apply(f16)[0]
    assert _attrs(_node(inert16, "QuantizeLinear"))["precision"] == onnx.TensorProto.FLOAT16
    for base, mutant in ((act23, inert), (f16, inert16)):
        verify_equivalent(base, mutant, feeds(base), "qdq-inert-attrs")
    # below opset 23 the attribute does not exist: not written
    assert "precision" not in _attrs(_node(REWRITES["qdq-inert-attrs"].apply(_activation())[0], "QuantizeLinear"))
    got = _flagged(act23, _precision_as_float16)
    assert set(got) == {"qdq-inert-attrs"}  # the base (no precision written) is clean
