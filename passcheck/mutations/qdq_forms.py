"""Quantization spellings: the freedoms a QuantizeLinear / DequantizeLinear node has that compute the same values
(Operators.md QuantizeLinear-10/13/19/21/23, DequantizeLinear-10/13/19/21/23).

The scale (and zero point, which has the scale's shape) states one value per element of ``x``; its *granularity*
is only how that is written: a scalar (per tensor), a 1-D tensor of ``D_axis`` entries (per axis, from opset 13), or
the input's shape with ``ceil(D_axis / block_size)`` rows along ``axis`` (blocked, from opset 21; ``block_size`` is
accepted in ``[ceil(D/S), ceil(D/(S-1)) - 1]`` for ``S`` rows, so any size ``>= D`` for one row). Where the
per-element scale and zero point are the same, the spellings compute the same values:

- ``qdq-per-axis-scale`` / ``qdq-per-tensor-scale``: a scalar scale ↔ a 1-D scale of ``D_axis`` equal entries (a
  ``[1]`` scale when ``D_axis`` is 1);
- ``qdq-blocked-scale``: a per-tensor or per-axis scale → a blocked one of one block (along ``axis`` for a scalar
  scale, along another axis for a per-axis one), ``block_size = D`` of that axis;
- ``qdq-block-size``: a blocked node at another accepted block size: every row equal → one row
  (``block_size = D``); one row at ``block_size = D`` → a block past the axis (``2 D``), one row past it → ``D``;
  else each block halved (an even size; an odd size > 1 → 1), the rows repeated.

Attributes that state what the node already does:

- ``qdq-output-dtype``: QuantizeLinear-21+ without ``output_dtype``: the output type written as ``output_dtype``
  (the zero point's type, uint8 with none) and an all-zero zero point then omitted ("If neither ``output_dtype`` nor
  ``y_zero_point`` are supplied, output data type is uint8"; both given must agree); DequantizeLinear-23+: the
  scale's type as ``output_dtype``;
- ``qdq-inert-attrs``: ``saturate = 0`` on QuantizeLinear-19+ with an integer output ("It only applies for float 8
  quantization"); ``axis = 0`` on a per-tensor node of rank >= 1 without ``axis`` (opset 13+: ``axis`` is "used only
  for per-axis and blocked quantization"); ``precision`` = the scale's type on QuantizeLinear-23+ without it (the
  division's precision: "If not provided, it will be the same as the type of y_scale").

Sites are main-graph Q/DQ nodes (labels as :func:`~passcheck.mutations._base.node_label`) whose scale and zero
point are static (initializers or Constant outputs) where the rewrite reads them, and whose input's dims are known
where it needs them. New scales and zero points are fresh initializers of the old ones' dtypes; the old ones are
removed when nothing else reads them. ``axis`` of the other existing rewrites: sign (``axis-negative``), zero point
omitted vs explicit (``optional-input-default-*``).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, opset, static_tensors
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import attr_value, drop_attribute, edit_sites

if TYPE_CHECKING:
    import numpy as np
    import onnx

QDQ = ("QuantizeLinear", "DequantizeLinear")
#: onnx.TensorProto integer types a QuantizeLinear may write: UINT8, INT8, UINT16, INT16, UINT4, INT4, UINT2, INT2.
INTEGER_QUANT_TYPES = frozenset({2, 3, 4, 5, 21, 22, 25, 26})
PER_AXIS_OPSET, BLOCKED_OPSET, SATURATE_OPSET, OUTPUT_DTYPE_OPSET, DQ_OUTPUT_DTYPE_OPSET = 13, 21, 19, 21, 23
PRECISION_OPSET = 23


@dataclasses.dataclass
class _Site:
    """One Q/DQ node as read: ``scale`` and ``zp`` (None: omitted) as arrays, ``dims`` of ``x`` (None: rank
    unknown; an entry None: not a static size), ``axis`` normalized (None: out of range), ``block`` its block size."""

    node: onnx.NodeProto
    version: int
    scale: np.ndarray
    zp: np.ndarray | None
    scale_type: int
    zp_type: int
    dims: tuple[int | None, ...] | None
    axis: int | None
    block: int

    @property
    def kind(self) -> str:
        if self.block > 0:
            return "blocked"
        return "tensor" if self.scale.ndim == 0 else "axis"

    def full(self) -> tuple[int, ...] | None:
        return tuple(self.dims) if self.dims is not None and all(isinstance(d, int) for d in self.dims) else None

    def expand(self, a: np.ndarray) -> np.ndarray | None:
        """``a`` (the scale or zero point) written out per element of ``x`` (None: dims not static, shape off)."""
        import numpy as np

        full = self.full()
        if full is None or self.axis is None:
            return None
        if self.kind == "tensor":
            return np.broadcast_to(a, full)
        if self.kind == "axis":
            if a.shape != (full[self.axis],):
                return None
            shape = [1] * len(full)
            shape[self.axis] = full[self.axis]
            return np.broadcast_to(a.reshape(shape), full)
        rows = np.repeat(a, self.block, axis=self.axis)
        got = np.take(rows, range(full[self.axis]), axis=self.axis)
        return got if got.shape == full else None


def _sites(model: onnx.ModelProto):
    """Node index → :class:`_Site` for the main-graph Q/DQ nodes whose scale (and zero point, when given) is static."""
    from onnx import numpy_helper

    from passcheck.mutations._shapes import known

    g, version = model.graph, opset(model)
    static = static_tensors(g)
    found = {}
    types = None
    for i, n in enumerate(g.node):
        if n.op_type not in QDQ or not is_default_domain(n) or len(n.input) < 2 or n.input[1] not in static:
            continue
        zp_name = n.input[2] if len(n.input) > 2 else ""
        if zp_name and zp_name not in static:
            continue
        types = known(model) if types is None else types
        x = types.get(n.input[0])
        dims = None if x is None or x.dims is None else tuple(d if isinstance(d, int) else None for d in x.dims)
        axis = int(attr_value(n, "axis", 1))
        if dims is not None:
            axis = axis + len(dims) if axis < 0 else axis
            axis = axis if 0 <= axis < len(dims) else None
        else:
            axis = None
        st = static[n.input[1]]
        zt = static[zp_name] if zp_name else None
        found[i] = _Site(
            n,
            version,
            numpy_helper.to_array(st),
            None if zt is None else numpy_helper.to_array(zt),
            st.data_type,
            0 if zt is None else zt.data_type,
            dims,
            axis,
            int(attr_value(n, "block_size", 0)),
        )
    return found


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, plan) -> list[str]:
    """The site loop: ``plan(site)`` → None (not a site) or ``(scale, zp, attrs)``: new arrays (None: keep the
    input as it is; for ``zp`` the string ``"drop"`` omits it) and attributes to set (value None: remove)."""
    from onnx import helper, numpy_helper

    g = model.graph
    found = _sites(model)
    taken = None

    def edit(i: int, n: onnx.NodeProto):
        nonlocal taken
        site = found.get(i)
        got = None if site is None else plan(site)
        if got is None:
            return None
        scale, zp, attrs = got
        taken = all_names(model) if taken is None else taken
        freed = []
        for slot, arr, dtype in ((1, scale, site.scale_type), (2, zp, site.zp_type)):
            if arr is None:
                continue
            freed.append(n.input[slot])
            if isinstance(arr, str):  # "drop": the trailing zero point
                del n.input[slot:]
                continue
            t = numpy_helper.from_array(arr, fresh_name(taken, f"{n.input[slot]}_respelled"))
            if t.data_type != dtype:
                raise ValueError(f"dtype {t.data_type} written for {dtype}")
            g.initializer.append(t)
            n.input[slot] = t.name
        for name, value in attrs.items():
            drop_attribute(n, name)
            if value is not None:
                n.attribute.append(helper.make_attribute(name, value))
        return freed

    return edit_sites(g, only, edit)


def _equal(a: np.ndarray) -> bool:
    import numpy as np

    flat = np.asarray(a).reshape(-1).astype(np.float64)
    return bool(flat.size) and bool(np.all((flat == flat[0]) | (np.isnan(flat) & np.isnan(flat[0]))))


def _rows_equal(a: np.ndarray, axis: int) -> bool:
    """Whether every row of ``a`` along ``axis`` equals the first."""
    import numpy as np

    first = np.take(a, [0] * a.shape[axis], axis=axis)
    return bool(np.array_equal(first.astype(np.float64), a.astype(np.float64), equal_nan=True))


def _per_axis(site: _Site):
    import numpy as np

    if site.kind != "tensor" or site.version < PER_AXIS_OPSET or site.dims is None or len(site.dims) < 2:
        return None
    a = site.axis if site.axis is not None else len(site.dims) - 1
    d = site.dims[a]
    if not isinstance(d, int) or d < 1:
        return None
    zp = None if site.zp is None else np.full((d,), site.zp, dtype=site.zp.dtype)
    return np.full((d,), site.scale, dtype=site.scale.dtype), zp, {"axis": a}


def _per_tensor(site: _Site):
    if site.kind != "axis" or not _equal(site.scale) or (site.zp is not None and not _equal(site.zp)):
        return None
    zp = None if site.zp is None else site.zp.reshape(-1)[0].reshape(())
    return site.scale.reshape(-1)[0].reshape(()), zp, {}


def _blocked(site: _Site):
    full = site.full()
    if site.kind == "blocked" or site.version < BLOCKED_OPSET or full is None or len(full) < 2:
        return None
    if site.kind == "tensor":
        b = site.axis if site.axis is not None else len(full) - 1
    elif site.axis is None:
        return None
    else:
        b = site.axis - 1 if site.axis > 0 else site.axis + 1
    return _rows(site, b, full[b])


def _rows(site: _Site, axis: int, block: int):
    """The scale and zero point written blocked along ``axis`` at ``block`` (rows every ``block`` elements of the
    per-element values), or None when those rows do not give back the same per-element values."""
    import numpy as np

    full = site.full()
    if full is None or block < 1:
        return None
    out = []
    for a in (site.scale, site.zp):
        e = None if a is None else site.expand(a)
        if a is not None and e is None:
            return None
        if e is None:
            out.append(None)
            continue
        rows = np.ascontiguousarray(np.take(e, range(0, full[axis], block), axis=axis)).astype(a.dtype)
        back = np.take(np.repeat(rows, block, axis=axis), range(full[axis]), axis=axis)
        if not np.array_equal(back.astype(np.float64), np.asarray(e).astype(np.float64), equal_nan=True):
            return None
        out.append(rows)
    return out[0], out[1], {"axis": axis, "block_size": block}


def _block_size(site: _Site):
    full = site.full()
    if site.kind != "blocked" or full is None or site.axis is None:
        return None
    d, b = full[site.axis], site.block
    if site.scale.shape[site.axis] == 1:
        new = d if b != d else 2 * d  # one row: any size >= D is accepted
    elif all(_rows_equal(a, site.axis) for a in (site.scale, site.zp) if a is not None):
        new = d
    else:
        new = b // 2 if b % 2 == 0 else 1
    if new == b or new < 1:
        return None
    return _rows(site, site.axis, new)


def _out_type(site: _Site) -> int:
    return int(attr_value(site.node, "output_dtype", 0)) or site.zp_type or 2  # TensorProto.UINT8


def _output_dtype(site: _Site):
    import numpy as np

    if attr_value(site.node, "output_dtype") is not None:
        return None
    if site.node.op_type == "DequantizeLinear":
        return None if site.version < DQ_OUTPUT_DTYPE_OPSET else (None, None, {"output_dtype": site.scale_type})
    if site.version < OUTPUT_DTYPE_OPSET:
        return None
    zero = site.zp is not None and not np.asarray(site.zp).astype(np.float64).any()
    return None, "drop" if zero else None, {"output_dtype": _out_type(site)}


def _inert(site: _Site):
    attrs = {}
    n = site.node
    if (
        n.op_type == "QuantizeLinear"
        and site.version >= SATURATE_OPSET
        and attr_value(n, "saturate") is None
        and _out_type(site) in INTEGER_QUANT_TYPES
    ):
        attrs["saturate"] = 0
    if (
        site.kind == "tensor"
        and site.version >= PER_AXIS_OPSET
        and site.dims
        and attr_value(n, "axis") is None
        and attr_value(n, "block_size", 0) == 0
    ):
        attrs["axis"] = 0
    if n.op_type == "QuantizeLinear" and site.version >= PRECISION_OPSET and attr_value(n, "precision") is None:
        attrs["precision"] = site.scale_type
    return (None, None, attrs) if attrs else None


def _rewrite(plan):
    def edit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
        return _edit(model, only, plan)

    edit.__name__ = plan.__name__.lstrip("_")
    edit.__qualname__ = edit.__name__
    return edit


per_axis_scale = _rewrite(_per_axis)
per_tensor_scale = _rewrite(_per_tensor)
blocked_scale = _rewrite(_blocked)
block_size = _rewrite(_block_size)
output_dtype = _rewrite(_output_dtype)
inert_attrs = _rewrite(_inert)

REWRITES = (
    Rewrite(
        "qdq-per-axis-scale",
        "Q/DQ with a scalar scale (opset 13+, x of rank >= 2, D_axis static) → a 1-D scale (and zero point) of "
        "D_axis equal entries",
        per_axis_scale,
        inverse="qdq-per-tensor-scale",
    ),
    Rewrite(
        "qdq-per-tensor-scale",
        "Q/DQ with a 1-D scale of equal entries (zero point too) → a scalar scale and zero point",
        per_tensor_scale,
        inverse="qdq-per-axis-scale",
    ),
    Rewrite(
        "qdq-blocked-scale",
        "Q/DQ per tensor or per axis (opset 21+, x's dims static) → blocked, one block of block_size = D along "
        "axis (per tensor) or along a neighbouring axis (per axis)",
        blocked_scale,
    ),
    Rewrite(
        "qdq-block-size",
        "blocked Q/DQ → another accepted block size with the same per-element scale (equal rows → one row of "
        "D; one row of D → 2 D, past the axis; else halved blocks)",
        block_size,
    ),
    Rewrite(
        "qdq-output-dtype",
        "QuantizeLinear-21+ with its type deduced → output_dtype written (an all-zero zero point omitted); "
        "DequantizeLinear-23+ → output_dtype = the scale's type",
        output_dtype,
    ),
    Rewrite(
        "qdq-inert-attrs",
        "saturate=0 on an integer QuantizeLinear-19+; axis=0 on a per-tensor Q/DQ-13+ without axis (attributes "
        "the spec says act only on float8 / per-axis and blocked quantization); precision = the scale's type on "
        "QuantizeLinear-23+ (its stated default)",
        inert_attrs,
    ),
)

_SRC = "Operators.md QuantizeLinear-13/19/21/23, DequantizeLinear-13/21/23"
FREEDOMS = (
    Freedom(
        "qdq-scale-granularity",
        "operator schemas",
        _SRC + " (the three granularities; block_size's accepted range)",
        "A Q/DQ's scale and zero point state one value per element; a scalar, a 1-D per-axis tensor and a "
        "blocked tensor (at any block size in the accepted range) that give the same per-element values compute "
        "the same result, a [1] scale being the per-axis spelling of an axis of size 1.",
        ("qdq-per-axis-scale", "qdq-per-tensor-scale", "qdq-blocked-scale", "qdq-block-size"),
        "main-graph Q/DQ nodes with static scale and zero point; per-axis needs the axis's size, blocked every "
        "dim of x",
    ),
    Freedom(
        "qdq-stated-attributes",
        "operator schemas",
        _SRC + " (output_dtype, saturate, axis, precision)",
        "A Q/DQ's output type may be deduced (zero point, scale) or written as output_dtype, an all-zero zero "
        "point then omitted; saturate acts on float8 outputs only and axis on per-axis and blocked "
        "quantization only, so writing them elsewhere changes nothing; precision written as its default (the "
        "scale's type) is the same division.",
        ("qdq-output-dtype", "qdq-inert-attrs"),
        "main-graph Q/DQ nodes with static scale and zero point",
    ),
)
