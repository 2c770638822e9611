"""Planted passes for the schema-walk rewrites: each mishandles one spelling the operator schemas
allow and is right on the model as written. Each docstring names the freedom and the rewrite whose
mutant shows it (the tests never name the rewrite: ``check --mutations`` picks it by default)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

from passcheck.cases.builders import parse

from .planted_freedoms import _attr, _static


def _producers(g: onnx.GraphProto) -> dict[str, onnx.NodeProto]:
    return {o: n for n in g.node for o in n.output}


# --- Transpose perm written out (transpose-perm-explicit) -----------------------------------------


def transposes() -> onnx.ModelProto:
    return parse(
        """g (float[2, 3, 4] x) => (float[3, 4, 2] y) {
        a = Transpose(x)
        y = Transpose<perm = [1, 0, 2]>(a)
    }""",
        opset=13,
    )


def compose_perms_backwards(model: onnx.ModelProto) -> onnx.ModelProto:
    """Merges Transpose(p) → Transpose(q) into one Transpose, composing ``q[p[i]]`` where the
    result is ``p[q[i]]``; it leaves a Transpose without perm alone (its rank is not at hand).
    Freedom: a missing perm is the reversal [r-1 … 0] (Transpose)."""
    g = model.graph
    made = _producers(g)
    for n in list(g.node):
        first = made.get(n.input[0]) if n.op_type == "Transpose" else None
        if first is None or first.op_type != "Transpose":
            continue
        p, q = _attr(first, "perm"), _attr(n, "perm")
        if p is None or q is None:
            continue
        n.input[0] = first.input[0]
        n.attribute.remove(next(a for a in n.attribute if a.name == "perm"))
        n.attribute.append(onnx.helper.make_attribute("perm", [q[p[i]] for i in range(len(p))]))
    return model


# --- Relu written as Clip(x, 0) (relu-as-clip) -------------------------------------------------------


def relu() -> onnx.ModelProto:
    return parse(
        """g (float[N, 4] x) => (float[N, 4] y) {
        a = Relu(x)
        y = Neg(a)
    }""",
        opset=13,
    )


def clip_missing_max_as_zero(model: onnx.ModelProto) -> onnx.ModelProto:
    """Makes Clip's bounds explicit, writing a missing ``max`` as a zero of the type instead of no
    bound. Freedom: Relu(x) is Clip(x, 0) with max omitted (Relu, Clip-11+)."""
    g = model.graph
    for n in g.node:
        if n.op_type == "Clip" and len(n.input) == 2:
            zero = onnx.numpy_helper.from_array(np.float32(0), f"{n.output[0]}_max")
            g.initializer.append(zero)
            n.input.append(zero.name)
    return model


# --- Split sizes written out (split-sizes-explicit) ---------------------------------------------------


def split() -> onnx.ModelProto:
    return parse(
        """g (float[N, 6] x) => (float[N, 2] a, float[N, 2] b, float[N, 2] c) {
        a, b, c = Split<axis = 1>(x)
    }""",
        opset=13,
    )


def split_sizes_as_ends(model: onnx.ModelProto) -> onnx.ModelProto:
    """Lowers a Split with static sizes to Slices, reading the sizes as the pieces' end offsets;
    an equal split (no sizes) is left alone. Freedom: Split without ``split`` is the same as its
    equal sizes written out (Split-13)."""
    g, static = model.graph, _static(model)
    for n in list(g.node):
        if n.op_type != "Split" or len(n.input) < 2 or n.input[1] not in static:
            continue
        axis, start, at = _attr(n, "axis", 0), 0, list(g.node).index(n)
        for k, (out, end) in enumerate(zip(n.output, static[n.input[1]].tolist())):
            names = [f"{out}_{w}" for w in ("starts", "ends", "axes")]
            for name, v in zip(names, (start, end, axis)):
                g.initializer.append(onnx.numpy_helper.from_array(np.array([v], np.int64), name))
            g.node.insert(at + k, onnx.helper.make_node("Slice", [n.input[0], *names], [out]))
            start = end
        g.node.remove(n)
    return model


# --- Reshape with 0 and -1 entries (reshape-dims-implicit) --------------------------------------------


def reshape() -> onnx.ModelProto:
    return parse(
        """g (float[2, 3, 4] x) => (float[2, 12] y) {
        a = Reshape(x, shape)
        y = Neg(a)
    }""",
        opset=13,
        initializers=[onnx.numpy_helper.from_array(np.array([2, 12], np.int64), "shape")],
    )


def resolve_minus_one_ignoring_zero(model: onnx.ModelProto) -> onnx.ModelProto:
    """Resolves a -1 in a static Reshape shape from the input's static size, dividing by the other
    entries with a 0 counted as 1 (it copies an input dim: Reshape-5+, allowzero 0)."""
    g, static = model.graph, _static(model)
    inferred = onnx.shape_inference.infer_shapes(model).graph
    dims = {
        v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in [*inferred.input, *inferred.value_info]
    }
    for n in g.node:
        if n.op_type != "Reshape" or n.input[1] not in static or n.input[0] not in dims:
            continue
        shape = static[n.input[1]].astype(np.int64).tolist()
        if -1 in shape:
            rest = int(np.prod([v if v > 0 else 1 for v in shape if v != -1]))
            shape[shape.index(-1)] = int(np.prod(dims[n.input[0]])) // rest
            name = f"{n.output[0]}_resolved"
            g.initializer.append(onnx.numpy_helper.from_array(np.array(shape, np.int64), name))
            n.input[1] = name
    return model


# --- Max of three inputs (variadic-merge) --------------------------------------------------------------


def maxes() -> onnx.ModelProto:
    return parse(
        """g (float[N, 4] x, float[N, 4] y, float[N, 4] z) => (float[N, 4] w) {
        m = Max(x, y)
        w = Max(m, z)
    }""",
        opset=13,
    )


def max_of_first_two(model: onnx.ModelProto) -> onnx.ModelProto:
    """Lowers variadic Max/Min to the binary kernel, keeping only the first two inputs. Freedom:
    Max takes 1 to ∞ inputs (Max-8+); a chain of two-input Max is one Max of all of them."""
    for n in model.graph.node:
        if n.op_type in ("Max", "Min") and len(n.input) > 2:
            del n.input[2:]
    return model


# --- Softmax as its function body (expand-function-ops) -----------------------------------------------


def softmax() -> onnx.ModelProto:
    return parse(
        """g (float[N, 3, 4] x) => (float[N, 3, 4] y) {
        y = Softmax<axis = 1>(x)
    }""",
        opset=18,
    )


def fuse_softmax_last_axis(model: onnx.ModelProto) -> onnx.ModelProto:
    """Fuses Div(Exp(z), ReduceSum(Exp(z))) into Softmax(z), always on the last axis, whatever axes
    the ReduceSum has. Freedom: Softmax-13 is defined by its function body (ReduceMax, Sub, Exp,
    ReduceSum, Div on the axis), which a writer may use instead."""
    g = model.graph
    made = _producers(g)
    for n in g.node:
        if n.op_type != "Div":
            continue
        e, s = made.get(n.input[0]), made.get(n.input[1])
        if e is not None and s is not None and e.op_type == "Exp" and s.op_type == "ReduceSum":
            if s.input[0] == e.output[0]:
                n.op_type, n.input[:] = "Softmax", [e.input[0]]
                n.attribute.append(onnx.helper.make_attribute("axis", -1))
    return model


# --- An outer read passed as a loop-carried value (outer-read-as-loop-carried) -----------------------


def loop() -> onnx.ModelProto:
    return parse(
        """g (float[3, 4] x, float[3, 4] w) => (float[3, 4] y) {
        y = Loop(three, , x) <body = b (int64 i, bool c, float[3, 4] v) => (bool co, float[3, 4] vo) {
            co = Identity(c)
            vo = Add(v, w)
        }>
    }""",
        opset=13,
        initializers=[onnx.numpy_helper.from_array(np.int64(3), "three")],
    )


def drop_unread_loop_outputs(model: onnx.ModelProto) -> onnx.ModelProto:
    """Removes Loop outputs nothing reads, keeping the Loop's inputs and body as they are, so the
    body's carried outputs no longer match the Loop's outputs. Freedom: a value a Loop body reads
    unchanged may be an outer read or a loop-carried value whose final value is unread (Loop)."""
    g = model.graph
    read = {x for n in g.node for x in n.input} | {o.name for o in g.output}
    for n in g.node:
        if n.op_type == "Loop":
            keep = [o for o in n.output if o in read]
            del n.output[:]
            n.output.extend(keep)
    return model


# --- Neutral selections and one-input variadics (neutral-where-not, neutral-one-input-variadic) -------


def scaled() -> onnx.ModelProto:
    return parse(
        """g (float[N, 4] x) => (float[N, 4] y) {
        a = Neg(x)
        y = Exp(a)
    }""",
        opset=13,
    )


def where_constant_picks_else(model: onnx.ModelProto) -> onnx.ModelProto:
    """Folds a Where whose condition is a static scalar, taking Y for true and X for false (the
    branches swapped). Freedom: Where(true, x, y) is x (Where-9+)."""
    g, static = model.graph, _static(model)
    for n in g.node:
        if n.op_type == "Where" and n.input[0] in static and static[n.input[0]].size == 1:
            picked = n.input[2] if bool(static[n.input[0]].reshape(-1)[0]) else n.input[1]
            n.op_type, n.input[:] = "Identity", [picked]
    return model


def sum_as_binary_add(model: onnx.ModelProto) -> onnx.ModelProto:
    """Rewrites every Sum as Add of its first two inputs, not checking the arity: a one-input Sum
    becomes Add(x, "") (invalid). Freedom: Sum takes 1 to ∞ inputs (Sum-8+)."""
    for n in model.graph.node:
        if n.op_type == "Sum" and len(n.input) <= 2:
            n.op_type = "Add"
            n.input.extend([""] * (2 - len(n.input)))
    return model


# --- Model-local functions: overloads and value_info (function-overload-split, function-value-info) ---


def compared() -> onnx.ModelProto:
    """Less and Add each written as a call of a model-local function; Add called twice."""
    from passcheck.mutations import REWRITES

    m = parse(
        """g (float[N, 4] x, float[N, 4] y) => (float[N, 4] z) {
        a = Add(x, y)
        b = Add(a, y)
        c = Less(x, b)
        z = Where(c, a, b)
    }""",
        opset=13,
    )
    return REWRITES["node-as-local-function"].apply(m)[0]


def prune_functions_by_default_overload(model: onnx.ModelProto) -> onnx.ModelProto:
    """Drops model-local functions no node calls, matching calls by (domain, name) with the default
    overload only, so an overload (IR >= 10: NodeProto.overload) counts as unused and is removed.
    Freedom: two call sites of one body may call one function or two overloads of it."""
    called = {(n.domain, n.op_type) for n in model.graph.node}
    keep = [f for f in model.functions if (f.domain, f.name) in called and not f.overload]
    del model.functions[:]
    model.functions.extend(keep)
    return model


def call_type_from_first_value_info(model: onnx.ModelProto) -> onnx.ModelProto:
    """Types each call of a function that carries value_info (IR >= 10) with the element type of
    the function's first value_info entry, taken to be its output; it is its first input. Freedom:
    a function body may carry the types of its values or none (FunctionProto.value_info)."""
    typed = {(f.domain, f.name): f.value_info[0].type.tensor_type.elem_type for f in model.functions if f.value_info}
    for n in model.graph.node:
        if (n.domain, n.op_type) in typed:
            model.graph.value_info.append(
                onnx.helper.make_tensor_value_info(n.output[0], typed[n.domain, n.op_type], None)
            )
    return model


# --- Attributes moved to inputs (attributes-as-inputs) -----------------------------------------------


def padded() -> onnx.ModelProto:
    m = parse(
        """g (float[N, 4] x) => (float[N, 7] y) {
        p = Pad<pads = [0, 1, 0, 2], value = 1.5>(x)
        y = Neg(p)
    }""",
        opset=9,
    )
    m.ir_version = 7
    return m


def pad_input_value_dropped(model: onnx.ModelProto) -> onnx.ModelProto:
    """Normalizes Pad-11+ nodes to (data, pads), dropping the constant_value input, so they pad
    with 0; the Pad-2 attribute form is left alone. Freedom: Pad's value is an attribute before
    Pad-11 and an input from it (Versioning.md: the same meaning at the new opset)."""
    for n in model.graph.node:
        if n.op_type == "Pad" and len(n.input) > 2:
            del n.input[2:]
    return model
