"""Parameters that moved from attributes to inputs, written in the input form with the opset stamp
raised across the move (issue 27; Squeeze/Unsqueeze/Reduce* axes: :mod:`axes_inputs`). ONNX
operator spec and Versioning.md (a new op version where the spelling changed, the meaning kept):

- Slice-10: ``starts``, ``ends``, ``axes`` attributes (Slice-1) → int64 inputs (``steps`` new, 1);
- Clip-11: ``min`` / ``max`` float attributes (Clip-6, defaults ∓FLT_MAX) → scalar inputs of the
  input's type; float32 only, where an omitted bound (the type's lowest/highest) equals ∓FLT_MAX;
- Pad-11: ``pads`` and ``value`` attributes (Pad-2, value 0) → ``pads`` int64 input and a scalar
  ``constant_value`` of the input's type (constant mode; float32 input);
- Split-13: ``split`` attribute (Split-2/11) → int64 input.

Every node of these ops moves together (one opset stamp), main graph and subgraphs; every other
op must keep its schema across the move, or only gain element types
(:func:`passcheck.mutations._opsets.widened_only`), and the stamp stays within the IR version's
range. One way (the attribute spelling is an older opset; lowering a stamp is opset-stamp-down's
job where it keeps every schema). Sites: main-graph node labels, subgraph nodes by output name."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, node_label, opset, subgraphs
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import attr_value, drop_attribute, int64_constant
from passcheck.mutations._opsets import changed_ops, default_ops, highest_opset, schema, set_default_opset
from passcheck.mutations._opsets import widened_only as _widened
from passcheck.mutations._shapes import known

if TYPE_CHECKING:
    import onnx

#: op → (the version that takes the parameters as inputs, the attributes in input order).
MOVED = {"Slice": (10, ("starts", "ends", "axes")), "Clip": (11, ("min", "max")), "Pad": (11, ("pads", "value"))}
MOVED["Split"] = (13, ("split",))
FLOAT, FLT_MAX = 1, 3.4028234663852886e38


def _nodes(model: onnx.ModelProto):
    def walk(g: onnx.GraphProto, main: bool):
        for i, n in enumerate(g.node):
            if is_default_domain(n) and n.op_type in MOVED:
                yield g, n, node_label(n, i) if main else n.output[0]
            for sg in subgraphs(n):
                yield from walk(sg, False)

    yield from walk(model.graph, True)


def _float_input(n: onnx.NodeProto, types) -> bool:
    k = types.get(n.input[0])
    return k is not None and k.elem_type == FLOAT


def _inputs(n: onnx.NodeProto, taken: set[str]) -> list[tuple[onnx.NodeProto | None, str]] | None:
    """The Constant nodes and input names that replace ``n``'s attributes, in slot order (None: cannot)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    base = n.name or n.output[0]

    def scalar(what: str, value: float) -> tuple[onnx.NodeProto, str]:
        out = onnx.helper.make_node(
            "Constant",
            [],
            [name := fresh_name(taken, f"{base}_{what}")],
            value=numpy_helper.from_array(np.float32(value)),
        )
        out.name = fresh_name(taken, f"{name}_node")
        return out, name

    def ints(what: str, values) -> tuple[onnx.NodeProto, str]:
        c = int64_constant(taken, f"{base}_{what}", list(values))
        return c, c.output[0]

    if n.op_type == "Slice":
        got = [attr_value(n, a) for a in MOVED["Slice"][1]]
        if got[0] is None or got[1] is None:
            return None
        return [ints(w, v) for w, v in zip(("starts", "ends", "axes"), got, strict=True) if v is not None]
    if n.op_type == "Clip":
        lo, hi = attr_value(n, "min", -FLT_MAX), attr_value(n, "max", FLT_MAX)
        return [scalar("min", lo), scalar("max", hi)]
    if n.op_type == "Pad":
        if attr_value(n, "mode", b"constant") not in (b"constant", "constant") or attr_value(n, "pads") is None:
            return None
        return [ints("pads", attr_value(n, "pads")), scalar("value", attr_value(n, "value", 0.0))]
    split = attr_value(n, "split")
    return [] if split is None else [ints("split", split)]


def _others_keep(model: onnx.ModelProto, lo: int, hi: int) -> bool:
    ops = default_ops(model)
    if ops is None:
        return False
    moving = {op for op, (since, _) in MOVED.items() if lo < since <= hi}
    return all(schema(op, lo) is not None and schema(op, hi) is not None for op in ops) and all(
        _widened(op, lo, hi) for op in changed_ops(model, lo, hi) - moving
    )


def to_inputs(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Every Slice-1/Clip-6/Pad-2/Split-2 node → its input form, the stamp raised past the move."""
    v = opset(model)
    todo = [(g, n, label) for g, n, label in _nodes(model) if MOVED[n.op_type][0] > v]
    if not todo or (only is not None and not {label for *_, label in todo} <= set(only)):
        return []
    target = max(MOVED[n.op_type][0] for _, n, _ in todo)
    if target > highest_opset(model.ir_version) or not _others_keep(model, v, target):
        return []
    types = known(model)
    if any(n.op_type in ("Clip", "Pad") and not _float_input(n, types) for _, n, _ in todo):
        return []  # nested nodes' types are unknown too: only float32 main-graph Clip/Pad move
    taken, plans = all_names(model), []
    for g, n, label in todo:
        made = _inputs(n, taken)
        if made is None:
            return []
        plans.append((g, n, label, made))
    for g, n, _label, made in plans:
        for a in MOVED[n.op_type][1]:
            drop_attribute(n, a)
        at = list(g.node).index(n)
        for k, (const, name) in enumerate(made):
            g.node.insert(at + k, const)
            n.input.append(name)
    set_default_opset(model, target)
    return [label for _g, _n, label, _made in plans]


REWRITES = (
    Rewrite(
        "attributes-as-inputs",
        "Slice-1/Clip-6/Pad-2/Split-2 attributes → Constant inputs, opset stamp raised to 10/11/13",
        to_inputs,
    ),
)

FREEDOMS = (
    Freedom(
        "input-attribute-moves-other-ops",
        "operator schemas",
        "Operators.md Split-13 (split), Pad-11 (pads, constant_value), Clip-11 (min, max), Slice-10 (starts, ends, "
        "axes); Versioning.md",
        "The same parameter as an attribute before the version that moved it and as an input from it, with the "
        "opset stamp on the matching side.",
        ("attributes-as-inputs",),
        "every Slice/Clip/Pad/Split node together (one stamp), main graph and subgraphs; Clip and Pad on float32 "
        "inputs only (Clip-6's ∓FLT_MAX defaults); only where every other op keeps its schema across the move; "
        "one way (axes-as-input/axes-as-attribute cover Squeeze/Unsqueeze/Reduce*); TopK-10 k and Resize left out",
    ),
)
