"""Attributes whose default only the operator's doc states (``default_value`` UNDEFINED in the schema),
written out ↔ omitted. ONNX IR spec, "Attributes": an omitted optional attribute takes the operator's
default; for the rows of :data:`STATED` the installed onnx schema's attribute description gives it in
prose (quoted in each row, checked against the schema by the tests):

- ``strides`` / ``dilations``: 1 along each spatial axis;
- ``pads``: 0 at the beginning and end of each spatial axis (only when ``auto_pad`` is absent or
  ``NOTSET``: the two cannot be used together);
- ``output_padding`` (ConvTranspose): a zero vector;
- ``kernel_shape`` (the Conv family): inferred from the weight ``W``, i.e. ``W.shape[2:]``.

A row applies at the model's opset only when that version's description carries the quoted sentence
(Conv-1 states no stride default; AveragePool has ``dilations`` from 19). The number of spatial axes
``n`` is ``len(kernel_shape)``, else ``rank(W) - 2`` from shape inference. Main graph only; sites are
the rewritten nodes. Every other optional attribute without a schema default is classified in
:data:`NOT_REWRITTEN` with why it gets no rewrite here, so the table is complete for the pinned onnx
(``tests/mutations/test_prose_defaults.py``)."""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import attr_value, drop_attribute
from passcheck.mutations._shapes import known
from passcheck.mutations.axes_inputs import AXES_INPUT_SINCE
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx


@dataclasses.dataclass(frozen=True)
class Stated:
    """A default the schema's doc states in prose.

    Attributes:
        value: ``ones`` / ``zeros`` (``n`` values), ``pads`` (``2n`` zeros), ``kernel`` (``W.shape[2:]``).
        quote: the sentence of the attribute description that states it (a substring of it, verbatim).
    """

    value: str
    quote: str


_ONES = "If not present, the stride defaults to 1 along each spatial axis."
_DIL = "If not present, the dilation defaults to 1 along each spatial axis."
_PADS = "If not present, the padding defaults to 0 along start and end of each spatial axis."
_KERNEL = "If not present, should be inferred from input W."
_PADS_10 = "If not present, the padding defaultsto 0 along start and end of each spatial axis."  # sic, -10

#: (op_type, attribute) → its prose default; the ONNX domain, as ``onnx.defs`` describes it.
STATED: dict[tuple[str, str], Stated] = {
    ("Conv", "strides"): Stated("ones", "If not present, the stride defaults is 1 along each spatial axis."),
    ("Conv", "dilations"): Stated("ones", "If not present, the dilation defaults is 1 along each spatial axis."),
    ("Conv", "pads"): Stated("pads", _PADS),
    ("Conv", "kernel_shape"): Stated("kernel", _KERNEL),
    ("ConvTranspose", "strides"): Stated("ones", _ONES),
    ("ConvTranspose", "dilations"): Stated("ones", _DIL),
    ("ConvTranspose", "pads"): Stated("pads", _PADS),
    ("ConvTranspose", "kernel_shape"): Stated("kernel", _KERNEL),
    ("ConvTranspose", "output_padding"): Stated("zeros", "By default, this attribute is a zero vector."),
    ("ConvInteger", "strides"): Stated("ones", "If not present, the stride defaults to 1 along each axis."),
    ("ConvInteger", "dilations"): Stated("ones", "If not present, the dilation defaults to 1 along each axis."),
    ("ConvInteger", "pads"): Stated("pads", _PADS_10),
    ("ConvInteger", "kernel_shape"): Stated("kernel", "If not present, should be inferred from input 'w'."),
    ("QLinearConv", "strides"): Stated("ones", _ONES),
    ("QLinearConv", "dilations"): Stated("ones", _DIL),
    ("QLinearConv", "pads"): Stated("pads", _PADS_10),
    ("QLinearConv", "kernel_shape"): Stated("kernel", "If not present, should be inferred from input 'w'."),
    ("DeformConv", "strides"): Stated("ones", "Default is 1 along each axis."),
    ("DeformConv", "dilations"): Stated("ones", "Default is 1 along each axis."),
    ("DeformConv", "pads"): Stated("pads", "Default is 0 along each axis."),
    ("DeformConv", "kernel_shape"): Stated("kernel", "If not present, it is inferred from the shape of input W."),
    ("MaxPool", "strides"): Stated("ones", _ONES),
    ("MaxPool", "dilations"): Stated("ones", _DIL),
    ("MaxPool", "pads"): Stated("pads", _PADS),
    ("AveragePool", "strides"): Stated("ones", _ONES),
    ("AveragePool", "dilations"): Stated("ones", _DIL),
    ("AveragePool", "pads"): Stated("pads", _PADS),
    ("LpPool", "strides"): Stated("ones", _ONES),
    ("LpPool", "dilations"): Stated("ones", "If not present, the dilation defaults is 1 along each spatial axis."),
    ("LpPool", "pads"): Stated("pads", _PADS),
    ("MaxUnpool", "strides"): Stated("ones", _ONES),
    ("MaxUnpool", "pads"): Stated("pads", _PADS),
}

#: Where the weight W is, for the ops whose kernel_shape comes from it.
WEIGHT_INPUT = {"Conv": 1, "ConvTranspose": 1, "ConvInteger": 1, "QLinearConv": 3, "DeformConv": 1}

_LEGACY_BROADCAST = "opset-1/6 broadcast axis, read only with broadcast=1: no default stated"
_NO_DEFAULT = "no default stated: the attribute's absence is its own meaning"
_RANDOM = "no default: absent means an auto-generated seed (no value spells it)"
_LIKE_DTYPE = "stated default is the input's dtype: writing it needs the element type (not rewritten here)"
_RNN = "stated by reference to the activation ops / equations, per activation: not rewritten here"
_ELSEWHERE = "rewritten elsewhere"
_NOT_CONST = "stated default depends on another input's value (not rewritten here)"
_SCAN = "stated default 0 per scan input/output (not rewritten here: Scan bodies are subgraph sites)"
_STRINGS = "string-op default (no rewrite: string models are outside the passes' patterns)"

#: (op_type, attribute) → why it has no row in :data:`STATED` (``("*", name)``: every op).
NOT_REWRITTEN: dict[tuple[str, str], str] = {
    ("*", "consumed_inputs"): "legacy (opset < 6) optimisation hint with no semantics: no default stated",
    **{(op, "axis"): _LEGACY_BROADCAST for op in ("Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor")},
    **{(op, "axis"): _LEGACY_BROADCAST for op in ("Equal", "Greater", "Less")},
    ("Attention", "kv_num_heads"): _NO_DEFAULT + " (3D inputs only)",
    ("Attention", "q_num_heads"): _NO_DEFAULT + " (3D inputs only)",
    ("RotaryEmbedding", "num_heads"): _NO_DEFAULT + " (3D inputs only)",
    ("Attention", "scale"): "stated default 1/sqrt(head_size): a float from a dim (not rewritten here)",
    ("Attention", "softmax_precision"): "stated default is the inputs' precision (not rewritten here)",
    ("Bernoulli", "dtype"): _LIKE_DTYPE,
    ("EyeLike", "dtype"): _LIKE_DTYPE,
    ("RandomNormalLike", "dtype"): _LIKE_DTYPE,
    ("RandomUniformLike", "dtype"): _LIKE_DTYPE,
    **{(op, "seed"): _RANDOM for op in ("Bernoulli", "Dropout", "Multinomial", "RandomNormal")},
    **{(op, "seed"): _RANDOM for op in ("RandomNormalLike", "RandomUniform", "RandomUniformLike")},
    ("SequenceEmpty", "dtype"): "stated default 'float' (sequence-typed output: not rewritten here)",
    ("ConstantOfShape", "value"): "stated default float32 0 (a tensor attribute: not rewritten here)",
    ("CenterCropPad", "axes"): "stated default [0 … r-1] (not rewritten here)",
    ("Resize", "axes"): "stated default [0 … r-1] (not rewritten here)",
    ("Compress", "axis"): "absent means flatten first, which no axis value spells",
    ("Unique", "axis"): "absent means flatten first, which no axis value spells",
    ("Concat", "axis"): "Concat-1 states default 1 (opset < 4 only: not rewritten here)",
    ("Slice", "axes"): "Slice-1 states [0 … len(starts)-1] (opset < 10 only: not rewritten here)",
    ("Split", "axis"): "Split-1: no default stated (opset < 2 only)",
    ("Split", "split"): _ELSEWHERE + " (split-sizes-explicit / split-equal-parts)",
    ("Split", "num_outputs"): _ELSEWHERE + " (split-equal-parts writes it)",
    ("Squeeze", "axes"): _ELSEWHERE + " (squeeze-as-reshape, reshape-as-squeeze: the default depends on dims)",
    ("Transpose", "perm"): _ELSEWHERE + " (transpose-perm-explicit / transpose-perm-omitted)",
    **{
        (op, "axes"): _ELSEWHERE + " (reduce-axes-all-explicit / reduce-axes-omitted)"
        for op in AXES_INPUT_SINCE
        if op.startswith("Reduce")
    },
    ("Shape", "end"): "stated default: up to the last axis (not rewritten here)",
    ("Clip", "min"): "Clip-1 (opset < 6): no default stated",
    ("Clip", "max"): "Clip-1 (opset < 6): no default stated",
    ("Reshape", "shape"): "Reshape-1 (opset < 5): no default stated",
    ("LpPool", "kernel_shape"): "LpPool-1: no default stated (required from LpPool-2)",
    ("Col2Im", "strides"): _NOT_CONST + ": n is the length of the block_shape input",
    ("Col2Im", "dilations"): _NOT_CONST + ": n is the length of the block_shape input",
    ("Col2Im", "pads"): _NOT_CONST + ": n is the length of the block_shape input",
    ("ConvTranspose", "output_shape"): _NO_DEFAULT + " (pads are then computed)",
    ("Constant", "value"): "one of the value attributes is required: no default",
    ("Constant", "sparse_value"): "one of the value attributes is required: no default",
    **{
        ("Constant", f"value_{k}"): "one of the value attributes is required: no default"
        for k in ("float", "floats", "int", "ints", "string", "strings")
    },
    ("Optional", "type"): "absent means the type comes from the input: no value to write",
    ("NegativeLogLikelihoodLoss", "ignore_index"): _NO_DEFAULT,
    ("SoftmaxCrossEntropyLoss", "ignore_index"): _NO_DEFAULT,
    **{(op, "hidden_size"): _NO_DEFAULT + " (inferred from R in practice)" for op in ("GRU", "LSTM", "RNN")},
    **{(op, "clip"): _NO_DEFAULT + " (no clip)" for op in ("GRU", "LSTM", "RNN")},
    **{(op, a): _RNN for op in ("GRU", "LSTM", "RNN") for a in ("activation_alpha", "activation_beta")},
    ("GRU", "activations"): _RNN,
    ("LSTM", "activations"): _RNN,
    ("Scan", "directions"): _SCAN,
    ("Scan", "scan_input_axes"): _SCAN,
    ("Scan", "scan_input_directions"): _SCAN,
    ("Scan", "scan_output_axes"): _SCAN,
    ("Scan", "scan_output_directions"): _SCAN,
    ("RegexFullMatch", "pattern"): _STRINGS + "; no default stated",
    ("StringNormalizer", "locale"): _STRINGS + "; implementation-defined",
    ("StringNormalizer", "stopwords"): _STRINGS,
    ("StringSplit", "delimiter"): _STRINGS,
    ("StringSplit", "maxsplit"): _STRINGS,
    ("TfIdfVectorizer", "pool_int64s"): "one of pool_int64s / pool_strings is required: no default",
    ("TfIdfVectorizer", "pool_strings"): "one of pool_int64s / pool_strings is required: no default",
    ("TfIdfVectorizer", "weights"): _STRINGS + "; stated all-ones, length from ngram_indexes",
}


@functools.cache
def _states(op: str, name: str, version: int) -> bool:
    """Whether ``op`` at ``version`` has the optional attribute ``name`` and its description carries
    the :data:`STATED` quote."""
    import onnx.defs

    row = STATED.get((op, name))
    try:
        schema = onnx.defs.get_schema(op, version, "")
    except onnx.defs.SchemaError:
        return False
    a = schema.attributes.get(name)
    return row is not None and a is not None and row.quote in " ".join(a.description.split())


def _kernel(n: onnx.NodeProto, shapes: dict) -> list[int] | None:
    """``W.shape[2:]`` when every dim is static (Conv family), else None."""
    w = WEIGHT_INPUT.get(n.op_type)
    k = shapes.get(n.input[w]) if w is not None and len(n.input) > w else None
    if k is None or k.dims is None or len(k.dims) < 3 or not all(isinstance(d, int) for d in k.dims[2:]):
        return None
    return [int(d) for d in k.dims[2:]]


def _spatial(n: onnx.NodeProto, shapes: dict) -> int | None:
    ks = attr_value(n, "kernel_shape")
    if ks is not None:
        return len(ks)
    w = WEIGHT_INPUT.get(n.op_type)
    k = shapes.get(n.input[w]) if w is not None and len(n.input) > w else None
    return None if k is None or k.rank is None or k.rank < 3 else k.rank - 2


def _default(n: onnx.NodeProto, name: str, shapes: dict) -> list[int] | None:
    """The stated default of ``n``'s attribute ``name`` as a list, or None when it cannot be spelled here."""
    value = STATED[(n.op_type, name)].value
    if value == "kernel":
        return _kernel(n, shapes)
    if value == "pads" and attr_value(n, "auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        return None
    if n.op_type == "ConvTranspose" and name == "pads" and attr_value(n, "output_shape") is not None:
        return None  # pads are computed from output_shape then
    if (r := _spatial(n, shapes)) is None:
        return None
    return {"ones": [1] * r, "zeros": [0] * r, "pads": [0] * (2 * r)}[value]


def _candidates(model: onnx.ModelProto, only: frozenset[str] | None):
    """(label, node, attribute names with a stated default at the model's opset) for main-graph nodes."""
    version = opset(model)
    for i, n in enumerate(model.graph.node):
        if not is_default_domain(n) or not chosen(only, node_label(n, i)):
            continue
        names = [name for (op, name) in STATED if op == n.op_type and _states(op, name, version)]
        if names:
            yield node_label(n, i), n, names


def explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Write every omitted attribute of :data:`STATED` with its stated default."""
    import onnx

    shapes, sites = known(model), []
    for label, n, names in _candidates(model, only):
        added = False
        for name in names:
            if attr_value(n, name) is None and (value := _default(n, name, shapes)) is not None:
                n.attribute.append(onnx.helper.make_attribute(name, value))
                added = True
        if added:
            sites.append(label)
    return sites


def omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Remove every attribute of :data:`STATED` equal to its stated default."""
    shapes, sites = known(model), []
    for label, n, names in _candidates(model, only):
        drop = [
            name
            for name in names
            if (have := attr_value(n, name)) is not None and list(have) == _default(n, name, shapes)
        ]
        for name in drop:
            drop_attribute(n, name)
        if drop:
            sites.append(label)
    return sites


REWRITES = (
    Rewrite(
        "prose-default-explicit",
        "Conv/pool strides, dilations, pads, output_padding, kernel_shape omitted → the default the doc states",
        explicit,
        inverse="prose-default-omitted",
    ),
    Rewrite(
        "prose-default-omitted",
        "Conv/pool strides, dilations, pads, output_padding, kernel_shape equal to the doc's default → omitted",
        omitted,
        inverse="prose-default-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "prose-default",
        "attributes",
        "IR.md §Attributes; Operators.md Conv/ConvTranspose/ConvInteger/QLinearConv/DeformConv, "
        "MaxPool/AveragePool/LpPool/MaxUnpool (attribute descriptions: 'If not present, … defaults to …')",
        "An optional attribute whose default the operator's doc states in prose (strides and dilations 1, pads 0, "
        "output_padding 0, kernel_shape = W.shape[2:]) may be written with that value or left out.",
        ("prose-default-explicit", "prose-default-omitted"),
        "main-graph nodes of those ops, at opsets whose description states the default; pads only without auto_pad "
        "(and, on ConvTranspose, without output_shape); n from kernel_shape or rank(W) - 2, kernel_shape only "
        "with W's kernel dims static",
    ),
)
