"""The boundary values of spec_table's rules, as the operator documentation states them (onnx 1.23.2
Operators.md): zero is no positive stride, dilation, kernel size or blocksize and one is; a zero dim is a
valid ConstantOfShape shape; a Slice step may be negative; an axis named twice breaks the rules that say so;
axes read from an op's own input index. Judged by ``conformance.evaluate`` on parsed models."""

from __future__ import annotations

import pytest
from onnx import parser

from passcheck.oracles.conformance import evaluate


def _violations(body: str, *, inputs: str = "float[1, 4, 4, 4] x", out: str = "float[?, ?, ?, ?] y", inits: str = ""):
    model = parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g ({inputs}) => ({out}) {inits} {{ {body} }}""")
    return [(v.rule, v.message) for v in evaluate(model).violations]


@pytest.mark.parametrize(
    ("attr", "rule"), [("strides", "strides"), ("dilations", "dilations"), ("kernel_shape", "kernel")]
)
def test_a_zero_window_step_or_size_is_not_positive_and_one_is(attr, rule):
    """Mutants killed: ``v > 0`` → ``v >= 0`` for strides, dilations and kernel_shape; → ``v > 1`` for kernel_shape."""
    ones = "kernel_shape = [1, 1], strides = [1, 1], dilations = [1, 1]"
    assert _violations(f"y = MaxPool <{ones}> (x)") == []
    zero = ones.replace(f"{attr} = [1, 1]", f"{attr} = [0, 1]")
    assert _violations(f"y = MaxPool <{zero}> (x)") == [
        (f"window-{rule}-positive", f"{attr} = [0, 1]: [0] are not positive")
    ]


def test_a_blocksize_of_one_is_positive_zero_and_below_are_not():
    """Mutants killed: ``v > 0`` → ``v != 0``, ``v >= 0`` and ``v > 1`` in ``depth-to-space-blocksize``."""
    assert _violations("y = DepthToSpace <blocksize = 1> (x)") == []
    for size in (0, -1):
        assert _violations(f"y = DepthToSpace <blocksize = {size}> (x)") == [
            ("depth-to-space-blocksize", f"blocksize = [{size}]: [{size}] are not positive")
        ]


def test_constant_of_shape_takes_a_zero_dim_but_no_negative_one():
    """Mutants killed: ``v >= 0`` → ``v > 0`` / ``v >= 1`` and ``index=0`` → ``index=1`` in
    ``constant-of-shape-non-negative`` (the shape is input 0; there is no input 1)."""
    shape = {"inputs": "float[2] z", "out": "float[?, ?] y"}
    assert _violations("y = ConstantOfShape (s)", inits="<int64[2] s = {0, 2}>", **shape) == []
    assert _violations("y = ConstantOfShape (s)", inits="<int64[2] s = {-1, 2}>", **shape) == [
        ("constant-of-shape-non-negative", "input = [-1, 2]: [-1] are negative")
    ]


def test_a_negative_slice_step_is_allowed():
    """Mutant killed: ``v != 0`` → ``v > 0`` in ``slice-steps-non-zero`` (steps cannot be 0; -1 walks backwards)."""
    inits = "<int64[1] st = {3}, int64[1] en = {0}, int64[1] ax = {1}, int64[1] sp = {-1}>"
    assert _violations("y = Slice (x, st, en, ax, sp)", inits=inits) == []


def test_an_axis_named_twice_breaks_slice_and_resize():
    """Mutants killed: ``unique=True`` → ``False`` in ``slice-axes`` and ``resize-axes``."""
    inits = "<int64[2] st = {0, 0}, int64[2] en = {1, 1}, int64[2] ax = {1, 1}, int64[2] sp = {1, 1}>"
    assert _violations("y = Slice (x, st, en, ax, sp)", inits=inits) == [
        ("slice-axes", "input 'ax' = [1, 1] names an axis twice (rank 4)")
    ]
    assert _violations("y = Resize <axes = [2, 2]> (x, , sc)", inits="<float[2] sc = {2.0, 2.0}>") == [
        ("resize-axes", "axes = [2, 2] names an axis twice (rank 4)")
    ]


def test_cumsum_and_squeeze_read_their_axes_from_input_one():
    """Mutants killed: ``axes_in_range(None, 1)`` → ``(None, 2)`` in ``cumsum-axis`` and ``("axes", 1)`` →
    ``("axes", 2)`` in ``squeeze-axes`` (input 2 does not exist: nothing was judged)."""
    cumsum = {"inputs": "float[2, 3] x", "out": "float[2, 3] y"}
    assert _violations("y = CumSum (x, a)", inits="<int64 a = {1}>", **cumsum) == []
    assert _violations("y = CumSum (x, a)", inits="<int64 a = {2}>", **cumsum) == [
        ("cumsum-axis", "input 'a' = [2]: [2] outside [-2, 1] (rank 2)")
    ]
    squeeze = {"inputs": "float[1, 3] x", "out": "float[3] y"}
    assert _violations("y = Squeeze (x, a)", inits="<int64[1] a = {0}>", **squeeze) == []
    assert _violations("y = Squeeze (x, a)", inits="<int64[1] a = {2}>", **squeeze) == [
        ("squeeze-axes", "axes = [2]: [2] outside [-2, 1] (rank 2)")
    ]
