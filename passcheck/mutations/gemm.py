"""Gemm ↔ MatMul + Add (issue 15). ONNX rule (Gemm-7+): ``Y = alpha * A' @ B' + beta * C`` with
A' / B' transposed when ``transA`` / ``transB`` and C unidirectionally broadcast to [M, N]; for
2-D A and B this is MatMul (MatMul-1) of the (Transpose-1'd) operands, a Mul by ``alpha``, and an
Add (multidirectional broadcast gives the same [M, N] for such a C) of ``C`` times ``beta``.
Float types only (float32, float64, float16), where the element type is known."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, consumers, fresh_name, is_default_domain, node_label, opset
from passcheck.mutations._graph_edit import protected, set_nodes
from passcheck.mutations._only import wanted
from passcheck.mutations._shapes import known

if TYPE_CHECKING:
    import onnx

MIN_OPSET = 7


def _floats() -> dict[int, type]:
    import numpy as np
    import onnx

    return {
        onnx.TensorProto.FLOAT: np.float32,
        onnx.TensorProto.DOUBLE: np.float64,
        onnx.TensorProto.FLOAT16: np.float16,
    }


def to_matmul(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each Gemm → [Transpose] → MatMul → [Mul alpha] → [Add (C [Mul beta])], the last node writing Gemm's output."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    info = None
    taken: set[str] | None = None
    sites, new_nodes = [], []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "Gemm" or not is_default_domain(n) or not wanted(only, label):
            new_nodes.append(n)
            continue
        info = known(model) if info is None else info
        a = info.get(n.input[0])
        dtype = _floats().get(a.elem_type) if a else None
        if dtype is None:
            new_nodes.append(n)
            continue
        attrs = {x.name: onnx.helper.get_attribute_value(x) for x in n.attribute}
        taken = all_names(model) if taken is None else taken
        base = n.name or n.output[0]
        made: list[onnx.NodeProto] = []

        def node(op: str, inputs: list[str], out: str | None = None, **kw) -> str:
            out = out or fresh_name(taken, f"{base}_{op.lower()}")
            made.append(
                onnx.helper.make_node(op, inputs, [out], name=fresh_name(taken, f"{base}_{op.lower()}_node"), **kw)
            )
            return out

        def scalar(v: float) -> str:
            return node("Constant", [], value=numpy_helper.from_array(np.array(v, dtype=dtype)))

        lhs = node("Transpose", [n.input[0]]) if attrs.get("transA", 0) else n.input[0]
        rhs = node("Transpose", [n.input[1]]) if attrs.get("transB", 0) else n.input[1]
        has_c = len(n.input) > 2 and n.input[2] != ""
        alpha, beta = attrs.get("alpha", 1.0), attrs.get("beta", 1.0)
        y = node("MatMul", [lhs, rhs], None if alpha != 1.0 or has_c else n.output[0])
        if alpha != 1.0:
            y = node("Mul", [y, scalar(alpha)], None if has_c else n.output[0])
        if has_c:
            c = node("Mul", [n.input[2], scalar(beta)]) if beta != 1.0 else n.input[2]
            node("Add", [y, c], n.output[0])
        new_nodes += made
        sites.append(label)
    if sites:
        set_nodes(g, new_nodes)
    return sites


def _fits(c_dims, out_dims) -> bool:
    """Whether C's dims broadcast unidirectionally to the MatMul output's (each 1 or the same dim)."""
    if c_dims is None or out_dims is None or len(c_dims) > 2 or len(out_dims) != 2:
        return False
    for c, o in zip(reversed(c_dims), reversed(out_dims)):
        if c != 1 and (c is None or c != o):
            return False
    return True


def to_gemm(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each MatMul of two 2-D float operands read only by one Add whose other operand broadcasts
    unidirectionally to [M, N] → one Gemm (transA = transB = 0, alpha = beta = 1) writing the Add's output."""
    import onnx

    if opset(model) < MIN_OPSET:
        return []
    g = model.graph
    readers = consumers(g)
    keep = protected(g)
    info = None
    sites, replace, drop = [], {}, set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        if n.op_type != "MatMul" or not is_default_domain(n) or not wanted(only, label) or n.output[0] in keep:
            continue
        users = readers.get(n.output[0], [])
        if len(users) != 1 or users[0] in replace:
            continue
        add = g.node[users[0]]
        if add.op_type != "Add" or not is_default_domain(add) or list(add.input).count(n.output[0]) != 1:
            continue
        info = known(model) if info is None else info
        a, b, y = (info.get(x) for x in (n.input[0], n.input[1], n.output[0]))
        c_name = add.input[1] if add.input[0] == n.output[0] else add.input[0]
        c = info.get(c_name)
        if (
            None in (a, b, y, c)
            or a.rank != 2
            or b.rank != 2
            or a.elem_type not in _floats()
            or not _fits(c.dims, y.dims)
        ):
            continue
        # at the Add's place: C may be computed between the MatMul and the Add
        replace[users[0]] = onnx.helper.make_node(
            "Gemm", [n.input[0], n.input[1], c_name], [add.output[0]], name=n.name
        )
        drop.add(i)
        sites.append(label)
    if sites:
        set_nodes(g, [replace.get(i, n) for i, n in enumerate(g.node) if i not in drop])
    return sites


REWRITES = (
    Rewrite(
        "gemm-to-matmul-add",
        "Gemm → MatMul (+ Transpose for transA/transB, Mul for alpha/beta) + Add (opset >= 7)",
        to_matmul,
        inverse="matmul-add-to-gemm",
    ),
    Rewrite(
        "matmul-add-to-gemm",
        "MatMul of 2-D operands + Add of a [M, N]-broadcastable bias → Gemm (opset >= 7)",
        to_gemm,
        inverse="gemm-to-matmul-add",
    ),
)
