"""Run-condition variants of a base: the *same model* under another binding of its graph-input dim_params,
or on other float feed values. A pass may be right for the conditions a case runs under and wrong for
other valid ones (an inference that writes ``N`` for the broadcast of ``N`` with ``M``, which only holds
when ``M == N`` or ``M == 1``; a fusion valid only for a dim > 1, or for non-negative inputs; a kernel on
an empty tensor).

Form ids use the variation grammar ``vary:<kind>@<site>`` (:mod:`.variation`):

========================  ==========================================================================
kind (site)               the run condition
========================  ==========================================================================
``bind-one`` (symbol)     that graph-input dim_param bound to 1 in every run (a broadcast is then
                          one-sided: Broadcasting.md, "Multidirectional Broadcasting")
``bind-zero`` (symbol)    bound to 0: an empty tensor (IR.md, "Tensor shapes": a dim_value may be 0)
``bind-distinct``         every dim_param bound to a pairwise-distinct value (2, 3, 5, 7, … then
(``graph``)               3, 5, 7, 11, …), so an inference that takes two names for one is seen
                          at run time; offered with two or more symbols
``bind-equal`` (graph)    every dim_param bound to one value (2, then 3), offered where the case
                          binds two names differently
``feed-negative`` (graph) every float feed −(|x| + ½): all elements < 0
``feed-zero`` (graph)     every float feed 0
``feed-large`` (graph)    every float feed × 1e3
``feed-ties`` (graph)     every float feed rounded to a multiple of ½: mixed signs, exact ties
``feed-tiny`` (graph)     every float feed scaled by a power of two so its largest magnitude is 2^6 × its element
                          type's smallest normal (float16: 2^-8): a step of 1/255 of its range is subnormal
``feed-small`` (graph)    every float feed scaled by a power of two so its largest magnitude is within (½, 1] of
                          the square root of its element type's smallest normal (float32 and bfloat16: 2^-63,
                          float16: 2^-7, double: 2^-511): each value is a normal number, and so is each 1/255
                          step of its range but in float16 (whose steps sit about its smallest normal), so no
                          quantizer falls back as on ``feed-tiny``; a product of two such steps is not normal,
                          and a quantity derived from the feed's scale times a constant's
                          (Operators.md QLinearConv / QLinearMatMul: an int32 bias quantized at ``x_scale ·
                          w_scale``, zero point 0) lies far below the model's constants of magnitude ~1: a bias
                          ``b`` of 1 beside a weight of 1 is then ~2^77 steps, beyond int32's 2^31
``feed-wide`` (graph)     every float feed scaled by a power of two so its largest magnitude is within (½, 1] of
                          its element type's largest finite value (float16: 32,752 – 65,504): each value is
                          finite, the range (max − min) of a feed with extremes of both signs overflows
========================  ==========================================================================

Symbols not named by a binding kind keep the case's value (or the synthesized default, 2 then 3:
:func:`passcheck.engine.feeds_for`). A feed kind changes float tensors only (elem kind ``f``, sequence
elements too); integer, bool and string feeds are left as made: an index or a count has a domain of
its own (the op schema's), which these changes do not know. A binding variant of a case whose own feed
function does not honour the binding (:func:`unfit`) is not applicable. Whether the base runs under the
variant at all (``ort:disabled``) is :mod:`.vary_probe`'s check: one that does not is skipped, counted,
never blamed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import onnx

    from passcheck.hunt.probe import Setting

BIND_KINDS = ("bind-one", "bind-zero", "bind-distinct", "bind-equal")
FEED_KINDS = ("feed-negative", "feed-zero", "feed-large", "feed-ties", "feed-tiny", "feed-small", "feed-wide")
KINDS = BIND_KINDS + FEED_KINDS
GRAPH = "graph"
#: Pairwise-distinct sizes of ``bind-distinct`` (primes: no one is another's multiple).
PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
LARGE = 1e3


def is_condition(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is one of this module's."""
    return kind in KINDS


def candidates(model: onnx.ModelProto, bindings: Sequence[Mapping[str, int]] = ({}, {})) -> Iterator[tuple[str, str]]:
    """(kind, site) of every run-condition variant of ``model`` under a case binding ``bindings``."""
    from passcheck.runtime.feeds import graph_symbols

    symbols = graph_symbols(model)
    for s in symbols:
        yield "bind-one", s
        yield "bind-zero", s
    if 2 <= len(symbols) <= len(PRIMES):
        yield "bind-distinct", GRAPH
    if any(len(set(b.values())) > 1 for b in complete(symbols, bindings)):
        yield "bind-equal", GRAPH
    if _float_inputs(model):
        yield from ((k, GRAPH) for k in FEED_KINDS)


def builds(model: onnx.ModelProto, kind: str, site: str) -> bool:
    """Whether ``kind@site`` names a variant of ``model`` whatever its case binds: the symbol is one of its
    graph inputs', a graph kind has two symbols (``bind-distinct``, ``bind-equal``) or a float input."""
    symbols = _symbols(model)
    if kind in ("bind-one", "bind-zero"):
        return site in symbols
    if site != GRAPH:
        return False
    return len(symbols) >= 2 if kind in BIND_KINDS else _float_inputs(model)


def complete(symbols: Sequence[str], bindings: Sequence[Mapping[str, int]]) -> list[dict[str, int]]:
    """``bindings`` with every symbol bound: a symbol a binding leaves out takes run i's default, 2 + i
    (:func:`passcheck.engine.feeds_for`); names the model does not use are kept."""
    return [{**{s: 2 + i for s in symbols}, **b} for i, b in enumerate(bindings)]


def bindings_for(model: onnx.ModelProto, kind: str, site: str, bindings: Sequence[Mapping[str, int]]) -> list[dict]:
    """The bindings (one per run, as many as ``bindings``) of a binding kind (see module docs)."""
    from passcheck.runtime.feeds import graph_symbols

    symbols = graph_symbols(model)
    out = complete(symbols, bindings)
    for i, b in enumerate(out):
        if kind == "bind-one":
            b[site] = 1
        elif kind == "bind-zero":
            b[site] = 0
        elif kind == "bind-distinct":
            b.update(zip(symbols, PRIMES[i % 2 :], strict=False))
        elif kind == "bind-equal":
            b.update(dict.fromkeys(symbols, 2 + i))
    return out


def transform(kind: str, feeds: Mapping[str, Any]) -> dict[str, Any]:
    """``feeds`` with every float tensor changed as a feed kind says (see module docs); others as given."""
    return {n: _each(kind, v) for n, v in feeds.items()}


def feed_fn(kind: str, model: onnx.ModelProto | Callable[[], onnx.ModelProto], subject_id: str, own=None):
    """A case feed function (``(binding, seed) → feeds``) giving :func:`base_feeds`' feeds changed by
    :func:`transform`. ``model`` may be a ``build()`` function (a saved case module's), called once on first use."""
    made = base_feeds(model, subject_id, own)
    return lambda binding, seed: transform(kind, made(binding, seed))


def base_feeds(model: onnx.ModelProto | Callable[[], onnx.ModelProto], subject_id: str, own=None):
    """A case feed function (``(binding, seed) → feeds``) giving the feeds of run i as
    :func:`passcheck.engine.feeds_for` makes them for ``subject_id`` (``own``, a case's feed function,
    else synthesized from ``model``'s input annotations, anonymous dims 2 + i). ``model`` may be a ``build()``
    function, called once on first use."""
    from passcheck.engine import seed_for
    from passcheck.runtime.feeds import synthesize

    sizes = {seed_for(subject_id, i): 2 + i for i in range(8)}
    built: list = []

    def feeds(binding, seed):
        if own is not None:
            return own(binding, seed)
        if not built:
            built.append(model() if callable(model) else model)
        return synthesize(built[0], binding, seed, default_size=sizes.get(seed, 2))

    return feeds


def setting_for(setting: Setting, model: onnx.ModelProto, kind: str, site: str) -> Setting:
    """``setting`` for the variant ``kind@site`` of ``model``: its bindings or its feed function replaced."""
    if kind in BIND_KINDS:
        return dataclasses.replace(setting, bindings=bindings_for(model, kind, site, setting.bindings))
    return dataclasses.replace(
        setting,
        bindings=complete(_symbols(model), setting.bindings),
        feeds=feed_fn(kind, model, setting.subject_id, setting.feeds),
    )


def unfit(setting: Setting, model: onnx.ModelProto) -> str | None:
    """Why the feeds of ``setting`` do not follow its bindings (a case's own feed function that makes
    fixed shapes), or None: a binding variant there would run the base's conditions again.

    Raises:
        FeedError: the feeds cannot be made.
    """
    from passcheck.runtime.feeds import runtime_inputs

    for b, feeds in zip(setting.bindings, setting.feed_list(model), strict=False):
        for vi in runtime_inputs(model):
            arr = feeds.get(vi.name)
            if not vi.type.HasField("tensor_type") or getattr(arr, "shape", None) is None:
                continue
            for axis, d in enumerate(vi.type.tensor_type.shape.dim):
                if d.dim_param in b and axis < len(arr.shape) and arr.shape[axis] != b[d.dim_param]:
                    return (
                        f"the case's feeds do not follow its bindings ({vi.name!r} axis {axis}: "
                        f"{arr.shape[axis]}, {d.dim_param} = {b[d.dim_param]})"
                    )
    return None


def _symbols(model) -> list[str]:
    from passcheck.runtime.feeds import graph_symbols

    return graph_symbols(model)


def _float_inputs(model) -> bool:
    from passcheck.runtime.feeds import runtime_inputs

    def floats(tp) -> bool:
        which = tp.WhichOneof("value")
        if which == "tensor_type":
            return tp.tensor_type.elem_type in (1, 10, 11, 16)  # FLOAT, FLOAT16, DOUBLE, BFLOAT16
        return which in ("sequence_type", "optional_type") and floats(getattr(tp, which).elem_type)

    return any(floats(vi.type) for vi in runtime_inputs(model))


def _each(kind: str, v):
    if isinstance(v, list):
        return [_each(kind, x) for x in v]
    if v is None or getattr(v, "dtype", None) is None or v.dtype.kind != "f":
        return v
    return _changed(kind, v)


def _changed(kind: str, x: np.ndarray) -> np.ndarray:
    import numpy as np

    wide = x.astype(np.float64)
    new = {
        "feed-negative": lambda: -(np.abs(wide) + 0.5),
        "feed-zero": lambda: np.zeros_like(wide),
        "feed-large": lambda: wide * LARGE,
        "feed-ties": lambda: np.round(wide * 2) / 2,
        "feed-tiny": lambda: wide * _power_of_two(wide, float(_finfo(x.dtype).tiny) * 2.0**6),
        "feed-small": lambda: wide * _power_of_two(wide, float(_finfo(x.dtype).tiny) ** 0.5),
        "feed-wide": lambda: wide * _power_of_two(wide, float(_finfo(x.dtype).max)),
    }[kind]()
    return np.asarray(new, dtype=x.dtype).reshape(x.shape)  # a rank-0 feed stays rank 0


def _finfo(dtype):
    """``numpy.finfo`` of a float ``dtype``, ``ml_dtypes.finfo`` for the types numpy does not know (bfloat16)."""
    import numpy as np

    try:
        return np.finfo(dtype)
    except (TypeError, ValueError):
        import ml_dtypes

        return ml_dtypes.finfo(dtype)


def _power_of_two(x: np.ndarray, target: float) -> float:
    """The power of two ``2^k`` taking ``max|x|`` into ``(target / 2, target]`` (1.0 for an all-zero or
    non-finite feed): a scaling by it is exact in every binary float type (IEEE 754: only the exponent moves),
    so each element keeps its significand and the feed its signs and order."""
    import math

    import numpy as np

    finite = np.abs(x[np.isfinite(x)])
    peak = float(finite.max()) if finite.size else 0.0
    if peak == 0.0:
        return 1.0
    return 2.0 ** math.floor(math.log2(target / peak))


def saved(setting: Setting, model: onnx.ModelProto, form: str) -> dict[str, Any]:
    """The ``bindings`` / ``feeds`` keywords of :func:`passcheck.reduce.case_module.case_module` that make a
    saved case of ``form``'s variant of ``model`` run under the variant's conditions (``setting``: the
    shrunk pair's, its subject id the saved case's id); empty for any other variation."""
    k, _, site = form.partition("@")
    k = k.partition(":")[2]
    if not is_condition(k):
        return {}
    mine = setting_for(setting, model, k, site)
    if k in BIND_KINDS:
        return {"bindings": mine.bindings}
    return {
        "bindings": mine.bindings,
        "feeds": (
            "from passcheck.hunt.vary_bindings import feed_fn",
            f"feed_fn({k!r}, build_uncommon, {setting.subject_id!r})",
        ),
    }
