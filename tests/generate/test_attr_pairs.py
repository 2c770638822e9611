"""M565: pairwise (2-wise covering) rows of the attribute values a schema allows (passcheck.generate.attr_pairs,
``generated/<op>-<v>.variant.pairwise.<attr>-<value>…``), with real onnx schemas and onnxruntime; a planted pass that
writes a ConvTranspose's SAME padding out from the undilated kernel (right for every dilation of 1, wrong only where
``auto_pad = SAME_*`` meets ``dilations > 1``) is caught on a pairwise case and on no case of the one-at-a-time set."""

from __future__ import annotations

import itertools

import onnx
import onnx.defs
import pytest
from onnx import helper

from passcheck.engine import Subject, evaluate
from passcheck.generate import attr_pairs, recipe
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import generated_cases


def _node(op: str, since: int | None = None) -> recipe.Node:
    schema = onnx.defs.get_schema(op, since) if since else onnx.defs.get_schema(op)
    return recipe.build_node(schema, schema.since_version)


def _held(rows, fs):
    own = {f.name: f.values[0] for f in fs}
    return {((a, r[a]), (b, r[b])) for r in [*rows, own] for a, b in itertools.combinations([f.name for f in fs], 2)}


def test_factors_are_read_from_the_schema():
    names = [f.name for f in attr_pairs.factors(_node("AveragePool", 19))]
    assert names == ["rank", "auto_pad", "strides", "dilations", "pads", "count_include_pad", "ceil_mode"]
    assert [f.name for f in attr_pairs.factors(_node("MaxPool", 8))] == [
        "rank",
        "auto_pad",
        "strides",
        "pads",
        "storage_order",
    ]  # MaxPool-8 has no dilations or ceil_mode yet
    assert {f.name for f in attr_pairs.factors(_node("ReduceMax", 18))} == {"keepdims", "noop_with_empty_axes"}
    assert attr_pairs.factors(_node("Relu")) == []
    assert "layout" not in {f.name for f in attr_pairs.factors(_node("LSTM"))}  # reshapes X: left out


def test_every_allowed_pair_is_held_and_no_row_breaks_the_spec():
    fs = attr_pairs.factors(_node("AveragePool", 19))
    rows = attr_pairs.cover(fs)
    everything = [dict(zip([f.name for f in fs], v)) for v in itertools.product(*(f.values for f in fs))]
    allowed = [r for r in everything if attr_pairs.allowed(r)]
    want = _held(allowed, fs)
    assert _held(rows, fs) == want  # a 2-wise cover of every pair some allowed row holds
    assert all(attr_pairs.allowed(r) for r in rows)
    assert not any(r["pads"] == "asymmetric" and r["auto_pad"] != "NOTSET" for r in rows)
    assert len(rows) < len(allowed) / 10  # 3 x 4 x 2^5 = 384 rows, 288 allowed: the cover is a few
    assert attr_pairs.cover(fs) == rows  # deterministic
    assert attr_pairs.cover(fs[:1]) == []  # one factor: no pair to cover


def test_rows_resize_the_window_with_the_rank():
    rows = dict(attr_pairs.rows(_node("Conv", 11)))
    one = next(v for k, v in rows.items() if "rank-1" in k and "dilations-2" in k)
    shapes = {i.name: i.shape for i in one.inputs}
    assert shapes["X"] == (1, 2, 5) and shapes["W"] == (3, 2, 3)
    assert one.attrs["kernel_shape"] == [3] and one.attrs["dilations"] == [2]
    assert all(label.startswith("pairwise.") for label in rows)


def fold_same_padding_from_undilated_kernel(model: onnx.ModelProto) -> onnx.ModelProto:
    """Broken: a ConvTranspose's ``auto_pad = SAME_*`` written out as explicit ``pads`` (Operators.md ConvTranspose:
    ``total_padding = stride * (in - 1) + output_padding + ((kernel - 1) * dilation + 1) - out``, ``out = in *
    stride``), sizing the kernel without its dilation (``kernel`` for ``(kernel - 1) * dilation + 1``): right when
    every dilation is 1."""
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in model.graph.input}
    shapes |= {t.name: list(t.dims) for t in model.graph.initializer}
    for n in [n for n in model.graph.node if n.op_type == "ConvTranspose"]:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        mode = attrs.get("auto_pad", b"NOTSET").decode()
        if not mode.startswith("SAME") or n.input[0] not in shapes:
            continue
        spatial = shapes[n.input[0]][2:]
        if not all(spatial):  # symbolic dims: the pass only writes pads it can size
            continue
        strides = attrs.get("strides", [1] * len(spatial))
        outpad = attrs.get("output_padding", [0] * len(spatial))
        begin, end = [], []
        for i, size in enumerate(spatial):
            total = strides[i] * (size - 1) + outpad[i] + attrs["kernel_shape"][i] - size * strides[i]
            total = max(total, 0)
            small, large = total // 2, total - total // 2
            begin.append(small if mode == "SAME_UPPER" else large)
            end.append(large if mode == "SAME_UPPER" else small)
        keep = [a for a in n.attribute if a.name != "auto_pad"]
        del n.attribute[:]
        n.attribute.extend([*keep, helper.make_attribute("pads", begin + end)])
    return model


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "attr-pairs-cache", ["ConvTranspose"])


def _numeric(case) -> list:
    fn = fold_same_padding_from_undilated_kernel
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn))
    try:
        cells = [c for c in evaluate(Subject.from_case(case, onnx.__version__), [pid]) if c.pass_id == pid]
    finally:
        unregister_pass(pid)
    return [f for c in cells for f in c.findings if f.oracle == "numeric"]


def _touched(case) -> bool:
    """Whether the planted pass rewrites any form of ``case``."""
    for form in case.forms:
        m = case.build(form)
        if fold_same_padding_from_undilated_kernel(onnx.ModelProto.FromString(m.SerializeToString())) != m:
            return True
    return False


def test_same_padding_from_the_undilated_kernel_is_caught_by_a_pairwise_case_only(cases):
    meet = [c for cid, c in cases.items() if ".pairwise." in cid and "same" in cid and "dilations-2" in cid]
    assert meet, "no generated ConvTranspose case holds auto_pad SAME_* with dilations 2"
    assert _numeric(meet[0]), f"the planted SAME padding was not caught on {meet[0].id}"
    # SAME alone (dilations 1): the plant's explicit pads are right, nothing to find
    same_only = next(c for cid, c in cases.items() if ".pairwise." in cid and "same" in cid and "dilations" not in cid)
    assert _numeric(same_only) == []
    # the one-at-a-time set never writes auto_pad: the plant leaves every one of its cases as it is
    old = [c for cid, c in cases.items() if ".pairwise." not in cid]
    assert old and not any(_touched(c) for c in old)
