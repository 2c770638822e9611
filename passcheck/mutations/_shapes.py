"""What onnx shape inference knows about a model's values: element type and dims, for the
rewrites that need ranks, dims or dtypes (never raises: an uninferable model knows nothing)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from passcheck.errors import WorkerStartError
from passcheck.mutations._by_content import by_content
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx


@dataclasses.dataclass(frozen=True)
class Known:
    """One value's inferred tensor type.

    Attributes:
        elem_type: onnx.TensorProto data type (0: unknown).
        dims: per dim, an int (dim_value), a str (dim_param) or None (anonymous); None when the rank is unknown.
    """

    elem_type: int
    dims: tuple[int | str | None, ...] | None

    @property
    def rank(self) -> int | None:
        return None if self.dims is None else len(self.dims)


@by_content(dict)
def known(model: onnx.ModelProto, data: bytes) -> dict[str, Known]:
    """Value name → :class:`Known` for the main graph's inputs, initializers, value_info and outputs,
    after ``onnx.shape_inference.infer_shapes`` (the model is not modified). Called as ``known(model)``: kept per
    content (:func:`._by_content.by_content`, ``data`` the model's bytes), each call gets its own dict."""
    import onnx

    try:
        # a rewrite's own inference, in the front door's worker when there is one (a neighbour is a new model)
        g = (
            isolated_tools.infer_shapes(model) if isolated_tools.current() else onnx.shape_inference.infer_shapes(data)
        ).graph
    except WorkerStartError:  # nothing could run here: not "nothing known", and not kept by content
        raise
    except Exception:  # noqa: BLE001 - nothing known: callers then apply nowhere
        g = model.graph
    out = {t.name: Known(t.data_type, tuple(int(d) for d in t.dims)) for t in g.initializer}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        if not v.type.HasField("tensor_type"):
            continue
        tt = v.type.tensor_type
        dims = None
        if tt.HasField("shape"):
            dims = tuple(
                d.dim_value if d.HasField("dim_value") else d.dim_param if d.HasField("dim_param") else None
                for d in tt.shape.dim
            )
        out.setdefault(v.name, Known(tt.elem_type, dims))
    return out
