"""Planted passes for the kinds of issue 18 (items 1–4): each mishandles one spelling the library
only produces since those families existed. Each docstring names the family and oracle that
catch it."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper
import onnx.reference

# --- helpers --------------------------------------------------------------------------------------


def _static_dims(model: onnx.ModelProto) -> dict[str, list[int | None]]:
    """Graph input name → its dims (None where not a dim_value)."""
    return {
        vi.name: [d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim]
        for vi in model.graph.input
    }


def _attr(node: onnx.NodeProto, name: str, default=None):
    return next((onnx.helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)


def _shape_value(node: onnx.NodeProto, dims: dict) -> np.ndarray | None:
    """The value of a Shape node whose selected dims of a graph input are all static, else None."""
    d = dims.get(node.input[0])
    if d is None:
        return None
    rank = len(d)
    start, end = _attr(node, "start", 0), _attr(node, "end", rank)
    sel = d[min(max(start + rank if start < 0 else start, 0), rank) : min(max(end + rank if end < 0 else end, 0), rank)]
    return None if None in sel else np.array(sel, np.int64)


def _evaluate(node: onnx.NodeProto, known: dict, model: onnx.ModelProto) -> list[np.ndarray]:
    """Run one node with the onnx reference evaluator on constant inputs."""
    g = onnx.helper.make_graph(
        [node],
        "one",
        [],
        [onnx.helper.make_empty_tensor_value_info(o) for o in node.output],
        [onnx.numpy_helper.from_array(known[i], i) for i in node.input if i],
    )
    m = onnx.helper.make_model(g, opset_imports=list(model.opset_import))
    m.ir_version = model.ir_version
    return list(onnx.reference.ReferenceEvaluator(m).run(None, {}))


def _replace_nodes(model: onnx.ModelProto, nodes: list, folded: dict) -> onnx.ModelProto:
    """Keep ``nodes``; store each folded value some kept node or graph output reads as an initializer."""
    used = {i for n in nodes for i in n.input} | {o.name for o in model.graph.output}
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(
        onnx.numpy_helper.from_array(np.asarray(v), k) for k, v in folded.items() if k in used
    )
    return model


# --- 1. shape-derived counts -------------------------------------------------------------------


def fold_shape_gather_as_scalar(model: onnx.ModelProto) -> onnx.ModelProto:
    """Folds ``Gather(Shape(x), i)`` with one static index into a constant, but always a 0-D one:
    a 1-element 1-D index (which gives a 1-D count) comes out with the wrong rank.
    Caught by: count/* on the gather-1d forms (the consumer's input rank breaks)."""
    dims = _static_dims(model)
    shapes = {n.output[0]: n for n in model.graph.node if n.op_type == "Shape" and not n.attribute}
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    keep, folded = [], {}
    for n in model.graph.node:
        src = shapes.get(n.input[0]) if n.op_type == "Gather" and n.input else None
        idx = inits.get(n.input[1]) if src is not None else None
        d = dims.get(src.input[0]) if src is not None else None
        if idx is not None and idx.size == 1 and d is not None and d[int(idx.reshape(-1)[0])] is not None:
            folded[n.output[0]] = np.array(d[int(idx.reshape(-1)[0])], np.int64)  # the bug: rank 0 whatever idx's rank
            continue
        keep.append(n)
    return _replace_nodes(model, keep, folded)


# --- 2. constant-only subgraphs, the opset as a form ----------------------------------------------


def fold_shape_chains_only(model: onnx.ModelProto) -> onnx.ModelProto:
    """Folds values computed from static dims of the input shapes (Shape, and every node whose
    inputs are constants one of which is shape-derived), but treats folding as a shape matter:
    a node whose inputs are all plain constants is left. Caught by: folding on const-fold/*
    constant-only forms (the shape-derived form folds)."""
    dims = _static_dims(model)
    known = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    from_shapes: set[str] = set()
    keep, folded = [], {}
    for n in model.graph.node:
        value = None
        if n.op_type == "Shape":
            value = _shape_value(n, dims)
            value = None if value is None else [value]
        elif n.op_type == "Constant":
            known[n.output[0]] = (
                onnx.numpy_helper.to_array(_attr(n, "value")) if _attr(n, "value") is not None else None
            )
        elif all(i in known for i in n.input if i) and any(
            i in from_shapes for i in n.input
        ):  # the bug: `any` shape input required
            value = _evaluate(n, known, model)
        if value is None:
            keep.append(n)
            continue
        for o, v in zip(n.output, value):
            known[o], folded[o] = v, v
            from_shapes.add(o)
    return _replace_nodes(model, keep, folded)


def _skip_layernorm(model: onnx.ModelProto, accept) -> onnx.ModelProto:
    """Add → LayerNormalization(axis -1) to com.microsoft SkipLayerNormalization (scale and bias
    flattened to [H]) when ``accept(model, scale, bias)`` (initializer arrays) says so."""
    g = model.graph
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
    adds = {n.output[0]: n for n in g.node if n.op_type == "Add"}
    nodes = list(g.node)
    for ln in [n for n in nodes if n.op_type == "LayerNormalization"]:
        add = adds.get(ln.input[0])
        if (
            add is None
            or len(ln.input) < 3
            or _attr(ln, "axis", -1) != -1
            or not accept(model, inits.get(ln.input[1]), inits.get(ln.input[2]))
        ):
            continue
        params = [f"{ln.name}_gamma", f"{ln.name}_beta"]  # SkipLayerNormalization takes them 1-D
        g.initializer.extend(
            onnx.numpy_helper.from_array(inits[i].reshape(-1), p) for i, p in zip(ln.input[1:3], params)
        )
        fused = onnx.helper.make_node(
            "SkipLayerNormalization",
            [add.input[0], add.input[1], *params],
            [ln.output[0]],
            domain="com.microsoft",
            name=f"{ln.name}_fused",
            epsilon=_attr(ln, "epsilon", 1e-5),
        )
        nodes[nodes.index(ln)] = fused
        nodes.remove(add)
        if not any(o.domain == "com.microsoft" for o in model.opset_import):
            model.opset_import.append(onnx.helper.make_opsetid("com.microsoft", 1))
    del g.node[:]
    g.node.extend(nodes)
    return model


def _default_opset(model: onnx.ModelProto) -> int:
    return next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))


def fuse_skip_layernorm_at_opset_17(model: onnx.ModelProto) -> onnx.ModelProto:
    """Fuses Add → LayerNormalization, but gates the rule on the model's opset import being 17
    instead of on the ops' schema versions. Caught by: parity on layernorm/skip-opsets
    (opset-18, opset-19 left unfused)."""
    return _skip_layernorm(model, lambda m, s, b: s is not None and b is not None and _default_opset(m) == 17)


# --- 3. inside control flow ------------------------------------------------------------------------


def _inline(body: onnx.GraphProto, names: dict, prefix: str) -> list:
    """``body``'s nodes with its names mapped through ``names`` (inputs, outputs); other names
    inside the body get ``prefix``; outer-scope names stay. Body initializers are dropped (the bug)."""
    local = {o for n in body.node for o in n.output} | {i.name for i in body.input} | {t.name for t in body.initializer}
    out = []
    for n in body.node:
        m = onnx.NodeProto()
        m.CopyFrom(n)
        m.name = prefix + (n.name or n.op_type)
        for field in (m.input, m.output):
            for k, v in enumerate(field):
                if v:
                    field[k] = names.get(v, prefix + v if v in local else v)
        out.append(m)
    return out


def inline_constant_control_flow(model: onnx.ModelProto) -> onnx.ModelProto:
    """Inlines an If whose cond is a bool initializer (the taken branch) and a Loop with trip
    count 1 and a true or absent cond (the body once), but forgets the subgraph's own
    initializers. Caught by: validity on control-flow/if-branch-constants:branch-initializer and
    control-flow/loop-body-constants:body-initializer (the inlined nodes read a name that is gone)."""
    g = model.graph
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
    nodes = []
    for k, n in enumerate(g.node):
        if n.op_type == "If" and n.input[0] in inits:
            branch = _attr(n, "then_branch" if bool(inits[n.input[0]]) else "else_branch")
            nodes += _inline(branch, dict(zip((o.name for o in branch.output), n.output)), f"if{k}_")
        elif (
            n.op_type == "Loop"
            and n.input[0] in inits
            and int(inits[n.input[0]]) == 1
            and (not n.input[1] or bool(inits.get(n.input[1], False)))
            and len(_attr(n, "body").output) == len(n.input) - 1
        ):  # no scan outputs
            body = _attr(n, "body")
            zero = f"loop{k}_i"
            g.initializer.append(onnx.numpy_helper.from_array(np.array(0, np.int64), zero))
            cond = n.input[1] or f"loop{k}_true"
            if not n.input[1]:
                g.initializer.append(onnx.numpy_helper.from_array(np.array(True), cond))
            names = {body.input[0].name: zero, body.input[1].name: cond}
            names.update({b.name: outer for b, outer in zip(body.input[2:], n.input[2:])})
            names.update({b.name: outer for b, outer in zip(body.output[1:], n.output)})
            nodes += _inline(body, names, f"loop{k}_")
        else:
            nodes.append(n)
    del g.node[:]
    g.node.extend(nodes)
    return model


# --- 4. parameter rank -------------------------------------------------------------------------------


def fuse_skip_layernorm_1d_only(model: onnx.ModelProto) -> onnx.ModelProto:
    """Fuses Add → LayerNormalization into SkipLayerNormalization only when scale and bias are
    1-D initializers, leaving [1, 1, H] parameters unfused. Caught by: parity on
    layernorm/skip-param-rank (params-rank3, scale-rank3, params-rank2)."""
    return _skip_layernorm(model, lambda m, s, b: s is not None and b is not None and s.ndim == 1 and b.ndim == 1)
