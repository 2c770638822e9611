"""Constant(value=tensor) ↔ Constant(value_int / value_ints / value_float / value_floats /
value_string / value_strings) (ONNX operator spec, Constant-12+: each typed attribute yields the
tensor of that element type, scalar or 1-D; seed 003 §3). Opset >= 12 (a function body: its own
import), in every scope: the main graph, If/Loop/Scan bodies and model-local function bodies (a node
outside the main graph is labelled as :mod:`passcheck.mutations._scopes` says)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen, is_default_domain
from passcheck.mutations._scopes import opset_of, scopes

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 12


def _typed_attr(t: onnx.TensorProto) -> tuple[str, object] | None:
    import onnx
    from onnx import numpy_helper

    kinds = {onnx.TensorProto.INT64: "int", onnx.TensorProto.FLOAT: "float", onnx.TensorProto.STRING: "string"}
    if t.data_type not in kinds or len(t.dims) > 1 or t.data_location == onnx.TensorProto.EXTERNAL:
        return None
    a = numpy_helper.to_array(t)
    kind = kinds[t.data_type]
    if a.ndim == 0:
        return f"value_{kind}", a.item()
    if a.size == 0:
        return None  # an empty list attribute has no element type
    return f"value_{kind}s", a.tolist()


def _constants(model: onnx.ModelProto, only: frozenset[str] | None):
    """(site label, node) of each one-attribute default-domain Constant in a scope whose opset is >= 12."""
    for scope in scopes(model):
        if opset_of(model, scope) < MIN_OPSET:
            continue
        for i, n in enumerate(scope.body.node):
            label = scope.label(n, i)
            if (
                n.op_type == "Constant"
                and is_default_domain(n)
                and len(n.attribute) == 1
                and not n.attribute[0].ref_attr_name  # a function body's reference to its caller's attribute
                and chosen(only, label)
            ):
                yield label, n


def to_typed(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Constant(value=tensor) of int64/float32/string, scalar or 1-D → the matching typed attribute."""
    import onnx

    sites = []
    for label, n in _constants(model, only):
        if n.attribute[0].name != "value" or (typed := _typed_attr(n.attribute[0].t)) is None:
            continue
        name, value = typed
        if isinstance(value, str) or (isinstance(value, list) and value and isinstance(value[0], str)):
            value = [v.encode() for v in value] if isinstance(value, list) else value.encode()
        new = onnx.helper.make_attribute(name, value)
        n.attribute[0].CopyFrom(new)
        sites.append(label)
    return sites


def to_tensor(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Constant(value_int(s) / value_float(s) / value_string(s)) → Constant(value=tensor)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    dtypes = {"int": np.int64, "float": np.float32, "string": object}
    sites = []
    for label, n in _constants(model, only):
        a = n.attribute[0]
        kind = a.name.removeprefix("value_")
        base = kind.rstrip("s") if kind.endswith("s") and kind != "s" else kind
        if not a.name.startswith("value_") or base not in dtypes:
            continue
        value = onnx.helper.get_attribute_value(a)
        if base == "string":
            value = [v.decode() for v in value] if kind.endswith("s") else value.decode()
        arr = np.array(value, dtype=dtypes[base])
        a.CopyFrom(onnx.helper.make_attribute("value", numpy_helper.from_array(arr, n.output[0])))
        sites.append(label)
    return sites


REWRITES = (
    Rewrite(
        "constant-typed-attr",
        "Constant(value=tensor) → "
        "Constant(value_int/value_ints/value_float/value_floats/value_string/value_strings) (opset >= 12)",
        to_typed,
        inverse="constant-value-tensor",
    ),
    Rewrite(
        "constant-value-tensor",
        "Constant(value_int/…/value_strings) → Constant(value=tensor) (opset >= 12)",
        to_tensor,
        inverse="constant-typed-attr",
    ),
)
