"""Planted passes for issue 27: each mishandles one spelling the operator schemas or the ops'
algebra allow, one that no hand-written case and no rewrite before issue 27 produces, and is right
on the models as written. Each docstring names the freedom and the rewrite whose mutant shows it
(the tests never name the rewrite: ``check --mutations`` picks it by default)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

from passcheck.cases.builders import parse, tensor


def _static(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    g = model.graph
    out = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
    for n in g.node:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            out[n.output[0]] = onnx.numpy_helper.to_array(n.attribute[0].t)
    return out


def _attr(node: onnx.NodeProto, name: str, default=None):
    return next((onnx.helper.get_attribute_value(a) for a in node.attribute if a.name == name), default)


# --- 1. Transpose with the identity perm (neutral-shape-ops) -------------------------------------


def transposes() -> onnx.ModelProto:
    return parse(
        """g (float[N, 3, 4] x) => (float[N, 3, 4] y) {
        a = Relu(x)
        y = Neg(a)
    }""",
        opset=13,
    )


def drop_identity_perm(model: onnx.ModelProto) -> onnx.ModelProto:
    """Canonicalizes attributes: a ``perm`` equal to ``[0 … r-1]`` is taken for "the default" and
    dropped. The default reverses the dims (Transpose: "By default, reverse the dimensions"), so
    the identity Transpose becomes a reversal. Freedom: a Transpose whose perm is the identity is a
    no-op (neutral element); cases/axes.py has only the omitted-perm spelling of a reversal."""
    for n in model.graph.node:
        perm = _attr(n, "perm")
        if n.op_type == "Transpose" and perm is not None and list(perm) == list(range(len(perm))):
            keep = [a for a in n.attribute if a.name != "perm"]
            del n.attribute[:]
            n.attribute.extend(keep)
    return model


# --- 2. Cast to the input's own type (neutral-elementwise) ---------------------------------------


def shared_value() -> onnx.ModelProto:
    return parse(
        """g (float[N, 4] x) => (float[N, 4] y) {
        a = Relu(x)
        b = Neg(a)
        c = Exp(a)
        y = Add(b, c)
    }""",
        opset=13,
    )


def drop_noop_cast_first_reader(model: onnx.ModelProto) -> onnx.ModelProto:
    """Removes a Cast to the type its input already has, rewiring only the first node that reads the
    Cast's output; a second reader is left reading a value nothing writes. Freedom: ``Cast(x, to=T)``
    with x of type T is the identity (Cast-6+); no case writes one."""
    inferred = onnx.shape_inference.infer_shapes(model).graph
    types = {v.name: v.type.tensor_type.elem_type for v in [*inferred.input, *inferred.value_info, *inferred.output]}
    g = model.graph
    for n in list(g.node):
        outputs = {o.name for o in g.output}
        if n.op_type == "Cast" and types.get(n.input[0]) == _attr(n, "to") and n.output[0] not in outputs:
            reader = next((m for m in g.node if n.output[0] in m.input), None)
            if reader is not None:
                reader.input[list(reader.input).index(n.output[0])] = n.input[0]
                g.node.remove(n)
    return model


# --- 3. Gather of one index written as Slice + Squeeze (gather-as-slice) -------------------------


def gather_row() -> onnx.ModelProto:
    return parse(
        """g (float[N, 5, 3] x) => (float[N, 3] y) {
        g = Gather<axis = 1>(x, two)
        y = Relu(g)
    }""",
        opset=13,
        initializers=[tensor("two", np.int64(2))],
    )


def slice_of_one_as_gather(model: onnx.ModelProto) -> onnx.ModelProto:
    """Turns a Slice of one element ``[i, i+1)`` into ``Gather(x, i)`` with a scalar index, which drops
    the axis (Gather: output rank is ``q + r - 1``, q = 0 for a scalar) where the Slice kept it at
    size 1; the right index is the 1-D ``[i]``. Freedom: Gather of a static index ↔ Slice (+ Squeeze)."""
    g, static = model.graph, _static(model)
    for n in g.node:
        if n.op_type != "Slice" or len(n.input) < 4 or not all(x in static for x in n.input[1:4]):
            continue
        starts, ends, axes = (static[x].reshape(-1) for x in n.input[1:4])
        if len(starts) == 1 and ends[0] == starts[0] + 1:
            index = onnx.numpy_helper.from_array(np.int64(starts[0]), n.output[0] + "_index")
            g.initializer.append(index)
            n.op_type = "Gather"
            n.input[:] = [n.input[0], index.name]
            n.attribute.append(onnx.helper.make_attribute("axis", int(axes[0])))
    return model


# --- 4. Integer Add reassociated (reassociate) ---------------------------------------------------


def integer_offsets() -> onnx.ModelProto:
    return parse(
        """g (int64[N, 2] i) => (int64[N, 2] y) {
        a = Add(i, big)
        y = Add(a, small)
    }""",
        opset=13,
        initializers=[
            tensor("big", np.array([2**40 + 1, 3], np.int64)),
            tensor("small", np.array([1, 2**33 + 1], np.int64)),
        ],
    )


def fold_integer_add_in_float(model: onnx.ModelProto) -> onnx.ModelProto:
    """Folds an Add whose inputs are both constant, computing in float32 (exact only below 2**24),
    so ``2**40 + 1 + 1`` becomes ``2**40``. Freedom: integer Add is associative (two's complement
    wraps modulo 2**64), so ``(i + c1) + c2`` may be written ``i + (c1 + c2)``, which puts two
    constants side by side; no case writes that."""
    g, static = model.graph, _static(model)
    for n in list(g.node):
        if n.op_type == "Add" and len(n.input) == 2 and all(x in static for x in n.input):
            a, b = (static[x] for x in n.input)
            value = (a.astype(np.float32) + b.astype(np.float32)).astype(a.dtype)
            g.initializer.append(onnx.numpy_helper.from_array(value, n.output[0]))
            g.node.remove(n)
    return model


# --- 5. Clip's missing max written +inf (clip-bounds-explicit) -----------------------------------


def clipped() -> onnx.ModelProto:
    return parse(
        """g (float[N, 4] x) => (float[N, 4] y) {
        c = Clip(x, lo)
        y = Neg(c)
    }""",
        opset=13,
        initializers=[tensor("lo", np.float32(-0.5))],
    )


def zero_nonfinite_clip_bounds(model: onnx.ModelProto) -> onnx.ModelProto:
    """ "Sanitizes" Clip's static bounds, replacing a non-finite one by 0, so ``max = +inf`` (no upper
    bound) becomes ``max = 0``. Freedom: Clip-11+ without ``max`` is Clip with ``max = +inf`` (no
    bound either way); the library's cases omit max or write it ``""``, never +inf."""
    g, static = model.graph, _static(model)
    for n in g.node:
        if n.op_type != "Clip":
            continue
        for k, x in enumerate(n.input[1:3], start=1):
            if x in static and not np.all(np.isfinite(static[x])):
                zero = onnx.numpy_helper.from_array(np.zeros_like(static[x]), f"{x}_sanitized")
                g.initializer.append(zero)
                n.input[k] = zero.name
    return model
