"""A neighbour that feeds an overridable default another value: the same computation, run with a graph input that
has an initializer of the same name given a value other than that initializer.

IR.md §Graphs (``initializer``): an initializer whose name is also a graph input "specifies a default value for
that input"; a caller may feed another value (onnxruntime: ``InferenceSession.get_overridable_initializers``), and
"constants that are not meant to be overridden … should appear only in the initializer list". A pass that folds
the default (ConstantFolding, a folder, shape inference or data propagation reading it as input data) is right on
the default feed and wrong on any other, so every run of a case (which feeds only inputs without an initializer:
:func:`passcheck.runtime.feeds.runtime_inputs`) judges it where folding is right.

Form id ``vary:default-fed@<name>`` (:mod:`.variation`). Sites: every main-graph initializer a node reads. One that
is no graph input is first made overridable as the rewrite ``initializer-as-input`` does
(:func:`passcheck.mutations.graph_inputs.as_input`: a graph input of its dtype and dims), so a base reaches the kind
without the rewrite (a hunt composes rewrites after neighbours, never before). A model of IR version < 4 is raised to
IR 4: before it every initializer had to be listed as a graph input, so the listing says nothing, and onnxruntime
takes every initializer of such a model as a constant (``get_overridable_initializers`` is empty; a feed of its name
is an "Invalid input name"); IR 4 changed no other rule a model of a lower version follows (IR.md §Nodes).

The model is the base's with every annotation of a value computed from the input (:func:`.vary_inputs.reach`: graph
outputs and value_info) keeping its elem type and rank and losing its dims (they may depend on the fed value; what a
pass states there is then the pass's own); the feed of every run adds ``<input>`` = :func:`other_value` of the
initializer, same dtype and shape (the input's annotation, a precondition, is the initializer's). The oracles then
compare the pass's output with the unoptimized model on that feed (numeric) and check its annotations against that
run (annotations).

:func:`other_value` (numpy array of the initializer's dtype and shape, or None and why):

- bool: each element negated;
- more than one element, not all equal: the elements in reverse order. A reversal keeps the multiset of elements,
  so what a reader's schema asks of the set holds still: a Reshape / Expand / Tile / ConstantOfShape shape keeps
  its element count, an axes or perm input stays in range and duplicate-free, indices stay in their range;
- all elements equal (a scalar, a one-element vector, a fill): a float × 2 (0 → 1; ÷ 2 where × 2 overflows); an
  integer ``x > 1`` → ``x − 1`` (a TopK ``K``, a OneHot ``depth``, an index stays ≤ its bound), 0 ↔ 1, a negative
  one + 1 (a negative axis ``−1`` → ``0``, still in ``[−r, r − 1]``);
- none for an empty tensor, a string tensor or a tensor no node reads (:func:`skipped` says which).

A value the readers still refuse (a Reshape whose reversed shape moves a ``0`` onto an axis it cannot copy) is
dropped by the neighbour gate (:mod:`.vary_probe`: it must run under ``ort:disabled``), counted as an
``invalid-variation`` item, never blamed on a pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import onnx

    from passcheck.hunt.probe import Setting

KIND = "default-fed"


def is_kind(kind: str) -> bool:
    """Whether ``kind`` (without the ``vary:`` prefix) is this module's."""
    return kind == KIND


def overridable(model: onnx.ModelProto) -> dict[str, Any]:
    """Main-graph inputs that have an initializer of the same name (IR.md §Graphs): name → the initializer."""
    inits = {t.name: t for t in model.graph.initializer}
    return {vi.name: inits[vi.name] for vi in model.graph.input if vi.name in inits}


def other_value(tensor: onnx.TensorProto) -> tuple[np.ndarray | None, str]:
    """A value of ``tensor``'s dtype and shape other than its own (see module docs), and ``""``; or None and why
    no such value is derived."""
    import numpy as np
    from onnx import numpy_helper

    arr = numpy_helper.to_array(tensor)
    if arr.size == 0:
        return None, "empty: no other value of its shape"
    if arr.dtype.kind in "OSU":
        return None, "a string tensor"
    if arr.dtype == np.bool_:
        return np.logical_not(arr), ""
    flat = arr.reshape(-1)
    if (flat != flat[0]).any():
        return flat[::-1].reshape(arr.shape).copy(), ""
    if arr.dtype.kind in "fc":
        with np.errstate(over="ignore"):
            new = np.where(arr == 0, 1, arr * 2)
        if not np.isfinite(new).all():  # × 2 leaves the type's range (a mask's -3.4e38): halve instead
            new = arr / 2
    else:
        wide = arr.astype(np.int64)
        new = np.where(wide > 1, wide - 1, np.where(wide >= 0, 1 - wide, wide + 1))
    return np.asarray(new, dtype=arr.dtype).reshape(arr.shape), ""


def defaults(model: onnx.ModelProto) -> dict[str, Any]:
    """The main-graph initializers of ``model``, each an overridable default or one it may be made: name → the
    initializer."""
    return {t.name: t for t in model.graph.initializer}


def skipped(model: onnx.ModelProto) -> dict[str, str]:
    """Sites of ``model`` (:func:`defaults`) with no neighbour: name → why (no reader, or :func:`other_value`'s)."""
    read = {i for n in model.graph.node for i in n.input}
    out = {}
    for name, tensor in defaults(model).items():
        why = "no node reads it" if name not in read else other_value(tensor)[1]
        if why:
            out[name] = why
    return out


def candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    """(kind, site) of each site of ``model`` (:func:`defaults`) with another value (site: the name)."""
    gone = skipped(model)
    for name in defaults(model):
        if name not in gone:
            yield KIND, name


def build(model: onnx.ModelProto, site: str) -> bool:
    """Make ``site`` overridable (a graph input too, if it is not) and leave unstated, in place, the dims of every
    annotation of a value computed from it (elem type and rank kept); False when ``site`` is no site of ``model``
    (:func:`defaults`) with another value."""
    from passcheck.hunt.vary_inputs import reach
    from passcheck.mutations.graph_inputs import as_input

    if site not in defaults(model) or site in skipped(model):
        return False
    model.ir_version = max(model.ir_version, 4)  # IR < 4: onnxruntime overrides no initializer (module docs)
    as_input(model, frozenset([site]))
    below = set(reach(model, site))
    for vi in [*model.graph.output, *model.graph.value_info]:
        tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if vi.name in below and tt is not None and tt.HasField("shape"):
            for d in tt.shape.dim:
                d.Clear()
    return True


def setting(setting: Setting, model: onnx.ModelProto, site: str) -> Setting:
    """``setting`` with every run also feeding ``site`` (an overridable default of ``model``) its
    :func:`other_value`."""
    from passcheck.hunt.vary_bindings import base_feeds, complete
    from passcheck.runtime.feeds import graph_symbols

    value = other_value(overridable(model)[site])[0]
    made = base_feeds(model, setting.subject_id, setting.feeds)  # a case's own feeds, or synthesized
    return dataclasses.replace(
        setting,
        bindings=complete(graph_symbols(model), setting.bindings),
        feeds=lambda binding, seed: {**made(binding, seed), site: value.copy()},
    )


def feed_fn(model: onnx.ModelProto | Callable[[], onnx.ModelProto], site: str, subject_id: str):
    """A case feed function (``(binding, seed) → feeds``): the feeds :func:`.vary_bindings.base_feeds` makes for
    ``subject_id``, and ``site`` (an overridable default of ``model``) fed its :func:`other_value`. ``model`` may be
    a ``build()`` function (a saved case module's), called once on first use."""
    from passcheck.hunt.vary_bindings import base_feeds

    made = base_feeds(model, subject_id)
    built: list = []

    def feeds(binding, seed):
        if not built:
            built.append(other_value(overridable(model() if callable(model) else model)[site])[0])
        return {**made(binding, seed), site: built[0].copy()}

    return feeds


def saved(setting: Setting, model: onnx.ModelProto, form: str) -> dict[str, Any]:
    """The ``bindings`` / ``feeds`` keywords of :func:`passcheck.reduce.case_module.case_module` that make a saved case
    of ``form``'s neighbour feed its default as the neighbour does (``setting``: the shrunk pair's, its subject id the
    saved case's id); empty for any other variation."""
    from passcheck.hunt.vary_bindings import complete
    from passcheck.runtime.feeds import graph_symbols

    k, _, site = form.partition("@")
    if not is_kind(k.partition(":")[2]):
        return {}
    return {
        "bindings": complete(graph_symbols(model), setting.bindings),
        "feeds": (
            "from passcheck.hunt.vary_defaults import feed_fn",
            f"feed_fn(build_uncommon, {site!r}, {setting.subject_id!r})",
        ),
    }
