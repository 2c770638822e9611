"""The documented operator rules, one :class:`~passcheck.oracles.spec_rules.Rule` each: id, ops, check,
what the docs say (our words) and where (Operators.md: op, attribute or input), and the opset range.

Every rule here is stated in the operator documentation of onnx 1.23.2 (``onnx.defs`` schema docs).
A rule the checker or onnx shape inference also enforces is kept: the oracle only judges models the
checker accepts, so such a rule speaks only where they do not look (no static shape, a subgraph).
"""

from __future__ import annotations

import functools

from passcheck.oracles.spec_rules import (
    Rule,
    axes_in_range,
    cast_to,
    conv_group,
    dropout_ratio,
    each,
    einsum_equation,
    gathernd_batch_dims,
    one_of,
    pad_length,
    permutation,
    reshape_shape,
    resize_output_dims,
    spatial_length,
    split_sizes,
)

_POSITIVE = "are not positive"
_NEG = "are negative"
_CONV = ("Conv", "ConvInteger", "QLinearConv", "ConvTranspose")
_WINDOW = (*_CONV, "MaxPool", "AveragePool", "LpPool")
_REDUCE = (
    "ReduceMean",
    "ReduceMax",
    "ReduceMin",
    "ReduceProd",
    "ReduceL1",
    "ReduceL2",
    "ReduceLogSum",
    "ReduceLogSumExp",
    "ReduceSumSquare",
)
#: Ops whose ``axis`` attribute indexes input 0 within ``[-r, r-1]`` (rule ``axis-<op>``; read by the inference probes).
AXIS_OPS = (
    "Softmax",
    "LogSoftmax",
    "Hardmax",
    "Concat",
    "Gather",
    "GatherElements",
    "ScatterElements",
    "ArgMax",
    "ArgMin",
    "TopK",
    "Split",
    "LayerNormalization",
    "Compress",
)
_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
_TRANSFORMS = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize")
_REDUCED = "each reduced axis lies in [-r, r-1], r the rank of data"


def _reduce_rules() -> list[Rule]:
    """The reduce ops' axes: an attribute until the opset that made it an input (13: ReduceSum, 18: the rest)."""
    out = []
    for op, moved in [("ReduceSum", 13)] + [(op, 18) for op in _REDUCE]:
        out += [
            Rule(
                f"reduce-axes-attr-{op}",
                (op,),
                axes_in_range("axes", None),
                _REDUCED,
                f"{op}, attribute axes",
                (1, moved),
            ),
            Rule(
                f"reduce-axes-input-{op}", (op,), axes_in_range(None, 1), _REDUCED, f"{op}, input axes", (moved, None)
            ),
        ]
    return out


RULES: tuple[Rule, ...] = (
    Rule(
        "window-strides-positive",
        _WINDOW,
        each("strides", lambda v: v > 0, _POSITIVE),
        "strides are the step along each spatial axis: positive integers",
        "Conv/MaxPool/AveragePool, strides",
    ),
    Rule(
        "window-dilations-positive",
        _WINDOW,
        each("dilations", lambda v: v > 0, _POSITIVE),
        "dilations are the filter's step along each spatial axis: positive integers",
        "Conv/MaxPool, dilations",
    ),
    Rule(
        "window-kernel-positive",
        _WINDOW,
        each("kernel_shape", lambda v: v > 0, _POSITIVE),
        "kernel_shape is the kernel's size along each spatial axis: positive integers",
        "Conv/MaxPool, kernel_shape",
    ),
    Rule(
        "window-pads-non-negative",
        _WINDOW,
        each("pads", lambda v: v >= 0, _NEG),
        "pads count the pixels added at the start and end of each spatial axis: any value >= 0",
        "Conv/MaxPool/AveragePool, attribute pads",
    ),
    Rule(
        "window-pads-length",
        _WINDOW,
        spatial_length("pads", 2),
        "pads hold a begin and an end value per spatial axis: 2 x (rank - 2) values",
        "Conv/MaxPool, pads format",
    ),
    Rule(
        "window-strides-length",
        _WINDOW,
        spatial_length("strides"),
        "strides hold one value per spatial axis",
        "Conv/MaxPool, strides",
    ),
    Rule(
        "window-dilations-length",
        _WINDOW,
        spatial_length("dilations"),
        "dilations hold one value per spatial axis",
        "Conv/MaxPool, dilations",
    ),
    Rule(
        "window-kernel-length",
        _WINDOW,
        spatial_length("kernel_shape"),
        "kernel_shape holds one size per spatial axis",
        "Conv/MaxPool, kernel_shape",
    ),
    Rule(
        "window-auto-pad",
        _WINDOW,
        one_of("auto_pad", ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")),
        "auto_pad is one of NOTSET, SAME_UPPER, SAME_LOWER, VALID",
        "Conv/MaxPool/AveragePool, auto_pad",
    ),
    Rule(
        "conv-group",
        ("Conv", "ConvTranspose"),
        conv_group,
        "group is a positive count; X.shape[1] == W.shape[1] * group and W.shape[0] is a multiple of group",
        "Conv, input W",
    ),
    Rule(
        "transpose-perm",
        ("Transpose",),
        permutation,
        "perm is a permutation of the input's axes: as many values as its rank, each in [0, rank-1], none twice",
        "Transpose, attribute perm",
    ),
    Rule(
        "flatten-axis",
        ("Flatten",),
        axes_in_range("axis", None, end_inclusive=True),
        "axis lies in [-r, r], r the input's rank",
        "Flatten, attribute axis",
    ),
    *[
        Rule(
            f"axis-{op}",
            (op,),
            axes_in_range("axis", None),
            "axis lies in [-r, r-1], r the rank of the input it indexes",
            f"{op}, attribute axis",
        )
        for op in AXIS_OPS
    ],
    Rule(
        "topk-k-attr-positive",
        ("TopK",),
        each("k", lambda v: v > 0, _POSITIVE),
        "k is the number of top elements to retrieve: a positive integer",
        "TopK, attribute k",
        (1, 10),
    ),
    Rule(
        "topk-k-positive",
        ("TopK",),
        each("K", lambda v: v > 0, _POSITIVE, index=1),
        "K holds a single positive value, the number of top elements to retrieve",
        "TopK, input K",
        (10, None),
    ),
    Rule(
        "gathernd-batch-dims",
        ("GatherND",),
        gathernd_batch_dims,
        "batch_dims b counts the leading dimensions data and indices share: 0 <= b < min(q, r)",
        "GatherND, attribute batch_dims",
        (12, None),
    ),
    Rule(
        "cumsum-axis",
        ("CumSum",),
        axes_in_range(None, 1),
        "axis lies in [-r, r-1], r the rank of x",
        "CumSum, input axis",
    ),
    Rule(
        "squeeze-axes",
        ("Squeeze",),
        axes_in_range("axes", 1),
        "each squeezed axis lies in [-r, r-1], r the rank of data",
        "Squeeze, axes",
    ),
    Rule(
        "unsqueeze-axes",
        ("Unsqueeze",),
        axes_in_range("axes", 1, unique=True, rank_grows=True),
        "each inserted axis lies in [-r, r-1], r the rank of the expanded output; axes holds no duplicate",
        "Unsqueeze, axes (an error if it contains duplicates)",
    ),
    *_reduce_rules(),
    Rule(
        "slice-axes",
        ("Slice",),
        axes_in_range(None, 3, unique=True),
        "each sliced axis lies in [-r, r-1]; behaviour is undefined when an axis is repeated",
        "Slice, input axes",
        (10, None),
    ),
    Rule(
        "slice-steps-non-zero",
        ("Slice",),
        each("steps", lambda v: v != 0, "are 0", index=4),
        "steps cannot be 0",
        "Slice, input steps",
        (10, None),
    ),
    Rule("split-sizes", ("Split",), split_sizes, "split sizes are >= 0 and sum to the dim at axis", "Split, split"),
    Rule(
        "pad-length",
        ("Pad",),
        pad_length,
        "pads hold 2 x num_axes values (the axes input's length, else the input rank)",
        "Pad, pads",
    ),
    Rule(
        "pad-mode",
        ("Pad",),
        one_of("mode", ("constant", "reflect", "edge")),
        "mode is constant, reflect or edge",
        "Pad, attribute mode",
        (1, 19),
    ),
    Rule(
        "pad-mode-wrap",
        ("Pad",),
        one_of("mode", ("constant", "reflect", "edge", "wrap")),
        "mode is constant, reflect, edge or wrap",
        "Pad, attribute mode",
        (19, None),
    ),
    Rule(
        "reshape-shape",
        ("Reshape",),
        reshape_shape,
        "at most one dim of the new shape is -1, none below -1, and not both 0 and -1 with allowzero",
        "Reshape, input shape",
        (5, None),
    ),
    Rule(
        "resize-output-dims",
        ("Resize", "Upsample"),
        resize_output_dims,
        "with scales, each output dim is floor(input dim x scale) (Resize: x (roi_end - roi_start), 1 outside "
        "tf_crop_and_resize): a stated output dim holds that value",
        "Resize, input scales; Upsample, attribute or input scales",
    ),
    Rule(
        "upsample-mode",
        ("Upsample",),
        one_of("mode", ("nearest", "linear")),
        "mode is nearest or linear (two interpolation modes)",
        "Upsample, attribute mode",
    ),
    Rule(
        "resize-mode-10",
        ("Resize",),
        one_of("mode", ("nearest", "linear")),
        "mode is nearest or linear (two interpolation modes; cubic comes with Resize-11)",
        "Resize, attribute mode",
        (10, 11),
    ),
    Rule(
        "resize-mode",
        ("Resize",),
        one_of("mode", ("nearest", "linear", "cubic")),
        "mode is nearest, linear or cubic",
        "Resize, attribute mode",
        (11, None),
    ),
    Rule(
        "resize-nearest-mode",
        ("Resize",),
        one_of("nearest_mode", _NEAREST),
        "nearest_mode is one of four modes: round_prefer_floor (the default), round_prefer_ceil, floor, ceil; "
        "only nearest interpolation reads it",
        "Resize, attribute nearest_mode",
        (11, None),
    ),
    Rule(
        "resize-coordinate-mode-11",
        ("Resize",),
        one_of("coordinate_transformation_mode", (*_TRANSFORMS, "tf_half_pixel_for_nn")),
        "coordinate_transformation_mode is one of the documented transforms",
        "Resize-11, coordinate_transformation_mode",
        (11, 13),
    ),
    Rule(
        "resize-coordinate-mode",
        ("Resize",),
        one_of("coordinate_transformation_mode", _TRANSFORMS),
        "coordinate_transformation_mode is one of the documented transforms "
        "(tf_half_pixel_for_nn is gone since opset 13, "
        "half_pixel_symmetric comes at 19)",
        "Resize, coordinate_transformation_mode",
        (13, 19),
    ),
    Rule(
        "resize-coordinate-mode-19",
        ("Resize",),
        one_of("coordinate_transformation_mode", (*_TRANSFORMS, "half_pixel_symmetric")),
        "coordinate_transformation_mode is one of the documented transforms",
        "Resize-19, coordinate_transformation_mode",
        (19, None),
    ),
    Rule(
        "resize-aspect-policy",
        ("Resize",),
        one_of("keep_aspect_ratio_policy", ("stretch", "not_larger", "not_smaller")),
        "keep_aspect_ratio_policy is stretch, not_larger or not_smaller",
        "Resize, keep_aspect_ratio_policy",
        (18, None),
    ),
    Rule(
        "resize-axes",
        ("Resize",),
        axes_in_range("axes", None, unique=True),
        "each axis lies in [-r, r-1]; behaviour is undefined when an axis is repeated",
        "Resize, attribute axes",
        (18, None),
    ),
    Rule("cast-to", ("Cast",), cast_to, "to is one of the TensorProto DataType values", "Cast, attribute to"),
    Rule(
        "einsum-equation",
        ("Einsum",),
        einsum_equation,
        "the equation is comma-separated terms of letters (and ellipses), one per input, each as long as its input's "
        "rank, optionally '->' and an output term of letters the inputs name, none twice, at most one ellipsis",
        "Einsum, equation",
    ),
    Rule(
        "depth-to-space-blocksize",
        ("DepthToSpace", "SpaceToDepth"),
        each("blocksize", lambda v: v > 0, _POSITIVE),
        "blocksize is the side of the moved blocks: a positive integer",
        "DepthToSpace/SpaceToDepth, blocksize",
    ),
    Rule(
        "depth-to-space-mode",
        ("DepthToSpace",),
        one_of("mode", ("DCR", "CRD")),
        "mode is DCR or CRD",
        "DepthToSpace, mode",
    ),
    Rule("dropout-ratio", ("Dropout",), dropout_ratio, "ratio lies in [0, 1)", "Dropout, input ratio", (12, None)),
    Rule(
        "constant-of-shape-non-negative",
        ("ConstantOfShape",),
        each("input", lambda v: v >= 0, _NEG, index=0),
        "every value of the shape input is >= 0",
        "ConstantOfShape, input",
    ),
    Rule(
        "scatter-reduction",
        ("ScatterND", "ScatterElements"),
        one_of("reduction", ("none", "add", "mul", "max", "min")),
        "reduction is none, add, mul, max or min",
        "ScatterND/ScatterElements, reduction",
        (16, None),
    ),
    Rule(
        "grid-sample-padding-mode",
        ("GridSample",),
        one_of("padding_mode", ("zeros", "border", "reflection")),
        "padding_mode is zeros, border or reflection",
        "GridSample, padding_mode",
    ),
)


@functools.cache
def string_domains() -> dict[tuple[str, str], tuple[tuple[tuple[int, int | None], tuple[str, ...]], ...]]:
    """``(op, STRING attribute)`` → its documented value sets, each with the opset range ``[lo, hi)`` it holds in:
    the ``one_of`` rules of :data:`RULES` (their ``check.domain``), in table order."""
    out: dict = {}
    for rule in RULES:
        if (domain := getattr(rule.check, "domain", None)) is not None:
            for op in rule.ops:
                out.setdefault((op, domain[0]), []).append((rule.since, domain[1]))
    return {k: tuple(v) for k, v in out.items()}


def string_domain(op: str, version: int, attr: str) -> tuple[str, ...]:
    """The values Operators.md documents for ``op``'s STRING attribute ``attr`` at opset ``version`` (empty: the
    table states none)."""
    for (lo, hi), values in string_domains().get((op, attr), ()):
        if version >= lo and (hi is None or version < hi):
            return values
    return ()
