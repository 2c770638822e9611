"""Catalogue rows (see :mod:`passcheck.mutations.catalogue`) for the operator-schema and algebraic
freedoms the earlier rewrite modules produce. New rewrite modules declare their own ``FREEDOMS``."""

from passcheck.mutations._freedom import Freedom

FREEDOMS = (
    Freedom(
        "attribute-default",
        "operator schemas",
        "IR.md §Attributes; each op's schema (Operators.md, attribute defaults)",
        "An attribute the schema gives a default may be written with that value or left out; both mean the default.",
        ("explicit-defaults", "omitted-defaults"),
        "every default-domain node of the main graph whose schema (at the model's opset) declares a default; composes "
        "with every rewrite (depth 2).",
    ),
    Freedom(
        "axis-sign",
        "operator schemas",
        "Operators.md (axis/axes attributes since opset 11: range [-r, r-1]; QuantizeLinear/DequantizeLinear-13, "
        "LayerNormalization-17, Resize-18 and CenterCropPad-18 axes, OneHot-11 ([-r-1, r]), DFT-17 ([-r, -2]))",
        "An axis may be counted from the front (a) or from the back (a - r) once the op accepts negative axes.",
        ("negative-axes", "positive-axes"),
        "axis/axes attributes of main-graph and If/Loop/Scan body nodes (nested too; function bodies: "
        "axis-sign-in-function-bodies) whose input rank onnx shape inference knows (OneHot: the output's); "
        "opset >= 11; the ops are every schema attribute the gap audit (passcheck.mutations.gaps) finds "
        "accepting negative values, but Scan's per-input "
        "axes and ConcatFromSequence (sequence element rank).",
    ),
    Freedom(
        "shape-start-end",
        "operator schemas",
        "Operators.md Shape-15 (start, end)",
        "A slice of a tensor's shape may be taken by Shape's start/end attributes or by a Slice/Gather on Shape's "
        "output.",
        ("shape-start-end", "shape-then-slice"),
        "Shape nodes of the main graph read by a dim-0 Slice/Gather with static parameters (and back); opset >= 15.",
    ),
    Freedom(
        "count-from-shape",
        "operator schemas",
        "IR.md §Graphs (an input is any value of its type); Operators.md Shape, Gather",
        "A constant count or size that equals a static dim of a graph input may be computed from that input's "
        "Shape instead.",
        ("shape-derived-count", "shape-derived-count-slice"),
        "rank-0/1 int64 constants read by main-graph nodes, equal to a dim_value of a graph input; one way only (the "
        "inverse is constant folding, which is the pass under test).",
    ),
    Freedom(
        "parameter-leading-ones",
        "operator schemas",
        "Broadcasting.md (multidirectional, since opset 7); Operators.md MatMul, PRelu",
        "A broadcast operand may carry leading 1-dims up to the output rank without changing the result.",
        ("parameter-leading-ones",),
        "parameter initializers of broadcasting ops and MatMul weights in the main graph; one way (dropping "
        "leading ones "
        "needs every reader to broadcast).",
    ),
    Freedom(
        "gemm-as-matmul-add",
        "algebra",
        "Operators.md Gemm-7+, MatMul, Add, Transpose, Mul",
        "Gemm is MatMul of the (transposed) operands scaled by alpha plus beta times the broadcast C.",
        ("gemm-to-matmul-add", "matmul-add-to-gemm"),
        "main-graph Gemm nodes of known float element type (and 2-D MatMul + Add pairs back); opset >= 7.",
    ),
    Freedom(
        "axes-input-or-attribute",
        "operator schemas",
        "Operators.md Squeeze-13, Unsqueeze-13, ReduceSum-13, Reduce*-18; Versioning.md",
        "The same axes may be an attribute (before the op's version that moved them) or an int64 input (from it), "
        "with the "
        "opset stamp on the matching side.",
        ("axes-as-input", "axes-as-attribute"),
        "every Squeeze/Unsqueeze/Reduce* node together (one opset stamp), main graph and subgraphs; only where every "
        "other op keeps its schema across the move.",
    ),
    Freedom(
        "reshape-through-intermediate",
        "algebra",
        "Operators.md Reshape-5+ (-1 and 0 entries, allowzero)",
        "A Reshape may go through any intermediate shape of the same size, and two chained Reshapes may collapse "
        "to the second.",
        ("reshape-split", "reshape-merge"),
        "main-graph Reshape nodes with a static shape input; 0 entries and allowzero respected.",
    ),
    Freedom(
        "commutative-operands",
        "algebra",
        "Operators.md Add, Mul, Sum, Max, Min, Equal, And, Or, Xor; Broadcasting.md",
        "The operands of a commutative op may come in either order (multidirectional broadcasting is symmetric).",
        ("commute-operands",),
        "main-graph nodes of those ops at opset >= 7 (legacy broadcast/axis attributes left alone); its own inverse.",
    ),
    Freedom(
        "broadcast-explicit",
        "algebra",
        "Broadcasting.md (multidirectional); Operators.md Unsqueeze, Expand",
        "Implicit numpy broadcasting may be spelled with an explicit Unsqueeze/Expand of the smaller operand, and "
        "back.",
        ("explicit-broadcast", "implicit-broadcast"),
        "main-graph broadcasting nodes whose operand ranks (and, to drop an Expand, dims) shape inference knows.",
    ),
    Freedom(
        "keepdims-or-unsqueeze",
        "algebra",
        "Operators.md Reduce* (keepdims; axes omitted with noop_with_empty_axes 0 reduces every axis), Unsqueeze",
        "A reduction may keep the reduced axes (keepdims=1) or drop them and put them back with Unsqueeze.",
        ("keepdims-unsqueeze", "unsqueeze-keepdims"),
        "main-graph Reduce* nodes over a fixed, non-empty list of axes, or with axes omitted (noop_with_empty_axes 0) "
        "on an input of known rank >= 1.",
    ),
    Freedom(
        "opset-stamp",
        "opset imports",
        "Versioning.md; IR.md §Operator Sets",
        "A model may be stamped with any default-domain opset at which every op it uses keeps the schema it has now.",
        ("opset-stamp-down", "opset-stamp-up"),
        "the model's opset_import (one site); models with model-local functions left alone; within the IR "
        "version's range.",
    ),
    Freedom(
        "opset-below-additions",
        "opset imports",
        "Versioning.md (an added optional attribute's default keeps the previous version's meaning); IR.md "
        "§Operator Sets; each op's schema versions",
        "A model may be stamped below (or above) op versions that only added optional attributes, trailing "
        "optional inputs or outputs, or types, when none of its nodes uses what they added.",
        ("opset-stamp-below", "opset-stamp-above"),
        "the model's opset_import (one site), where it reaches below opset-stamp-down's target, or above "
        "opset-stamp-up's (the IR version raised with it; not past what every supported environment knows); "
        "nodes with a non-scalar operand past the first stop at a version that added an attribute; not below 7.",
    ),
    Freedom(
        "float64-compute",
        "data types",
        "each op's type constraints (Operators.md); Operators.md Cast-6+",
        "A float32 computation may run in float64 between Casts at the graph boundary, where every op takes "
        "tensor(double); "
        "results agree within float32 tolerance.",
        ("float64-compute",),
        "whole main graphs without subgraphs or functions (site: the graph); float16 not offered (its rounding exceeds "
        "the gate's tolerance).",
    ),
)
