"""Optional inputs omitted ↔ written with the value their omission means (ONNX operator spec; each
row of :data:`ROWS` cites the sentence it rests on).

- ``optional-input-default-explicit``: an omitted (or ``""``) optional input of a row's op gets a
  fresh static tensor holding the default (earlier omitted slots written as ``""``), an
  initializer when the node reads one (IR >= 4), else a Constant; only where the default's dtype
  and shape follow statically from the node's other inputs (onnx shape inference) and attributes.
- ``optional-input-default-omitted``: a static input holding that default (same dtype; any shape
  the schema allows) → ``""``, trailing ``""`` dropped; the tensor goes when nothing else reads it.
- ``optional-input-default-empty``: the same input → ``""`` with the slot kept even when it is the last
  (IR.md §Optional Inputs and Outputs: an absent optional input is either left off the end of the list
  or written as the empty name; both spellings mean the same). ``-omitted`` only ever drops a trailing
  slot, so without this a default a form gives was never reached written as a trailing ``""``.

Two rows hold for *any* value, not one default: Resize's ``roi`` where the coordinate mode is not
``tf_crop_and_resize``, and Dropout's ``ratio`` where ``training_mode`` is false (both unused).
Main graph only; sites are the rewritten nodes."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    fresh_name,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import attr_value, splice, trim_trailing_empty
from passcheck.mutations._shapes import Known, known
from passcheck.mutations.index_sign import fresh_static

if TYPE_CHECKING:
    import numpy as np
    import onnx


@dataclasses.dataclass(frozen=True)
class _Site:
    """What a row's default is built from: the node, its inputs' inferred types and static values."""

    node: onnx.NodeProto
    types: dict[str, Known]
    static: dict[str, onnx.TensorProto]

    def known(self, slot: int) -> Known | None:
        n = self.node
        return self.types.get(n.input[slot]) if len(n.input) > slot and n.input[slot] else None

    def elem(self, slot: int) -> int:
        k = self.known(slot)
        return k.elem_type if k is not None else 0

    def dims(self, slot: int) -> tuple[int, ...] | None:
        k = self.known(slot)
        if k is None or k.dims is None or not all(isinstance(d, int) for d in k.dims):
            return None
        return k.dims

    def attr(self, name: str, default=None):
        return attr_value(self.node, name, default)


#: (site) → the default's (onnx elem_type, shape, fill value), or None where not static.
Build = Callable[[_Site], "tuple[int, tuple[int, ...], object] | None"]


@dataclasses.dataclass(frozen=True)
class _Row:
    """One optional input slot and what its omission means.

    Attributes:
        op: op_type (default domain).
        slot: input index.
        since: lowest opset where the slot is optional with this meaning.
        build: the default's type, shape and fill.
        holds: (site, array) → whether a static input already means the same as the omission; default:
            the built dtype and every entry equal to the fill (any shape the schema allows).
        applies: (site) → whether the row holds at this node at all (attributes it depends on).
    """

    op: str
    slot: int
    since: int
    build: Build
    holds: Callable[[_Site, np.ndarray], bool] | None = None
    applies: Callable[[_Site], bool] = lambda s: True


_INTS = {2, 3, 4, 5, 6}  # UINT8, INT8, UINT16, INT16, INT32: the quantized types numpy stores as-is


def _zeros_like_channels(out_dim: Callable[[_Site], int | None]) -> Build:
    def build(s: _Site):
        m, t = out_dim(s), s.elem(0)
        return None if m is None or not t else (t, (m,), 0)

    return build


def _conv_m(s: _Site) -> int | None:
    w = s.dims(1)
    return w[0] if w else None


def _conv_transpose_m(s: _Site) -> int | None:
    w = s.dims(1)
    return w[1] * s.attr("group", 1) if w and len(w) > 1 else None


def _qlinear_conv_b(s: _Site):
    w = s.dims(3)
    return None if not w else (6, (w[0],), 0)  # INT32


def _gemm_c(s: _Site):
    beta = s.attr("beta", 1.0)
    return (s.elem(0), (), 0) if s.elem(0) and math.isfinite(beta) else None


def _layer_norm_b(s: _Site):
    scale = s.dims(1)
    return None if scale is None or not s.elem(0) else (s.elem(0), scale, 0)


def _dequantize_zp(s: _Site):
    scale = s.dims(1)
    return (s.elem(0), scale, 0) if scale is not None and s.elem(0) in _INTS else None


def _quantize_zp(s: _Site):
    scale, to = s.dims(1), s.attr("output_dtype", 0) or 2  # omitted output_dtype and zero point: uint8
    return (to, scale, 0) if scale is not None and to in _INTS else None


_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _rnn(s: _Site) -> tuple[int, int, int | None, int | None] | None:
    """(num_directions, hidden_size, seq_length, batch_size) of an RNN/GRU/LSTM node (the last two None
    unless X's dims are static), or None when hidden_size is not known."""
    x, w = s.known(0), s.dims(1)
    dirs = 2 if s.attr("direction", b"forward") == b"bidirectional" else 1
    hidden = s.attr("hidden_size") or (w[1] // _GATES[s.node.op_type] if w and len(w) == 3 else None)
    if not hidden:
        return None
    if x is None or x.rank != 3:
        return dirs, hidden, None, None
    seq, batch = (x.dims[1], x.dims[0]) if s.attr("layout", 0) == 1 else x.dims[:2]
    return dirs, hidden, *(d if isinstance(d, int) else None for d in (seq, batch))


def _rnn_bias(s: _Site):
    r = _rnn(s)
    return None if r is None or not s.elem(0) else (s.elem(0), (r[0], 2 * _GATES[s.node.op_type] * r[1]), 0)


def _rnn_lens(s: _Site):
    r = _rnn(s)
    return None if r is None or None in r else (6, (r[3],), r[2])  # INT32, every sequence full length


def _rnn_lens_hold(s: _Site, a) -> bool:
    """sequence_lens all equal to a static seq_length (any batch size)."""
    import numpy as np

    r = _rnn(s)
    return r is not None and r[2] is not None and a.dtype == np.int32 and bool((a == r[2]).all())


def _rnn_state(s: _Site):
    r = _rnn(s)
    if r is None or r[3] is None or not s.elem(0):
        return None
    shape = (r[3], r[0], r[1]) if s.attr("layout", 0) == 1 else (r[0], r[3], r[1])
    return s.elem(0), shape, 0


def _lstm_peepholes(s: _Site):
    r = _rnn(s)
    return None if r is None or not s.elem(0) else (s.elem(0), (r[0], 3 * r[1]), 0)


def _pad_axes(s: _Site):
    k = s.known(0)
    return None if k is None or k.rank is None else (7, (k.rank,), None)  # INT64 [0 … r-1]


def _pad_axes_hold(s: _Site, a) -> bool:
    import numpy as np

    k = s.known(0)
    return (
        k is not None
        and bool(k.rank)
        and a.dtype == np.int64
        and a.shape == (k.rank,)
        and ((a % k.rank) == np.arange(k.rank)).all()
    )


def _roi_unused(s: _Site) -> bool:
    return s.attr("coordinate_transformation_mode", b"half_pixel") != b"tf_crop_and_resize"


def _not_training(s: _Site) -> bool:
    """Dropout's training_mode omitted or a static false."""
    import numpy as np
    from onnx import numpy_helper

    n = s.node
    if len(n.input) < 3 or not n.input[2]:
        return True
    t = s.static.get(n.input[2])
    return t is not None and not np.asarray(numpy_helper.to_array(t)).any()


#: Every row, op by op, each with the Operators.md sentence (or schema source) it rests on.
ROWS: tuple[_Row, ...] = (
    # Conv-1/11 B: "Optional 1D bias to be added to the convolution, has size of M." (none: no addition)
    _Row("Conv", 2, 1, _zeros_like_channels(_conv_m)),
    # ConvTranspose-1/11 B: "Optional 1D bias to be added to the convolution, has size of M."
    _Row("ConvTranspose", 2, 1, _zeros_like_channels(_conv_transpose_m)),
    # QLinearConv-10 B: "Optional 1D bias ... has size of M. Bias must be quantized using scale = x_scale *
    # w_scale and zero_point = 0" (int32)
    _Row("QLinearConv", 8, 10, _qlinear_conv_b),
    # Gemm-11/13 C: "If not specified, the computation is done as if C is a scalar 0."
    _Row("Gemm", 2, 11, _gemm_c),
    # LayerNormalization-17 B: the schema's function body adds B only when it is given.
    _Row("LayerNormalization", 2, 17, _layer_norm_b),
    # DequantizeLinear-10/13/19/21 x_zero_point: "Zero point is 0 when it's not specified." (x's type)
    _Row("DequantizeLinear", 2, 10, _dequantize_zp),
    # QuantizeLinear-10/13/19 y_zero_point: "Default value is uint8 typed 0 if it's not specified."
    # QuantizeLinear-21: with no zero point the output type is output_dtype (default uint8).
    _Row("QuantizeLinear", 2, 10, _quantize_zp),
    # RNN/GRU/LSTM-7/14 B: "If not specified - assumed to be 0."; sequence_lens: "If not specified -
    # assumed all sequences in the batch to have length `seq_length`."; initial_h (LSTM initial_c):
    # "If not specified - assumed to be 0."; LSTM P: "If not specified - assumed to be 0."
    *(_Row(op, 3, 7, _rnn_bias) for op in ("RNN", "GRU", "LSTM")),
    *(_Row(op, 4, 7, _rnn_lens, holds=_rnn_lens_hold) for op in ("RNN", "GRU", "LSTM")),
    *(_Row(op, 5, 7, _rnn_state) for op in ("RNN", "GRU", "LSTM")),
    _Row("LSTM", 6, 7, _rnn_state),
    _Row("LSTM", 7, 7, _lstm_peepholes),
    # Pad-18/19/21 axes: "If not provided, all axes are assumed (`[0, 1, ..., input_rank-1]`)."
    _Row("Pad", 3, 18, _pad_axes, holds=_pad_axes_hold),
    # Resize-13/18/19 roi: "It only takes effect when coordinate_transformation_mode is
    # "tf_crop_and_resize"" (elsewhere any roi, the empty one exporters write included, is unused).
    _Row("Resize", 1, 13, lambda s: (1, (0,), 0), holds=lambda s, a: True, applies=_roi_unused),
    # Dropout-12/13/22 ratio: "if not specified it will default to 0.5"; training_mode: "unless specified
    # explicitly, it is false. If it is false, ratio is ignored".
    _Row("Dropout", 1, 12, lambda s: (1, (), 0.5), holds=lambda s, a: True, applies=_not_training),
    _Row("Dropout", 2, 12, lambda s: (9, (), False)),
    # SequenceErase-11 position: "'position' is optional, by default it erases the last tensor"; -1 counts
    # from the back (position in [-n, n-1]), so the int64 scalar -1 names the last tensor whatever n is.
    _Row("SequenceErase", 1, 11, lambda s: (7, (), -1)),
)


def _rows(op: str, version: int) -> list[_Row]:
    return [r for r in ROWS if r.op == op and version >= r.since]


def _array(row: _Row, s: _Site) -> np.ndarray | None:
    import numpy as np
    import onnx

    got = row.build(s)
    if got is None:
        return None
    elem, shape, fill = got
    dtype = onnx.helper.tensor_dtype_to_np_dtype(elem)
    if fill is None:  # Pad axes
        return np.arange(shape[0], dtype=dtype)
    return np.full(shape, fill, dtype=dtype)


def _holds(row: _Row, s: _Site, a: np.ndarray) -> bool:
    if row.holds is not None:
        return row.holds(s, a)
    want = _array(row, s)
    if want is None:
        return False
    return a.dtype == want.dtype and want.size > 0 and bool((a == want.reshape(-1)[0]).all())


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, explicit: bool, keep_empty: bool = False) -> list[str]:
    from onnx import numpy_helper

    g, version = model.graph, opset(model)
    static = static_tensors(g)
    candidates = [
        (i, n, rows)
        for i, n in enumerate(g.node)
        if is_default_domain(n) and chosen(only, node_label(n, i)) and (rows := _rows(n.op_type, version))
    ]
    if not candidates:
        return []
    types = known(model)
    inits = {t.name for t in g.initializer} if model.ir_version >= 4 else set()
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n, rows in candidates:
        s, changed, added = _Site(n, types, static), False, []
        for row in rows:
            if not row.applies(s):
                continue
            present = len(n.input) > row.slot and n.input[row.slot]
            if explicit and not present:
                a = _array(row, s)
                if a is None:
                    continue
                like = next((x for x in n.input if x in inits), "")
                name = f"{next((o for o in n.output if o), n.op_type)}_default{row.slot}"
                if like or version >= 9 or a.dtype.kind == "f":
                    made = fresh_static(g, taken, name, a, like)
                elif model.ir_version >= 4:  # Constant-1 holds float types only: an initializer
                    g.initializer.append(numpy_helper.from_array(a, fresh_name(taken, name)))
                    made = []
                else:
                    continue
                while len(n.input) <= row.slot:
                    n.input.append("")
                n.input[row.slot] = made[0].output[0] if made else g.initializer[-1].name
                added.extend(made)
                changed = True
            elif not explicit and present and n.input[row.slot] in static:
                if _holds(row, s, numpy_helper.to_array(static[n.input[row.slot]])):
                    freed.add(n.input[row.slot])
                    n.input[row.slot] = ""
                    changed = True
        if not keep_empty:
            trim_trailing_empty(n.input)
        if changed:
            before[i] = added
            sites.append(node_label(n, i))
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


def defaults_explicit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Omitted optional inputs of the :data:`ROWS` ops → static tensors holding what omission means."""
    return _edit(model, only, explicit=True)


def defaults_omitted(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static optional inputs of the :data:`ROWS` ops holding what omission means → omitted."""
    return _edit(model, only, explicit=False)


def defaults_empty(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Static optional inputs of the :data:`ROWS` ops holding what omission means → ``""``, the slot kept
    (a trailing one too); the node's other slots keep their spelling."""
    return _edit(model, only, explicit=False, keep_empty=True)


REWRITES = (
    Rewrite(
        "optional-input-default-explicit",
        "omitted optional inputs (Conv/ConvTranspose/QLinearConv B, Gemm C, LayerNormalization B, Q/DQ zero "
        "points, RNN/GRU/LSTM B, sequence_lens, initial states, P, Pad axes, Resize roi, Dropout ratio and "
        "training_mode, SequenceErase position) → written with the value their omission means",
        defaults_explicit,
        inverse="optional-input-default-omitted",
    ),
    Rewrite(
        "optional-input-default-omitted",
        'optional inputs holding the value their omission means → omitted ("" when a later slot is used)',
        defaults_omitted,
        inverse="optional-input-default-explicit",
    ),
    Rewrite(
        "optional-input-default-empty",
        'optional inputs holding the value their omission means → written as "" (a trailing slot kept)',
        defaults_empty,
        inverse="optional-input-default-explicit",
    ),
)

FREEDOMS = (
    Freedom(
        "optional-input-default-value",
        "optional and variadic slots",
        "Operators.md Conv, ConvTranspose, QLinearConv (B), Gemm-11 (C), LayerNormalization-17 (B), "
        "DequantizeLinear / QuantizeLinear (zero points), RNN / GRU / LSTM (B, sequence_lens, initial_h, "
        "initial_c, P), Pad-18 (axes), Resize-13 (roi), Dropout-12 (ratio, training_mode), SequenceErase-11 "
        "(position: the last tensor)",
        "An optional input may be omitted or given as a tensor holding the value the spec says its omission "
        "means (a zero bias, a zero point of the implied type, full-length sequences, every axis, an unused "
        "roi or ratio, position -1 for the last tensor).",
        ("optional-input-default-explicit", "optional-input-default-omitted", "optional-input-default-empty"),
        "main-graph nodes of those ops; written out only where the default's dtype and shape follow from the "
        "other inputs' inferred shapes and the attributes (an initializer when the node reads one, else a "
        "Constant); omitted where a static input holds the default with the implied dtype",
    ),
)
