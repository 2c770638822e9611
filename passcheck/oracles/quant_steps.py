"""The quantization steps a model writes, and the rounding error they bound at each graph output.

Operators.md QuantizeLinear: ``y = saturate(round(x / y_scale) + y_zero_point)``, rounding half to even, so a value
inside the representable range moves by at most half a step (``y_scale``); DequantizeLinear:
``y = (x - x_zero_point) * x_scale`` rounds nothing itself (beyond float32). :func:`allowance` carries, through the
main graph in order, for each value ``v`` a bound ``a(v)`` on how far rounding moved it and a bound ``m(v)`` on its
magnitude, read off the model alone:

- a *rounding* adds its share of its step: a ``QuantizeLinear`` (its ``y_scale``, the largest element of a per-axis
  scale), and a ``DequantizeLinear`` of a constant (weights rounded ahead of time, with :data:`weights`); ``m`` of a
  DequantizeLinear output is the largest magnitude its integer type can stand for (``max(|qmin - zp|, |qmax - zp|)
  · scale``; of a constant, its own);
- ops that select, move or average elements, or are 1-Lipschitz (:data:`SELECT`: Reshape, Transpose, Relu, MaxPool,
  Concat, Sigmoid, …), and those that hold tensors in a sequence or an optional and hand them back (:data:`HOLD`),
  carry the largest ``a`` and ``m`` of their float inputs; Add / Sub the sums; an If output the larger of its
  branches'; a local function is read inlined;
- products bound the error of a sum of ``K`` products (``K`` read off the constant operand's shape: MatMul's
  ``B[-2]``, Gemm's ``K``, Conv's ``C/group · kernel``; for MatMul and Gemm, else off the first operand's static
  shape: ``A[-1]``, Gemm's ``A`` columns): ``a = K (a₁ m₂ + m₁ a₂ + a₁ a₂)``, ``m = K m₁ m₂`` (Mul:
  ``K = 1``), plus a bias's own ``a`` and ``m``; a term whose error factor is 0 needs no magnitude (a graph
  input's is unknown: ``Mul(x, c)`` of a fed ``x`` by an exact constant ahead of the first QuantizeLinear is exact),
  and a product of two exact operands needs no ``K`` either (``MatMul(x, Transpose(w))`` of fed values, where no
  constant operand states ``K``, is exact: its ``m`` is unknown, its ``a`` 0);
- anything else, a rounding whose step is set at run time (``DynamicQuantizeLinear``) or an op of the QLinear family
  (its requantization is not a QuantizeLinear): unknown (None) from there on.

A worst case, not an estimate: every rounding at its extreme, every product aligned. Where a saturation would
clip (a value beyond the calibrated range) the bound does not hold; static quantization calibrated on the very
feeds it is judged on saturates none.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from passcheck.oracles import block_steps
from passcheck.runtime.graph_index import per_model

#: Ops whose float output element is one of its float inputs' elements, a convex combination of them, or a
#: 1-Lipschitz function of one (Operators.md): an error and a magnitude carry over unchanged (the largest).
SELECT = frozenset(
    "Identity Reshape Transpose Flatten Squeeze Unsqueeze Slice Gather GatherElements GatherND Concat Split Expand "
    "Tile Pad Relu LeakyRelu Clip MaxPool AveragePool GlobalAveragePool GlobalMaxPool Max Min Where Resize "
    "Upsample DepthToSpace SpaceToDepth Sigmoid Tanh Abs Neg Softsign ReduceMax ReduceMin ReduceMean Cast "
    "CastLike TopK".split()
)
#: Ops that hold or hand back tensors unchanged (Operators.md: SequenceConstruct / SequenceInsert / Optional hold
#: their inputs, SequenceAt and OptionalGetElement output one held element, ConcatFromSequence and SplitToSequence
#: move elements): a sequence's or optional's bound is its elements' largest, carried like :data:`SELECT`.
HOLD = frozenset(
    "SequenceConstruct SequenceInsert SequenceAt Optional OptionalGetElement ConcatFromSequence SplitToSequence".split()
)
SUMS = frozenset({"Add", "Sub", "Sum"})
PRODUCTS = frozenset({"Mul", "MatMul", "Gemm", "Conv", "ConvTranspose"})
#: Ops that quantize with a scale they compute at run time, or requantize inside a fused kernel: no bound here.
UNBOUNDED = frozenset({"DynamicQuantizeLinear", "DynamicQuantizeLSTM", "MatMulInteger", "ConvInteger"})
#: Integer range (qmin, qmax) per quantized element type name.
RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767)}


def _domain(d: str) -> str:
    return "" if d == "ai.onnx" else d


def constants(model: Any) -> dict[str, np.ndarray]:
    """Main-graph initializers held in the model and ``Constant`` outputs (``value``, ``value_float(s)``), by name."""
    return _graph_constants(model.graph)


def _graph_constants(graph: Any) -> dict[str, np.ndarray]:
    """:func:`constants` of one graph (the main graph, or an If branch)."""
    from onnx import numpy_helper

    out = {t.name: numpy_helper.to_array(t) for t in graph.initializer if not t.data_location}
    for n in graph.node:
        if n.op_type == "Constant" and _domain(n.domain) == "" and n.output:
            for a in n.attribute:
                if a.name == "value" and a.HasField("t"):
                    out[n.output[0]] = numpy_helper.to_array(a.t)
                elif a.name in ("value_float", "value_floats"):  # Operators.md Constant: one float, or a 1-D list
                    out[n.output[0]] = np.array(a.f if a.name == "value_float" else list(a.floats), np.float32)
    return out


def readable(model: Any) -> Any:
    """``model`` with its local functions inlined (IR.md "Functions": a call of a model-local function computes its
    body), so a rounding a function holds is read as the main graph's; ``model`` itself when it has no function.

    Raises what ``onnx.inliner.inline_local_functions`` raises on a function it cannot expand (an undefined
    function, a recursive call): onnx's checker refuses such a model (IR.md)."""
    if not model.functions:
        return model
    import onnx.inliner

    return onnx.inliner.inline_local_functions(model)


@per_model
def quantized(model: Any) -> bool:
    """Whether a main-graph node of ``model`` quantizes or dequantizes (the module's roundings, the QLinear family,
    :data:`UNBOUNDED`), or a subgraph holds one. Read once per model inside a
    :func:`~passcheck.runtime.graph_index.shared` block (every numeric judgement of a run asks it)."""
    return any(_quantizes(n) for n in model.graph.node)


def _quantizes(node: Any) -> bool:
    if node.op_type in ("QuantizeLinear", "DequantizeLinear") or node.op_type.startswith("QLinear"):
        return True
    if node.op_type in UNBOUNDED or node.op_type == "QGemm" or node.op_type in block_steps.OPS:
        return True
    return any(_quantizes(n) for a in node.attribute for g in [a.g, *a.graphs] for n in g.node)


def _largest(v: np.ndarray | None) -> float | None:
    if v is None or v.size == 0 or v.dtype.kind not in "fiu":
        return None
    m = float(np.max(np.abs(v.astype(np.float64))))
    return m if math.isfinite(m) else None


def allowance(
    model: Any, share: float = 0.5, weights: bool = True, fed: dict[str, float] | None = None
) -> dict[str, float | None]:
    """Graph output name → the bound on how far the model's roundings moved it (module docs); None where it is
    unknown; empty when ``model`` does not quantize (:func:`quantized`).

    ``share``: the part of a step one rounding moves a value: ½ against the float computation (round to nearest),
    1 between two engines that round the same value on either side (an optimizer moving a Q→DQ pair).
    ``weights``: a DequantizeLinear of a constant counts as a rounding (the pass rounded those weights; False when
    the weights are the computation's own, as in a given QDQ model). ``fed``: graph input name → the largest
    magnitude fed to it (the run's feeds), where a rounded weight multiplies a fed value directly (a weight-only
    quantizer: :mod:`~passcheck.oracles.block_steps`); without it a graph input's magnitude is unknown. Local
    functions are read inlined (:func:`readable`), an If output at the larger of its two branches' bounds."""
    model = readable(model)
    if not quantized(model):
        return {}
    err, _ = _carried(model, share, weights, fed)
    return {o.name: (err.get(o.name) if o.name else 0.0) for o in model.graph.output}


def integer_steps(model: Any, share: float = 0.5, weights: bool = True) -> dict[str, int | None]:
    """Graph output name → how many integer steps the roundings before it may move an output a QuantizeLinear
    writes (M238): its float input moved by at most ``a`` (:func:`allowance`'s bound, same ``share`` and
    ``weights``) moves ``round(x / y_scale)`` by at most ``floor(a / s) + 1`` (Operators.md QuantizeLinear: round
    half to even, so a tie may go either way; ``s`` the smallest element of a per-axis scale), 0 where ``a`` is 0;
    None where ``a`` or the scale is unknown. Outputs no QuantizeLinear writes are absent; empty when ``model``
    does not quantize. Local functions are read inlined (:func:`readable`)."""
    return {name: _steps(a, s) for name, (a, s) in _at_writers(model, share, weights).items()}


def _steps(a: float | None, smallest: float) -> int | None:
    if a is None or not (smallest > 0 and math.isfinite(smallest)):
        return None
    return 0 if a == 0 else math.floor(a / smallest) + 1


def _at_writers(model: Any, share: float, weights: bool) -> dict[str, tuple[float | None, float]]:
    """Graph output a QuantizeLinear writes → (the bound at that node's input, the smallest element of its scale);
    empty when ``model`` does not quantize. Local functions are read inlined (:func:`readable`)."""
    model = readable(model)
    if not quantized(model):
        return {}
    err, values = _carried(model, share, weights)
    writer = {
        o: n for n in model.graph.node if n.op_type == "QuantizeLinear" and _domain(n.domain) == "" for o in n.output
    }
    out: dict[str, tuple[float | None, float]] = {}
    for o in model.graph.output:
        n = writer.get(o.name)
        if n is None:
            continue
        scale = values.get(n.input[1]) if len(n.input) > 1 else None
        smallest = float(np.min(np.abs(scale.astype(np.float64)))) if scale is not None and scale.size else 0.0
        out[o.name] = (err.get(n.input[0]), smallest)
    return out


def _carried(
    model: Any, share: float, weights: bool, fed: dict[str, float] | None = None
) -> tuple[dict[str, float | None], dict[str, np.ndarray]]:
    """(value name → the bound ``a`` on how far rounding moved it, the main graph's constants) (module docs)."""
    values = constants(model)
    err: dict[str, float | None] = {}
    mag: dict[str, float | None] = {name: _largest(v) for name, v in values.items()}
    shapes: dict[str, tuple[int, ...]] = {name: tuple(v.shape) for name, v in values.items()}
    for name in values:
        err[name] = 0.0
    for vi in model.graph.input:  # fed values are exact; their magnitude is the feeds'
        err.setdefault(vi.name, 0.0)
        mag.setdefault(vi.name, (fed or {}).get(vi.name))
    for vi in [*model.graph.input, *model.graph.value_info]:  # declared static shapes (a fed weight's K)
        dims = vi.type.tensor_type.shape.dim if vi.type.HasField("tensor_type") else []
        if dims and all(d.HasField("dim_value") for d in dims):
            shapes.setdefault(vi.name, tuple(d.dim_value for d in dims))
    _walk(model.graph.node, values, err, mag, shapes, share, weights)
    return err, values


def _walk(nodes, values, err, mag, shapes, share, weights) -> None:
    """Carry ``a`` and ``m`` through ``nodes`` in order (module docs), into ``err`` and ``mag``."""
    for n in nodes:
        if n.op_type == "If" and _domain(n.domain) == "":
            bounds = _either_branch(n, values, err, mag, shapes, share, weights)
        elif _domain(n.domain) not in ("", "com.microsoft") or any(a.g.node or a.graphs for a in n.attribute):
            bounds = [(None, None)] * len(n.output)
        else:
            bounds = [_through(n, values, err, mag, shapes, share, weights)] * len(n.output)
        for o, (a, m) in zip(n.output, bounds, strict=True):
            if o and o not in values:
                err[o], mag[o] = a, m


def _either_branch(n, values, err, mag, shapes, share, weights) -> list[tuple[float | None, float | None]]:
    """(a, m) of each output of an If: the larger of the two branches' (Operators.md If: the outputs are those of
    the branch ``cond`` selects, which may be either at run time); each branch read with the outer scope's values
    and its own constants; None where a branch's is unknown or a branch is missing."""
    branches = [a.g for a in n.attribute if a.name in ("then_branch", "else_branch")]
    if len(branches) != 2:
        return [(None, None)] * len(n.output)
    per_branch = []
    for g in branches:
        own = {**values, **_graph_constants(g)}
        e, m, sh = dict(err), dict(mag), dict(shapes)
        for name, v in own.items():
            if name not in values:
                e[name], m[name], sh[name] = 0.0, _largest(v), tuple(v.shape)
        _walk(g.node, own, e, m, sh, share, weights)
        per_branch.append([(e.get(o.name), m.get(o.name)) for o in g.output])
    if any(len(b) != len(n.output) for b in per_branch):
        return [(None, None)] * len(n.output)
    return [
        (_max({0: a1, 1: a2}, [0, 1]), _max({0: m1, 1: m2}, [0, 1]))
        for (a1, m1), (a2, m2) in zip(*per_branch, strict=True)
    ]


def _through(n, values, err, mag, shapes, share, weights) -> tuple[float | None, float | None]:
    """(a, m) of ``n``'s outputs (module docs); the DequantizeLinear output's shape is recorded in ``shapes``."""
    ins = list(n.input)
    op = n.op_type
    if op == "QuantizeLinear":
        step = _largest(values.get(ins[1])) if len(ins) > 1 else None
        a = err.get(ins[0])
        if ins[0] in shapes:
            shapes[n.output[0]] = shapes[ins[0]]
        return (None if a is None or step is None else a + share * step), mag.get(ins[0])
    if op == "DequantizeLinear":
        step = _largest(values.get(ins[1])) if len(ins) > 1 else None
        if step is None:
            return None, None
        held = ins[0] in values
        if held:
            q = values[ins[0]].astype(np.float64)
            zp = values[ins[2]].astype(np.float64) if len(ins) > 2 and ins[2] in values else 0.0
            scale = values[ins[1]].astype(np.float64)
            try:
                m = _largest(np.asarray((q - _aligned(zp, q, n)) * _aligned(scale, q, n)))
            except ValueError:
                m = _largest(q) * step if _largest(q) is not None else None
            shapes[n.output[0]] = tuple(q.shape)
            return (share * step if weights else 0.0), m
        qmin, qmax = RANGES.get(_qtype(n, values), (None, None))
        if qmin is None:
            return None, None
        zp = _largest(values.get(ins[2])) if len(ins) > 2 and ins[2] else 0.0
        m = max(abs(qmin - (zp or 0.0)), abs(qmax - (zp or 0.0))) * step
        if ins[0] in shapes:
            shapes[n.output[0]] = shapes[ins[0]]
        return err.get(ins[0]), m
    if op in block_steps.OPS and _domain(n.domain) == "com.microsoft":
        return block_steps.bound(n, values, err, mag, share, weights)
    floats = [x for x in ins if x]
    if op in SELECT or op in HOLD:
        first_only = ("Reshape", "Expand", "Tile", "Pad", "Slice", "Resize", "Upsample", "TopK", "SequenceAt")
        data = floats[:1] if op in first_only else floats
        if op in ("SequenceInsert", "SplitToSequence"):  # a position or split sizes after the held values
            data = floats[:2] if op == "SequenceInsert" else floats[:1]
        if op == "Where":
            data = floats[1:]
        if op in ("Gather", "GatherElements", "GatherND"):
            data = floats[:1]
        return _max(err, data), _max(mag, data)
    if op in SUMS:
        return _sum(err, floats), _sum(mag, floats)
    if op in PRODUCTS:
        return _product(n, ins, err, mag, shapes)
    return None, None


def _aligned(v: np.ndarray | float, q: np.ndarray, n: Any) -> np.ndarray | float:
    """A per-axis scale or zero point reshaped to broadcast along the node's ``axis`` of ``q`` (Operators.md
    DequantizeLinear ``axis``, default 1); a scalar as it is."""
    if not isinstance(v, np.ndarray) or v.ndim == 0 or v.size == 1:
        return v if not isinstance(v, np.ndarray) else v.reshape(())
    axis = next((a.i for a in n.attribute if a.name == "axis"), 1) % q.ndim
    if v.ndim == q.ndim:  # blocked (opset 21): repeat each block's value along the axis
        return np.repeat(v, -(-q.shape[axis] // v.shape[axis]), axis=axis)[tuple(slice(0, s) for s in q.shape)]
    shape = [1] * q.ndim
    shape[axis] = v.size
    return v.reshape(shape)


def _qtype(n: Any, values: dict[str, np.ndarray]) -> str:
    if len(n.input) > 2 and n.input[2] in values:
        return values[n.input[2]].dtype.name
    return "uint8" if len(n.input) <= 2 or not n.input[2] else ""


def _max(d: dict, names: list[str]) -> float | None:
    got = [d.get(x) for x in names]
    return None if not got or any(g is None for g in got) else max(got)


def _sum(d: dict, names: list[str]) -> float | None:
    got = [d.get(x) for x in names]
    return None if not got or any(g is None for g in got) else float(sum(got))


def _attr(n: Any, name: str, default: float) -> float:
    for a in n.attribute:
        if a.name == name:
            return a.f if a.type == 1 else a.i
    return default


def _product(n, ins, err, mag, shapes) -> tuple[float | None, float | None]:
    """A sum of ``K`` products, plus a bias (module docs)."""
    op = n.op_type
    if len(ins) < 2 or not ins[0] or not ins[1]:
        return None, None
    a1, a2, m1, m2 = err.get(ins[0]), err.get(ins[1]), mag.get(ins[0]), mag.get(ins[1])
    if a1 is None or a2 is None or (a2 and m1 is None) or (a1 and m2 is None):
        return None, None  # a magnitude matters only where the other operand carries an error
    w, x = shapes.get(ins[1]), shapes.get(ins[0])
    k: float | None
    if op == "Mul":
        k = 1.0
    elif op == "MatMul":  # K is B's second-to-last dim, or A's last (Operators.md MatMul: numpy.matmul)
        k = float(w[-2] if len(w) >= 2 else w[0]) if w else (float(x[-1]) if x else None)
    elif op == "Gemm":  # K: B's rows (columns with transB), or A's columns (rows with transA)
        if w and len(w) == 2:
            k = float(w[1] if _attr(n, "transB", 0) else w[0])
        else:
            k = float(x[0] if _attr(n, "transA", 0) else x[1]) if x and len(x) == 2 else None
        k = None if k is None else k * abs(_attr(n, "alpha", 1.0))
    elif op == "Conv":
        k = float(np.prod(w[1:])) if w and len(w) >= 3 else None
    else:  # ConvTranspose: each output sums over the input channels of its group and the kernel positions
        k = float(w[0] * np.prod(w[2:])) if w and len(w) >= 3 else None
    if k is None and (a1 or a2):
        return None, None
    # K exact products summed are exact whatever K is: an unknown K (a computed operand) matters only with an error
    a = (k or 0.0) * ((a1 * m2 if a1 else 0.0) + (m1 * a2 if a2 else 0.0) + a1 * a2)
    m = None if k is None or m1 is None or m2 is None else k * m1 * m2
    if op in ("Gemm", "Conv", "ConvTranspose") and len(ins) > 2 and ins[2]:
        beta = abs(_attr(n, "beta", 1.0)) if op == "Gemm" else 1.0
        ab, mb = err.get(ins[2]), mag.get(ins[2])
        if ab is None:
            return None, None
        a, m = a + beta * ab, (None if m is None or mb is None else m + beta * mb)
    return a, m


def combined(
    model: Any, output: Any, pass_rounds: bool, fed: dict[str, float] | None = None
) -> dict[str, float | None]:
    """Per graph output, the rounding bound a pass's numeric judgement allows: with ``pass_rounds`` (a quantizer,
    judged against the given model's run) :func:`allowance` of its ``output`` at half a step per rounding, weights
    included, plus the given model's own (half a step per rounding, its weights its own: M324), since both
    bounds are against the exact computation and the expected value is the given model's (a QDQ model the
    quantizer quantizes again rounds at its own QuantizeLinear nodes too, so the two runs may round one value to
    either side of a step: Operators.md QuantizeLinear); None where either is unknown. Otherwise (an optimizer,
    judged against the unoptimized run of a model that already rounds) of the given ``model`` at one step per
    rounding, weights not (the rounding the optimizer may move or merge). ``fed``: as in :func:`allowance`."""
    if pass_rounds:
        if output is None:
            return {}
        own = allowance(model, 0.5, False, fed)
        return {k: _plus(a, own.get(k) if own else 0.0) for k, a in allowance(output, 0.5, True, fed).items()}
    return allowance(model, 1.0, False)


def _plus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a + b


def combined_integer(model: Any, output: Any, pass_rounds: bool) -> dict[str, int | None]:
    """:func:`integer_steps` of the model :func:`combined` reads, at the same share: per graph output a
    QuantizeLinear writes, the integer steps a numeric judgement allows; with ``pass_rounds`` the bound at that
    node's input adds the given model's own, as in :func:`combined` (M324: ``floor((a_out + a_given) / s) + 1``)."""
    if pass_rounds:
        if output is None:
            return {}
        own = _at_writers(model, 0.5, False)
        floats = allowance(model, 0.5, False)  # the given model's output not written by a QuantizeLinear
        return {
            k: _steps(_plus(a, own[k][0] if k in own else floats.get(k) if floats else 0.0), s)
            for k, (a, s) in _at_writers(output, 0.5, True).items()
        }
    return integer_steps(model, 1.0, False)
