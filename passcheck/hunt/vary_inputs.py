"""Neighbours that change what a graph input's declared type says: one more leading dim, an empty dim
stated in the model rather than only bound at run time, or one input's size moved apart from the inputs it
shared it with.

A graph input's type is part of the model (IR.md, "Graphs": inputs are ``ValueInfoProto``; "Tensor shapes":
a dim is a ``dim_value`` ≥ 0 or a ``dim_param``). Graph transformers read it: onnxruntime's fusions check
the rank of what they match (a Gemm they write takes rank 2 only: Operators.md Gemm) and build shape
constants from the dims they infer; they act on a dim only when it is stated. The other variations change
constants, attributes, element types and run-time bindings (:mod:`.vary_bindings`: ``bind-zero`` binds a
``dim_param`` to 0 in the run, the model still says ``N``), never the declared rank or a declared empty dim.

Form ids use the variation grammar ``vary:<kind>@<site>`` (:mod:`.variation`):

=====================  =========================================================================================
kind (site)            change
=====================  =========================================================================================
``input-rank-up``      the input's declared shape given a leading ``1`` (rank r → r + 1). MatMul takes
(input name)           stacks of matrices (numpy matmul semantics, Operators.md MatMul), elementwise ops
                       broadcast (Broadcasting.md); whether every reader accepts the extra dim is the
                       gate's to check (:mod:`.vary_probe`: checker, a run under ``ort:disabled``)
``input-fix-zero``     every declaration (graph inputs, outputs, value_info) of that ``dim_param`` written as
(symbol)               ``dim_value`` 0: the empty tensor ``bind-zero`` runs, now stated in the model
``input-fix``          every declaration of that ``dim_param`` written as ``dim_value`` :data:`FIXED` (the first
(symbol)               default binding's size, :data:`passcheck.runtime.feeds.DEFAULT_SIZES`): the model
                       specialised to one binding, as ``onnxsim --overwrite-input-shape`` and ``onnxslim
                       --input-shapes`` write it before they optimize. Passes act on dims only where they are
                       stated: onnxslim's ``FusionGemm`` rewrites ``MatMul`` + ``Add`` of a rank > 2 input only
                       when ``all(isinstance(d, int) for d in input.shape)`` (its ``fusion/gemm.py``), onnxsim
                       and onnxruntime fold a ``Shape`` only of stated dims; the library's bases name their batch
                       dim, so without this kind those conditions were never met on them
``input-dim-alone``    a static dim that another fed input declares at the same axis doubled in this input
(``<input>=<axis>``)   only. The spec relates the sizes of different inputs by more than equality: Broadcasting.md
                       (a size against 1), Attention-23/24 (``q_num_heads`` a multiple of ``kv_num_heads``:
                       grouped-query attention), Conv (the input's channels ``group`` times the weight's), Concat
                       (any size on the axis); a base whose inputs agree on every shared size meets only the
                       equal case, and a context-dependent function body or a kernel that branches on the
                       relation (Attention's body repeats K and V heads only when they differ) is never run on
                       the other branch. ``twin`` (:mod:`.vary_twin`) doubles a shared size in every input that
                       holds it, so it keeps the relation; this kind breaks it for one input. Which relations an
                       op accepts is the gate's to check (onnxruntime refuses ``kv_num_heads`` that does not
                       divide ``q_num_heads``, a Concat off its axis): an invalid site costs the gate alone.
``input-dim-one``      one dim (symbolic, or static > 1) of one fed input declared 1, where the model's graph
(``<input>=<axis>``)   outputs keep the shapes onnx shape inference gives the base (the 1 is absorbed: another
                       operand of a multidirectional broadcast holds the dim, Broadcasting.md). The spec lets an
                       operand of Add, Mul, Where … be 1 wherever the other holds the size (a table shared by
                       the batch, a mask of one row); bases declare every input at the full shape, so a pass that
                       fuses a broadcast into an op with a stricter shape contract (RotaryEmbedding-23's caches
                       are ``[batch, sequence, rotary_dim / 2]``, RMSNormalization-23's scale broadcasts to the
                       normalized shape only) never met the 1. Only inputs of a base with two or more fed inputs
                       (the other holds the size), at most :data:`ALONE_SITES` sites
``input-dim-zero``     one dim (static ≥ 1, or a symbol no other fed input declares) of one fed input declared
(``<input>=<axis>``)   ``dim_value`` 0 while that input keeps another dim symbolic. IR.md ("Tensor shapes") allows
                       a 0 ``dim_value``; Operators.md Reshape (``allowzero``: a 0 in the shape vector is a size;
                       with ``-1`` beside a 0 and ``allowzero`` set the vector is invalid) and Broadcasting.md (a 0
                       meets only 0 or 1) make a static 0 beside an unknown dim a case of its own: a pass that
                       writes a constant from the declared or inferred dims then holds both a 0 and an unknown.
                       ``input-fix-zero`` states a symbol 0 everywhere (on a one-symbol base the value's shape
                       becomes fully static) and ``bind-zero`` only binds it; neither keeps a symbol beside a
                       stated 0. Sites: dims whose declaration onnx strict shape inference accepts, at most
                       :data:`ALONE_SITES` tried; the gate (:mod:`.vary_probe`) checks the rest
=====================  =========================================================================================

Annotations that no longer hold are replaced by what onnx shape inference says (:mod:`.variation`). A case's
own feeds get the leading axis, or are bound with the symbol at 0 (:func:`setting`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx

    from passcheck.hunt.probe import Setting

ALONE = "input-dim-alone"
ONE = "input-dim-one"
ZERO = "input-dim-zero"
#: :mod:`.vary_axis_one`'s kind: built there (the constants along the axis follow), fed here as ``input-dim-one``.
AXIS_ONE = "input-axis-one"
KINDS = ("input-rank-up", "input-fix-zero", "input-fix", ALONE, ONE, ZERO)
#: Kinds whose site is ``<input>=<axis>``.
AXIS_KINDS = (ALONE, ONE, ZERO, AXIS_ONE)
#: The size ``input-fix`` states for a symbol: the first of the default bindings' sizes (2).
FIXED = 2
#: Kinds whose site is a symbol (every declaration of it), not an input name.
SYMBOL_KINDS = ("input-fix-zero", "input-fix")
#: Sites of :data:`ALONE` a base offers at most: every one of a small op's (input, axis) pairs (each is another
#: relation between the inputs' sizes, and the op accepts only some of them, which the gate learns).
ALONE_SITES = 12


def is_input_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is one of this module's."""
    return kind in KINDS


def tensor_inputs(model: onnx.ModelProto) -> list[Any]:
    """The fed tensor inputs of ``model`` of known rank (:func:`_tensor_inputs`)."""
    return _tensor_inputs(model)


def accepted(model: onnx.ModelProto) -> bool:
    """Whether onnx strict shape inference accepts ``model`` from its inputs alone (:func:`_output_shapes`)."""
    return _output_shapes(model) is not None


def declared_ones(model: onnx.ModelProto) -> dict[str, list[int]]:
    """Each fed tensor input of ``model`` → the axes it declares a static 1 on."""
    return {
        vi.name: [
            a for a, d in enumerate(vi.type.tensor_type.shape.dim) if d.HasField("dim_value") and d.dim_value == 1
        ]
        for vi in _tensor_inputs(model)
    }


def _tensor_inputs(model: onnx.ModelProto) -> list[Any]:
    """Graph inputs that are tensors with a shape and no initializer of the same name (IR.md: such an input
    is a constant's default, not a value fed at run time)."""
    inits = {t.name for t in model.graph.initializer}
    return [
        vi
        for vi in model.graph.input
        if vi.name not in inits and vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")
    ]


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of every neighbour of ``model``: each fed tensor input of known rank, each ``dim_param``
    such an input declares."""
    symbols: dict[str, None] = {}
    for vi in _tensor_inputs(model):
        yield "input-rank-up", vi.name
        for d in vi.type.tensor_type.shape.dim:
            if d.dim_param:
                symbols[d.dim_param] = None
    for s in symbols:
        yield "input-fix-zero", s
        yield "input-fix", s
    for site in _alone_sites(model):
        yield ALONE, site
    for site in one_sites(model):
        yield ONE, site
    for site in zero_sites(model):
        yield ZERO, site


def _static(vi, axis: int) -> int | None:
    """The static size ``vi`` declares at ``axis`` (None: symbolic, unknown, or no such axis)."""
    dims = vi.type.tensor_type.shape.dim
    if axis >= len(dims) or not dims[axis].HasField("dim_value"):
        return None
    return dims[axis].dim_value


def _alone_sites(model: onnx.ModelProto) -> list[str]:
    """``<input>=<axis>`` of every static dim ≥ 1 of a fed input that another fed input declares at the same
    axis (module docs, ``input-dim-alone``), in input order."""
    ins = _tensor_inputs(model)
    out = []
    for vi in ins:
        for a in range(len(vi.type.tensor_type.shape.dim)):
            d = _static(vi, a)
            if d is not None and d >= 1 and any(o is not vi and _static(o, a) == d for o in ins):
                out.append(f"{vi.name}={a}")
    return out


def _output_shapes(model: onnx.ModelProto) -> list[tuple] | None:
    """Each graph output's shape as onnx shape inference gives it from the inputs alone (the outputs' and
    value_info's declarations cleared first), dims as ints or symbol names; None when inference fails."""
    import onnx

    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.value_info[:]
    for o in m.graph.output:
        o.type.tensor_type.ClearField("shape")
    try:
        m = isolated_tools.infer_shapes(m, strict_mode=True)
    except Exception:  # an op the shape inference rejects: no site (onnx raises several types)
        return None
    out = []
    for o in m.graph.output:
        t = o.type.tensor_type
        dims = tuple(d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim)
        out.append(dims if t.HasField("shape") else None)
    return out


def one_sites(model: onnx.ModelProto) -> list[str]:
    """``<input>=<axis>`` of every dim of a fed input, symbolic or static > 1, whose declaration as 1 leaves every
    graph output's inferred shape as the base's (module docs, ``input-dim-one``), in input order; at most
    :data:`ALONE_SITES` dims tried. Empty for a base with fewer than two fed tensor inputs."""
    import onnx

    ins = _tensor_inputs(model)
    if len(ins) < 2:
        return []
    tried = [
        (vi.name, a)
        for vi in ins
        for a, d in enumerate(vi.type.tensor_type.shape.dim)
        if (d.HasField("dim_value") and d.dim_value > 1) or d.dim_param
    ][:ALONE_SITES]
    if not tried or (base := _output_shapes(model)) is None:
        return []
    out = []
    for name, a in tried:
        m = onnx.ModelProto()
        m.CopyFrom(model)
        _declare_one(m, name, a)
        if _output_shapes(m) == base:
            out.append(f"{name}={a}")
    return out


def _declare_one(model: onnx.ModelProto, name: str, axis: int, size: int = 1) -> None:
    """Fed input ``name``'s dim ``axis`` declared ``dim_value`` ``size`` in place."""
    d = next(v for v in _tensor_inputs(model) if v.name == name).type.tensor_type.shape.dim[axis]
    d.Clear()
    d.dim_value = size


def zero_sites(model: onnx.ModelProto) -> list[str]:
    """``<input>=<axis>`` of every dim of a fed input that may be declared 0 beside a kept symbol (module docs,
    ``input-dim-zero``): static ≥ 1, or a ``dim_param`` no other dim of a fed input declares, in an input with
    another ``dim_param`` dim; kept when onnx strict shape inference accepts the declaration (it raises
    ``InferenceError`` where an op's schema refuses a 0 size). In input order, at most :data:`ALONE_SITES` tried."""
    import onnx

    ins = _tensor_inputs(model)
    count: dict[str, int] = {}
    for vi in ins:
        for d in vi.type.tensor_type.shape.dim:
            if d.dim_param:
                count[d.dim_param] = count.get(d.dim_param, 0) + 1
    tried = []
    for vi in ins:
        dims = vi.type.tensor_type.shape.dim
        for a, d in enumerate(dims):
            own = (d.HasField("dim_value") and d.dim_value >= 1) or count.get(d.dim_param, 0) == 1
            kept = any(o.dim_param for b, o in enumerate(dims) if b != a)
            if own and kept:
                tried.append((vi.name, a))
    out = []
    for name, a in tried[:ALONE_SITES]:
        m = onnx.ModelProto()
        m.CopyFrom(model)
        _declare_one(m, name, a, size=0)
        if _output_shapes(m) is not None:
            out.append(f"{name}={a}")
    return out


def alone_axis(model: onnx.ModelProto, site: str) -> tuple[str, int] | None:
    """(input, axis) of the ``input-dim-alone`` site ``site`` of ``model``, or None when it is no site."""
    name, _, axis = site.rpartition("=")
    if site not in _alone_sites(model):
        return None
    return name, int(axis)


def build(model: onnx.ModelProto, kind: str, site: str) -> bool:
    """``model`` changed in place as ``kind@site`` says; False when the site is not in it."""
    if kind == "input-rank-up":
        vi = next((v for v in _tensor_inputs(model) if v.name == site), None)
        if vi is None:
            return False
        shape = vi.type.tensor_type.shape
        dims = [type(d)() for d in shape.dim]
        for new, old in zip(dims, shape.dim, strict=True):
            new.CopyFrom(old)
        del shape.dim[:]
        shape.dim.add().dim_value = 1
        for d in dims:
            shape.dim.add().CopyFrom(d)
        return True
    if kind == ALONE:
        at = alone_axis(model, site)
        if at is None:
            return False
        vi = next(v for v in _tensor_inputs(model) if v.name == at[0])
        d = vi.type.tensor_type.shape.dim[at[1]]
        d.dim_value = 2 * d.dim_value
        return True
    if kind in (ONE, ZERO):
        if site not in (one_sites(model) if kind == ONE else zero_sites(model)):
            return False
        name, _, axis = site.rpartition("=")
        _declare_one(model, name, int(axis), size=1 if kind == ONE else 0)
        return True
    if kind in SYMBOL_KINDS:
        size = 0 if kind == "input-fix-zero" else FIXED
        done = False
        for vi in [*model.graph.input, *model.graph.output, *model.graph.value_info]:
            if not vi.type.HasField("tensor_type"):
                continue
            for d in vi.type.tensor_type.shape.dim:
                if d.dim_param == site:
                    d.Clear()
                    d.dim_value = size
                    done = True
        return done
    return False


def declaring(model: onnx.ModelProto, symbol: str) -> list[str]:
    """The fed tensor inputs of ``model`` that declare ``symbol`` as a dim (where an ``input-fix`` shows first)."""
    return [
        vi.name for vi in _tensor_inputs(model) if any(d.dim_param == symbol for d in vi.type.tensor_type.shape.dim)
    ]


def reach(model: onnx.ModelProto, name: str) -> list[str]:
    """The main-graph values computed from ``name`` (outputs of its readers, of theirs, …), in node order: where a
    declared-rank change of input ``name`` can show. The scheduler reads their readers as the neighbour's site ops
    (:meth:`passcheck.hunt.scheduler.Scheduler.triples`), so a base that meets the extra dim with other ops than a
    base tried before is still new there (a Reshape that absorbs it, a BatchNormalization that refuses it)."""
    seen = {name}
    out = []
    for node in model.graph.node:  # a valid graph lists its nodes in topological order (IR.md, "Graphs")
        if seen & set(node.input):
            for o in node.output:
                if o and o not in seen:
                    seen.add(o)
                    out.append(o)
    return out


def setting(setting: Setting, kind: str, site: str, ones: Mapping[str, Sequence[int]] | None = None) -> Setting:
    """``setting`` for the neighbour ``kind@site``: a case's own feeds for ``site`` given a leading axis
    (``input-rank-up``) or its doubled axis (``input-dim-alone``: the array twice along it, Concat-4's
    layout) or its first slice along the axis (``input-dim-one``) or none of it (``input-dim-zero``: the empty
    slice; a feed the case does not give follows the declared 0), or every binding with ``site`` at 0
    (``input-fix-zero``: a feed function that follows its bindings then makes the empty tensor the model now
    declares) or at :data:`FIXED` (``input-fix``). ``ones``: for ``input-axis-one``, every fed input → the axes its
    neighbour declares 1 (:func:`declared_ones`): another input declared with the site's (:mod:`.vary_axis_one`)
    is fed its first slice there too."""
    if kind in SYMBOL_KINDS:
        size = 0 if kind == "input-fix-zero" else FIXED
        return dataclasses.replace(setting, bindings=tuple({**b, site: size} for b in setting.bindings))
    if setting.feeds is None:
        return setting
    own = setting.feeds
    name, _, axis = site.rpartition("=") if kind in AXIS_KINDS else (site, "", "")

    def feeds(binding: Mapping[str, int], seed: int) -> dict[str, Any]:
        import numpy as np

        out = dict(own(binding, seed))
        if getattr(out.get(name), "shape", None) is None:
            return out
        if kind == ALONE:
            out[name] = np.concatenate([out[name], out[name]], axis=int(axis))
        elif kind in (ONE, AXIS_ONE):
            out[name] = np.take(out[name], [0], axis=int(axis))
            for other, axes in (ones or {}).items() if kind == AXIS_ONE else ():
                for a in axes:
                    arr = out.get(other)
                    if other != name and getattr(arr, "ndim", -1) > a and arr.shape[a] > 1:
                        out[other] = np.take(arr, [0], axis=a)
        elif kind == ZERO:
            out[name] = np.take(out[name], np.arange(0), axis=int(axis))
        else:
            out[name] = out[name][None]
        return out

    return dataclasses.replace(setting, feeds=feeds)
