"""Numeric agreement of a pass output with the unoptimized input model, per graph output.

Integers, bools and strings must be equal; floats within dtype-aware tolerances
(|a - e| <= atol + rtol * |e|); NaN and ±inf must sit at the same positions. Each mismatch
reports the max abs/rel error, the tolerance that would have passed and the worst elements.

Positions where the unoptimized run is not finite because the input model itself overflows on finite feeds
(IEEE 754 §7.4; :mod:`passcheck.oracles.overflow`) are no evidence: a pass that fuses or reassociates may stay
finite there. They are left out of the comparison and the output is unchecked at them (:func:`unchecked`);
the rest of the output, a finite reference value made non-finite among it, is compared as above.

A float32 output that fails the tolerances is judged again against the input model evaluated in float64
(:mod:`passcheck.oracles.rounding`): a difference within the model's own float32 rounding (a reordered sum of
huge cancelling terms, whose error scales with the terms, not the result) is checked and not reported (the cell's
``coverage["within_rounding"]`` says so); one beyond it is reported with the float64 figures; where float64 cannot
be evaluated, the tolerance's verdict stands and the finding says why.

An index or a bool the input model's own rounding decided is no evidence either way: an ArgMax / ArgMin / TopK index
among values of a computed tensor that are equal, or within the rounding this oracle allows each side, in the
unoptimized run (:mod:`passcheck.oracles.index_ties`; TopK with ``sorted=0`` leaves the order open), a comparison of
such near-equal operands and a Where it drives (:mod:`passcheck.oracles.compare_ties`), the output of a step
function of Operators.md (Sign, Floor, Ceil, Round, Cast to an integer or bool, float Mod, Hardmax, NonZero, Unique)
at a computed input within rounding of its step, and every value computed from one, per element through elementwise
ops and Gather, whole tensors otherwise (:mod:`passcheck.oracles.step_ties`). Those outputs are unchecked at those
positions, with the reason; a difference where the values are clearly apart is reported.

A pass that declares it stores values in a narrower type (``Capabilities.precision``: float16 conversion,
8-bit quantization) is judged at that type's precision (:func:`pass_tolerance`), not float32's.

When the case states the expected outputs (:attr:`FormRun.expected`: onnx's backend node tests),
a mismatch also says which side matches them (``details["matches_expected"]``: ``unoptimized run``,
``pass output``, ``both`` or ``neither``); a pass output that matches them while the unoptimized
run departs is no finding of the pass (the input cell's runtime oracle reports the kernel).

A pass that moves the model to another ai.onnx opset (the version converter) may write nodes of a
version the installed onnxruntime registers no kernel for (``Abs-1`` below opset 6, ``AveragePool-1``
below opset 7: its CPU kernels start there): the output cannot be run here, which says nothing of the pass
(the spec does not require a runtime to ship every version's kernel). Those outputs are unchecked,
with the kernel named (:func:`kernel_gap`), not a finding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from passcheck.oracles import random_ops, rounding
from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.oracles.compare_ties import flipped_positions
from passcheck.oracles.index_ties import tied_positions
from passcheck.oracles.overflow import nonfinite, overflowed_outputs
from passcheck.oracles.quant_steps import combined as rounding_steps
from passcheck.oracles.quant_steps import combined_integer as integer_steps
from passcheck.oracles.step_ties import stepped_positions
from passcheck.records import Finding, brief
from passcheck.runtime.graph_index import per_model
from passcheck.runtime.limits import all_missing_kernel

NAME = "numeric"

#: (rtol, atol) by dtype name.
TOLERANCES = {
    "float64": (1e-6, 1e-8),
    "float32": (1e-4, 1e-5),
    "float16": (1e-2, 1e-3),
    "bfloat16": (2e-2, 1e-2),
}
DEFAULT_FLOAT = (1e-2, 1e-3)

#: The relative rounding error of one value stored in a pass's declared precision
#: (:attr:`passcheck.passes.Capabilities.precision`): float16 keeps an 11-bit significand (IEEE 754 binary16: unit
#: roundoff 2^-11), bfloat16 an 8-bit one (2^-8); an 8-bit quantized tensor holds 256 levels over its range
#: (Operators.md QuantizeLinear: ``y = saturate(round(x / y_scale) + y_zero_point)``), so rounding moves a value
#: by at most half a step, 1/510 of the range; a 4-bit weight (ContribOperators.md MatMulNBits) 16 levels over its
#: block's range, half a step 1/30 of it.
PRECISION_UNIT = {"float16": 2.0**-11, "bfloat16": 2.0**-8, "uint8": 1 / 510, "int8": 1 / 510, "int4": 1 / 30}
#: How many such roundings a graph output may accumulate: one per node on a path of up to 16 nodes (the library's
#: cases and the hunt's bases are shorter), each bounded by the unit above.
DEPTH = 16


#: The declared precisions that store values as integer steps of a scale (Operators.md QuantizeLinear).
STEPPED = frozenset({"int8", "uint8", "int4"})
#: The declared precisions whose rounding bound reads the feeds' magnitudes: a weight-only quantizer leaves the
#: activations in float, so a rounded weight multiplies a fed value directly and the error it makes scales with
#: that value (:func:`passcheck.oracles.quant_steps.allowance` ``fed``). The 8-bit quantizers round the
#: activations first; their bound stays as it was.
FED = frozenset({"int4"})
#: ``steps`` of :func:`pass_tolerance` when neither model rounds to an integer type.
NO_STEPS = object()


def pass_tolerance(
    precision: str | None, expected: Any, rtol: float | None, atol: float | None, steps: Any = NO_STEPS
) -> tuple:
    """``(rtol, atol)`` for comparing a float output of a pass with its float ``expected`` value.

    ``steps``: the output's rounding bound (:func:`passcheck.oracles.quant_steps.combined`: a worst case carried
    from each rounding's quantization step, Operators.md QuantizeLinear rounding to the nearest step). A number:
    ``atol`` raised to it (``rtol`` stays the dtype's). For an optimizer, the steps are the given model's (facts
    of the computation: one step per rounding it may move or merge). For a pass that declares ``precision``,
    they are the steps it wrote itself (claims): never more than the range rule below, so a step too large for
    the data it rounds (a scale of 1.0 for weights of ±0.004) allows nothing beyond it, and the floor is the
    dtype's ``rtol`` of the output's largest magnitude instead of its absolute ``atol`` (scale-invariant, as a
    quantization step is).

    ``steps`` None (a rounding whose step is set at run time, DynamicQuantizeLinear) or :data:`NO_STEPS`: for a
    pass that stores values in ``precision``, each raised to ``DEPTH × PRECISION_UNIT[precision]``, the absolute
    one relative to the largest finite magnitude of ``expected`` (a rounding is relative to the range of the
    tensor it happens in, which an output near zero does not show; for 8-bit steps, :data:`STEPPED`, the dtype's
    absolute ``atol`` is replaced by its ``rtol`` of that magnitude likewise); otherwise ``(rtol, atol)``
    unchanged."""
    unit = PRECISION_UNIT.get(precision or "")
    if isinstance(steps, float) and isinstance(expected, np.ndarray) and expected.dtype.kind == "f":
        r0, a0 = tolerance(expected.dtype, rtol, atol)
        if unit is not None:  # the pass wrote these steps: never more than DEPTH roundings over the output's range,
            # never less than the output type's relative rounding of that range (a floor that scales with the data,
            # where the dtype's absolute atol would pass any output smaller than it: feeds near float16's normals)
            peak = _peak(expected)
            return r0, max(min(steps, DEPTH * unit * peak), r0 * peak)
        return r0, max(a0, steps)
    if unit is None or not isinstance(expected, np.ndarray) or expected.dtype.kind != "f":
        return rtol, atol
    r0, a0 = tolerance(expected.dtype, rtol, atol)
    if precision in STEPPED:  # a quantization step is relative to its tensor's range: so is the floor
        a0 = r0 * _peak(expected)
    return max(r0, DEPTH * unit), max(a0, DEPTH * unit * _peak(expected))


def _fed_magnitudes(feeds: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Graph input name → the largest finite magnitude fed to it over ``feeds`` (float and integer arrays only);
    an input with a non-finite value is left out (its magnitude bounds nothing)."""
    out: dict[str, float] = {}
    for f in feeds:
        for k, v in f.items():
            a = np.asarray(v)
            if a.dtype.kind not in "fiu" or a.size == 0:
                continue
            m = float(np.max(np.abs(a.astype(np.float64))))
            if not np.isfinite(m):
                out[k] = float("nan")
            elif not np.isnan(out.get(k, 0.0)):
                out[k] = max(out.get(k, 0.0), m)
    return {k: m for k, m in out.items() if not np.isnan(m)}


def _peak(expected: np.ndarray) -> float:
    """The largest finite magnitude in ``expected`` (0.0 when none)."""
    finite = np.abs(expected[np.isfinite(expected)]).astype(np.float64)
    return float(finite.max()) if finite.size else 0.0


@dataclasses.dataclass
class Comparison:
    ok: bool
    message: str = ""
    max_abs: float = 0.0
    max_rel: float = 0.0
    worst: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def tolerance(dtype: np.dtype, rtol: float | None = None, atol: float | None = None) -> tuple[float, float]:
    r, a = TOLERANCES.get(np.dtype(dtype).name, DEFAULT_FLOAT)
    return (r if rtol is None else rtol, a if atol is None else atol)


def compare(
    actual: Any,
    expected: Any,
    rtol: float | None = None,
    atol: float | None = None,
    dtype: np.dtype | str | None = None,
) -> Comparison:
    """Compare one runtime value with its expected value, element by element.

    Values as onnxruntime returns them: arrays (tensors), lists (``sequence``, each element
    compared), dicts (``map``: the same keys, each value compared), None (an empty ``optional``).
    ``dtype``: the element type of the graph output (its innermost tensor elem_type or map value
    type, see :func:`leaf_dtype`); leaves that arrive as Python scalars (a map's values) are compared
    as that dtype, with its tolerance. Default: each leaf's own dtype.
    """
    if isinstance(expected, list) or isinstance(actual, list):
        if not (isinstance(expected, list) and isinstance(actual, list)) or len(actual) != len(expected):
            return Comparison(False, f"sequence length/kind differs: {_desc(actual)} vs {_desc(expected)}")
        return _each(((f"element {i}", a, e) for i, (a, e) in enumerate(zip(actual, expected))), rtol, atol, dtype)
    if isinstance(expected, dict) or isinstance(actual, dict):
        if not (isinstance(expected, dict) and isinstance(actual, dict)):
            return Comparison(False, f"map vs {_desc(actual if isinstance(expected, dict) else expected)}")
        if set(actual) != set(expected):
            keys = [sorted(map(repr, d))[:5] for d in (actual, expected)]
            return Comparison(False, f"map keys differ: {keys[0]} vs expected {keys[1]}")
        return _each(((f"key {k!r}", actual[k], expected[k]) for k in expected), rtol, atol, dtype)
    if expected is None or actual is None:
        return Comparison(actual is expected, "" if actual is expected else f"{_desc(actual)} vs {_desc(expected)}")
    a, e = _leaf(actual, dtype), _leaf(expected, dtype)
    if a.shape != e.shape:
        return Comparison(False, f"shape {list(a.shape)} vs expected {list(e.shape)}")
    if a.dtype != e.dtype:
        return Comparison(False, f"dtype {a.dtype} vs expected {e.dtype}")
    if a.dtype.kind not in "fc" and a.dtype.name != "bfloat16":
        diff = a != e
        if not diff.any():
            return Comparison(True)
        idx = np.argwhere(diff)[:5]
        return Comparison(
            False,
            f"{int(diff.sum())} of {a.size} elements differ (exact dtype {a.dtype})",
            worst=[{"index": i.tolist(), "actual": _py(a[tuple(i)]), "expected": _py(e[tuple(i)])} for i in idx],
        )
    af, ef = a.astype(np.float64), e.astype(np.float64)
    nan_a, nan_e = np.isnan(af), np.isnan(ef)
    inf_a, inf_e = np.isinf(af), np.isinf(ef)
    if (nan_a != nan_e).any():
        return Comparison(False, f"NaN positions differ ({int(nan_a.sum())} vs {int(nan_e.sum())} NaNs)")
    if (inf_a != inf_e).any() or (af[inf_a] != ef[inf_e]).any():
        return Comparison(False, "±inf positions differ")
    finite = ~(nan_e | inf_e)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf at positions already judged above
        err = np.where(finite, np.abs(af - ef), 0.0)
        rel = np.where(finite, err / np.maximum(np.abs(ef), np.finfo(np.float64).tiny), 0.0)
    r, t = tolerance(a.dtype, rtol, atol)
    bad = err > t + r * np.abs(np.where(finite, ef, 0.0))
    max_abs = float(err.max()) if err.size else 0.0
    max_rel = float(rel.max()) if rel.size else 0.0
    if not bad.any():
        return Comparison(True, max_abs=max_abs, max_rel=max_rel)
    order = np.argsort(err, axis=None)[::-1][:5]
    worst = [
        {
            "index": list(map(int, np.unravel_index(i, a.shape))),
            "actual": float(af.flat[i]),
            "expected": float(ef.flat[i]),
        }
        for i in order
    ]
    return Comparison(
        False,
        f"{int(bad.sum())} of {a.size} elements outside rtol={r:g}, atol={t:g}; max abs err {max_abs:.3g}, "
        f"{_relative(bad, ef, err, rel)} (atol={max_abs:.3g} would pass)",
        max_abs=max_abs,
        max_rel=max_rel,
        worst=worst,
    )


def _relative(bad: np.ndarray, expected: np.ndarray, err: np.ndarray, rel: np.ndarray) -> str:
    """The message's relative error: over the failing elements whose expected value is nonzero; where it is 0 the
    relative error is undefined (only ``atol`` bounds ``|a - e| <= atol + rtol * |e|`` there), so their absolute
    error is given instead: ``max rel err 0.25``, ``max rel err 0.25; 3 of them expected 0 (relative error
    undefined): abs err up to 1``, ``each expected 0 (…): abs err up to 1``."""
    zero = bad & (expected == 0)
    nonzero = bad & ~zero
    parts = [f"max rel err {float(rel[nonzero].max()):.3g}"] if nonzero.any() else []
    if zero.any():
        which = f"{int(zero.sum())} of them" if nonzero.any() else "each"
        parts.append(f"{which} expected 0 (relative error undefined): abs err up to {float(err[zero].max()):.3g}")
    return "; ".join(parts)


def _each(pairs, rtol, atol, dtype) -> Comparison:
    """The first failing comparison of (where, actual, expected) ``pairs``, its message prefixed by where."""
    worst = Comparison(True)
    for where, a, e in pairs:
        c = compare(a, e, rtol, atol, dtype)
        if not c.ok:
            c.message = f"{where}: {c.message}"
            return c
        worst.max_abs, worst.max_rel = max(worst.max_abs, c.max_abs), max(worst.max_rel, c.max_rel)
    return worst


def _leaf(value: Any, dtype: np.dtype | str | None) -> np.ndarray:
    """``value`` as an array; a Python scalar (a map's value, a sequence's scalar) as ``dtype`` when given;
    a numpy fixed-width string array (``<U``, ``S``: the reference evaluator's) as an object array of
    ``str``, as onnxruntime returns an ONNX string tensor (onnx.proto: STRING elements are strings)."""
    if dtype is not None and not isinstance(value, np.ndarray | np.generic) and isinstance(value, bool | int | float):
        return np.asarray(value, dtype=dtype)
    arr = np.asarray(value)
    if arr.dtype.kind in "US":
        text = [x.decode("utf-8") if isinstance(x, bytes) else str(x) for x in arr.ravel().tolist()]
        return np.array(text, dtype=object).reshape(arr.shape)
    return arr


def leaf_dtype(type_proto: Any) -> np.dtype | None:
    """The numpy dtype of the innermost element of an ONNX ``TypeProto`` (a tensor's elem_type,
    through sequence, optional and map value types; onnx.proto ``TypeProto``), or None when it has
    none or numpy has no such dtype (bfloat16, float8: compared as they arrive)."""
    import onnx

    t = type_proto
    while t is not None:
        kind = t.WhichOneof("value")
        if kind in ("tensor_type", "sparse_tensor_type"):
            try:
                return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(getattr(t, kind).elem_type))
            except (KeyError, TypeError, ValueError):
                return None
        inner = {"sequence_type": "elem_type", "optional_type": "elem_type", "map_type": "value_type"}.get(kind)
        t = getattr(getattr(t, kind), inner) if inner else None
    return None


def output_dtypes(model: Any) -> dict[str, np.dtype | None]:
    """Graph output name → :func:`leaf_dtype` of its declared type, for :func:`compare`."""
    return {o.name: leaf_dtype(o.type) for o in model.graph.output}


def shown_wrong(run: FormRun, other: FormRun | None = None) -> bool:
    """Whether the pass output is shown not to compute what its input computes: an output's
    numbers differ or it is missing in some compared binding, or the output fails to run while
    ``other``'s output (the same pass on another form) runs. Parity asks this before blaming the
    other form for not doing what this form's pass did. Computed once per FormRun."""
    found = checked(run)
    if any("output" in f.details for f in found):
        return True
    crashed = any("error" in f.details for f in found)
    return crashed and other is not None and other.output is not None and not any(r.error for r in other.runs)


def checked(run: FormRun) -> list[Finding]:
    """:func:`check` of ``run``, computed once per FormRun (the oracle, :func:`shown_wrong` and :func:`unchecked`
    share it)."""
    found = run.__dict__.get("_numeric_findings")
    if found is None:
        found = run.__dict__["_numeric_findings"] = check(run)
    return found


#: Ops whose values are draws, derived from the schemas' ``NonDeterministic`` marks
#: (:data:`passcheck.oracles.random_ops.RANDOM`: RandomNormal, RandomUniform, their ``*Like``, Multinomial,
#: Bernoulli in onnx 1.23); a Dropout in training mode draws too (:func:`passcheck.oracles.random_ops.draws`).
#: onnxruntime advances a seeded generator at every ``Run`` of a session, so two runs of one model differ. Outputs
#: computed from one are compared by dtype and shape only (counted in the cell's coverage).
RANDOM = random_ops.RANDOM


def random_functions(model: Any) -> frozenset[tuple[str, str]]:
    """``(domain, name)`` of ``model``'s model-local functions whose bodies draw: hold a :data:`RANDOM` op,
    a call of such a function or an If/Loop/Scan body that does, at any depth (IR.md §Functions: a call
    computes its body)."""
    if model is None:
        return frozenset()
    functions, known = {(f.domain, f.name): f for f in model.functions}, {}
    return frozenset(key for key, f in functions.items() if _draws(f.node, functions, known, (key,)))


@per_model
def drawn(model: Any) -> frozenset[str]:
    """Names of ``model``'s graph outputs computed (through any main-graph nodes) from a :data:`RANDOM`
    op, or from a model-local function, an If/Loop/Scan body, that holds one. Read once per model inside a
    :func:`~passcheck.runtime.graph_index.shared` block (the numeric and frozen-draws oracles ask it of the same
    input and output for each run and binding: 266 walks of a 446-node net in one ``check --mutations`` part)."""
    if model is None:
        return frozenset()
    functions, known = {(f.domain, f.name): f for f in model.functions}, {}
    tainted: set[str] = set()
    consts, opset = random_ops.constants_of(model.graph), _default_opset(model)
    for n in model.graph.node:  # nodes are in topological order (IR.md §Graphs)
        if _draws([n], functions, known, consts=consts, opset=opset) or any(i in tainted for i in n.input if i):
            tainted.update(o for o in n.output if o)
    return frozenset(o.name for o in model.graph.output if o.name in tainted)


def _default_opset(model: Any) -> int | None:
    """The model's default-domain opset (None when it imports none)."""
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def _draws(nodes, functions: dict, known: dict, seen: tuple = (), consts: dict | None = None, opset=None) -> bool:
    """Whether one of ``nodes`` draws (see :func:`random_functions`); ``known`` memoizes functions; ``consts`` and
    ``opset`` are the main graph's (:func:`random_ops.draws`), unknown inside functions and bodies."""
    for n in nodes:
        if random_ops.draws(n, consts, opset):  # in a body or function a Dropout's mode counts as possibly true
            return True
        key = (n.domain, n.op_type)
        if key in functions and key not in seen:
            if key not in known:
                known[key] = _draws(functions[key].node, functions, known, (*seen, key))
            if known[key]:
                return True
        bodies = [g for a in n.attribute for g in ([a.g] if a.HasField("g") else []) + list(a.graphs)]
        if any(_draws(g.node, functions, known, seen) for g in bodies):
            return True
    return False


def _same_kind(got: Any, expected: Any) -> str | None:
    """Why two draws differ in dtype or shape, or None."""
    a, e = np.asarray(got), np.asarray(expected)
    if a.dtype != e.dtype or a.shape != e.shape:
        return f"a random draw changed dtype or shape: {a.dtype}{list(a.shape)} vs {e.dtype}{list(e.shape)}"
    return None


def check(run: FormRun) -> list[Finding]:
    """Each run of the pass output vs the unoptimized run of the input model on the same feeds
    (outputs :func:`drawn` from a random op: dtype and shape only)."""
    if run.output is None:
        return []
    found, dtypes = [], output_dtypes(run.output)
    random = drawn(run.model) | drawn(run.output)
    # the bound the models' quantization steps put on rounding, per graph output (empty: neither rounds)
    fed = _fed_magnitudes(run.feeds) if run.precision in FED else None
    allowed = rounding_steps(run.model, run.output, pass_rounds=run.precision in STEPPED, fed=fed)
    stepped = integer_steps(run.model, run.output, pass_rounds=run.precision in STEPPED)  # QuantizeLinear outputs
    for i, (got, base) in enumerate(zip(run.runs, run.baseline)):
        if base.error:
            continue  # the input itself does not run; nothing to compare with
        if got.error and kernel_gap(run) is not None:
            break  # unchecked (see unchecked()): the runtime here has no kernel for the new opset's node
        if got.error:
            found.append(
                run.finding(
                    "wrong-result",
                    NAME,
                    f"the output of {run.pass_id} fails to run (binding {i}): {brief(got.error)}",
                    binding=i,
                    error=got.error,
                )
            )
            break
        for name, expected in base.outputs.items():
            if name not in got.outputs:
                found.append(
                    run.finding(
                        "wrong-result",
                        NAME,
                        f"graph output {name!r} is missing after {run.pass_id}",
                        binding=i,
                        output=name,
                    )
                )
                continue
            if name in random:
                if why := _same_kind(got.outputs[name], expected):
                    found.append(
                        run.finding(
                            "wrong-result", NAME, f"output {name!r} (binding {i}): {why}", binding=i, output=name
                        )
                    )
                continue
            steps = allowed.get(name, NO_STEPS)
            rtol, atol = pass_tolerance(run.precision, expected, run.rtol, run.atol, steps)
            c = compare(got.outputs[name], expected, rtol, atol, dtypes.get(name))
            if not c.ok and _within_steps(got.outputs[name], expected, stepped.get(name)):
                continue  # integer steps the roundings before its QuantizeLinear allow (M238)
            if not c.ok and nonfinite(expected) and (why := _overflow(run, i, name)):
                c = _beside_overflow(run, i, name, got.outputs[name], expected, rtol, atol, dtypes.get(name), why)
            judged = _rounding(run, i, name, got.outputs[name], expected, rtol, atol) if not c.ok else None
            if judged is not None and judged.within:
                continue  # checked in float64: the model's own rounding (coverage says so)
            if not c.ok and (tie := _tied(run, i, name, got.outputs[name], expected)):
                run.__dict__.setdefault("_overflow_unchecked", {}).setdefault(
                    f"output {name!r}", f"not compared at {tie}"
                )
                continue  # an index or comparison the input's own rounding decided, float64 silent (M258, M278, M279)
            if not c.ok:
                side, note = _against_expected(run, i, name, got.outputs[name], expected)
                if side == "pass output":
                    continue  # the kernel departs, not the pass (the runtime oracle's input-cell finding)
                if judged is not None:  # before the expected-side note, which ends the message
                    note = f"; {rounding.said(judged)}{note}"
                found.append(
                    mismatch(
                        run,
                        NAME,
                        f"output {name!r} (binding {i}): {c.message}{note}",
                        i,
                        name,
                        c,
                        **({"matches_expected": side} if side else {}),
                        **({"float64": judged.detail} if judged is not None else {}),
                    )
                )
        if found:
            break  # one binding's findings are enough to show the fault
    return found


def _within_steps(got: Any, expected: Any, steps: int | None) -> bool:
    """Whether two integer arrays of one dtype and shape differ by at most ``steps`` (a positive count) anywhere."""
    if not steps or not (isinstance(got, np.ndarray) and isinstance(expected, np.ndarray)):
        return False
    if got.dtype != expected.dtype or got.shape != expected.shape or got.dtype.kind not in "iu":
        return False
    return bool(np.all(np.abs(got.astype(np.int64) - expected.astype(np.int64)) <= steps))


def _tied(run: FormRun, i: int, name: str, got: Any, expected: Any) -> str | None:
    """Why output ``name`` in binding ``i`` differs only where the input's own rounding decided it: an index
    (:func:`passcheck.oracles.index_ties.tied_positions`), a comparison
    (:func:`passcheck.oracles.compare_ties.flipped_positions`) or a step and what follows it
    (:func:`passcheck.oracles.step_ties.stepped_positions`), each value's band the tolerance this oracle gives
    its dtype under the pass's declared precision (:func:`pass_tolerance`). None without feeds."""
    if i >= len(run.feeds):
        return None

    def band(values: np.ndarray) -> tuple[float, float]:
        return tolerance(values.dtype, *pass_tolerance(run.precision, values, run.rtol, run.atol))

    feeds = run.feeds[i]
    return (
        tied_positions(run.model, feeds, name, got, expected, band)
        or flipped_positions(run.model, feeds, name, got, expected, band)
        or stepped_positions(run.model, feeds, name, got, expected, band)
    )


def _overflow(run: FormRun, i: int, name: str) -> str | None:
    """Why output ``name``'s non-finite values in the unoptimized run of binding ``i`` are the input model's own
    overflow (:func:`passcheck.oracles.overflow.overflowed_outputs`, computed once per binding), or None."""
    if i >= len(run.feeds):
        return None
    memo = run.__dict__.setdefault("_overflowed_by_binding", {})
    if i not in memo:
        memo[i] = overflowed_outputs(run.model, run.feeds[i])
    return memo[i].get(name)


def _rounding(run: FormRun, i: int, name: str, got: Any, expected: Any, rtol: Any, atol: Any) -> Any:
    """:func:`passcheck.oracles.rounding.judge` of a failed float32 comparison of output ``name`` in binding ``i``
    (the float64 runs computed once per binding); None where it does not apply (not a float32 tensor of the same
    shape, no feeds, a pass that declares a narrower precision). A forgiven output is recorded for
    :meth:`Numeric.coverage`."""
    a, e = np.asarray(got), np.asarray(expected)
    if e.dtype != np.float32 or a.dtype != e.dtype or a.shape != e.shape or i >= len(run.feeds) or run.precision:
        return None
    r, t = tolerance(e.dtype, rtol, atol)
    memo = run.__dict__.setdefault("_float64_by_binding", {})
    if i not in memo:
        memo[i] = rounding.float64_runs(run.model, run.feeds[i], seed=i)
    why = _overflow(run, i, name) if nonfinite(e) else None
    spared = ~np.isfinite(e) if why else None  # left out as _beside_overflow leaves them out
    judged = rounding.judge(memo[i], name, a, e, r, t, spared)
    if judged.within:
        run.__dict__.setdefault("_within_rounding", {})[f"output {name!r} (binding {i})"] = judged.detail
    if judged.within and spared is not None:  # the rest checked: the overflowed positions stay unchecked
        n = f"{int(spared.sum())} of {e.size} positions where the unoptimized run is not finite (binding {i})"
        run.__dict__.setdefault("_overflow_unchecked", {}).setdefault(
            f"output {name!r}", f"not compared at {n}: the input model's own overflow, {why}"
        )
    return judged


def _beside_overflow(
    run: FormRun, i: int, name: str, got: Any, expected: Any, rtol: Any, atol: Any, dtype: Any, why: str
) -> Comparison:
    """``got`` vs ``expected`` at the positions where ``expected`` is finite (a float tensor output, the same shape):
    positions the input's run overflowed (``why``) are no evidence either way (IEEE 754 §7.4). When they are all
    that differ, the output is recorded unchecked there (:func:`unchecked`) and the comparison passes."""
    a, e = np.asarray(got), np.asarray(expected)
    if a.shape != e.shape or a.dtype != e.dtype or e.dtype.kind != "f":
        return compare(got, expected, rtol, atol, dtype)
    spared = ~np.isfinite(e)
    c = compare(np.where(spared, 0, a).astype(a.dtype), np.where(spared, 0, e).astype(e.dtype), rtol, atol, dtype)
    n = f"{int(spared.sum())} of {e.size} positions where the unoptimized run is not finite (binding {i})"
    if c.ok:
        run.__dict__.setdefault("_overflow_unchecked", {})[f"output {name!r}"] = (
            f"not compared at {n}: the input model's own overflow, {why}"
        )
    else:
        c.message = f"{c.message} (beside {n}, the input's overflow: not compared)"
    return c


def mismatch(run: FormRun, oracle: str, message: str, i: int, name: str, c: Comparison, **extra: Any) -> Finding:
    """The ``wrong-result`` finding of output ``name`` in run ``i`` differing as ``c`` says."""
    return run.finding(
        "wrong-result",
        oracle,
        message,
        binding=i,
        output=name,
        max_abs=c.max_abs,
        max_rel=c.max_rel,
        worst=c.worst,
        **extra,
    )


def _against_expected(run: FormRun, i: int, name: str, got: Any, base: Any) -> tuple[str, str]:
    """(which side matches the stated output, a message suffix saying so) for a mismatch of output
    ``name`` in run ``i``; ("", "") when the case states none. In input cells (the agreement
    oracle) the "pass output" is the form's own run and the "unoptimized run" ``common``'s."""
    exp = run.expected
    if exp is None:
        return "", ""
    if i >= len(exp.outputs) or name not in exp.outputs[i]:
        return "", ""
    want = exp.outputs[i][name]
    got_ok, base_ok = compare(got, want, exp.rtol, exp.atol).ok, compare(base, want, exp.rtol, exp.atol).ok
    side = {(True, True): "both", (False, True): "unoptimized run", (True, False): "pass output"}.get(
        (got_ok, base_ok), "neither"
    )
    ours, theirs = ("the pass output", "the unoptimized run") if run.pass_id != "input" else ("this form", "the other")
    say = {
        "both": "both match",
        "unoptimized run": f"{theirs} matches it, {ours} does not",
        "pass output": f"{ours} matches it, {theirs} does not",
        "neither": "neither matches it",
    }[side]
    return side, f"; expected output of {exp.source} (rtol={exp.rtol:g}, atol={exp.atol:g}): {say}"


def _onnx_opset(model: Any) -> int | None:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def kernel_gap(run: FormRun) -> str | None:
    """Why the pass output cannot be compared here, when every run of it that failed where the input ran failed
    because the installed onnxruntime registers no kernel for one of its nodes
    (:func:`~passcheck.runtime.limits.all_missing_kernel`, ``NOT_IMPLEMENTED`` at session creation), and either
    the pass moved the model to another ai.onnx opset, or it quantizes (:data:`STEPPED`) and wrote that op where
    the input has none (QuantizeLinear / DequantizeLinear at the model's own opset, newer than any kernel this
    onnxruntime ships: the spec's version, the runtime's gap); else None."""
    out = run.output
    if out is None:
        return None
    moved = _onnx_opset(out) != _onnx_opset(run.model)
    if not moved and run.precision not in STEPPED:
        return None
    gap = all_missing_kernel([g.error for g, b in zip(run.runs, run.baseline) if g.error and not b.error])
    if gap is None:
        return None
    op, version = gap
    if not moved and any(n.op_type == op for n in run.model.graph.node):
        return None  # the input holds that op and ran: not a node only the pass wrote
    where = f"(ai.onnx opset {_onnx_opset(out)}, from {_onnx_opset(run.model)}) uses" if moved else "wrote"
    return (
        f"not compared: onnxruntime here has no kernel for {op}({version}), which the output of {run.pass_id} "
        f"{where} (a fact of the runtime, not of the pass)"
    )


def unchecked(run: FormRun, against: str = "") -> dict[str, str]:
    """``output <name>`` → why, for each graph output not compared in some binding because the
    unoptimized run of the input failed there (nothing to compare with). Empty when the pass
    failed (no output to judge). ``against``: whose run the baseline is (default: this form's)."""
    if run.output is None:
        return {}
    if gap := kernel_gap(run):
        return {f"output {o.name!r}": gap for o in run.output.graph.output}
    checked(run)  # records the outputs left unchecked at the input's overflow
    overflow = dict(run.__dict__.get("_overflow_unchecked", {}))
    failed = [(i, b.error) for i, b in enumerate(run.baseline) if b.error]
    if not failed:
        return overflow
    i, error = failed[0]
    where = f"binding {i}" if len(failed) == 1 else f"bindings {', '.join(str(j) for j, _ in failed)}"
    why = f"not compared: the unoptimized run of {against or f'form {run.form!r}'} fails ({where}): {brief(error, 160)}"
    return {**overflow, **{f"output {o.name!r}": why for o in run.output.graph.output}}


def _desc(v: Any) -> str:
    if isinstance(v, list):
        return f"sequence of {len(v)}"
    if isinstance(v, dict):
        return f"map of {len(v)}"
    if v is None:
        return "absent"
    return f"{getattr(v, 'dtype', type(v).__name__)}{list(getattr(v, 'shape', []))}"


def _py(x: Any) -> Any:
    return x.item() if hasattr(x, "item") else x


class Numeric(BaseOracle):
    """``wrong-result``: each pass output against its unoptimized input (see :func:`check`)."""

    id = NAME

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return list(checked(run))

    def unchecked_run(self, run: FormRun, cells: Cells) -> dict[str, str]:
        return unchecked(run)

    def coverage(self, run: FormRun) -> dict[str, Any]:
        """``{"random_outputs": [...]}``: the outputs compared by dtype and shape only (see :data:`RANDOM`);
        ``{"within_rounding": {output: why}}``: failed comparisons the float64 judge found within the model's own
        float32 rounding (:mod:`passcheck.oracles.rounding`), checked, not reported; ``{"empty_outputs": [...]}``:
        the tensor outputs with no element in every run of the input model (a dim bound to 0, IR.md: an empty tensor
        is valid), so compared by dtype and shape only: the verdict promises no value there (:func:`empty_outputs`)."""
        names = sorted(drawn(run.model) | drawn(run.output)) if run.output is not None else []
        if run.output is not None:
            checked(run)  # records the outputs the float64 judge found within the model's rounding
        within = dict(run.__dict__.get("_within_rounding", {}))
        empty = empty_outputs(run) if run.output is not None else []
        return {
            **({"random_outputs": names} if names else {}),
            **({"within_rounding": within} if within else {}),
            **({"empty_outputs": empty} if empty else {}),
        }


def empty_outputs(run: FormRun) -> list[str]:
    """Names of the graph outputs that are tensors of 0 elements in every run of the input model that ran
    (:attr:`FormRun.baseline`; none when no run did): :func:`compare` judges them by dtype and shape alone."""
    ran = [b.outputs for b in run.baseline if not b.error]
    if not ran:
        return []
    return sorted(
        name for name in ran[0] if all(isinstance(o.get(name), np.ndarray) and o[name].size == 0 for o in ran)
    )


ORACLE = Numeric()
