"""onnxruntime's transformer optimizer fusions (``onnxruntime/transformers/fusion_*.py``, the
``ort-transformers:*`` passes), and which a model triggers.

Catalogue, by introspection of the installed package: ``optimize_model`` is run on a one-node model
for each model type the passes offer (:data:`passcheck.passes.ort_transformers.MODEL_TYPES` and the
offered :func:`~passcheck.passes.ort_transformers.more_types`: with onnxruntime 1.32.0 every type but ``phi``
and ``t5``, own optimizer classes included: BartOnnxModel, Sam2OnnxModel, UnetOnnxModel, MmditOnnxModel …), as
the pass runs it (its options, :func:`~passcheck.passes.ort_transformers.disabled_flags`), with
``Fusion.__init__`` (``fusion_base.py``, the base class of every fusion) recorded: each ``Fusion`` subclass the
optimizer constructs is a ``fusion`` entry, run by the model types that constructed it (a type's class and
``FusionOptions`` decide which: ``qwen3`` turns ``enable_embed_layer_norm`` off, ``sam2`` constructs
FusionLayerNormalizationNCHW), its scope the ``search_op_types`` it starts matching from and the
``fused_op_type`` it writes (the constructor's own arguments). Triggers are observed under one type per
(optimizer class, options turned off) (the other types run the same fusions the same way): an entry
triggered there counts for every type that constructs it.

Evidence, by effect: while ``optimize_model`` runs on the model (a copy, per model type),
``Fusion.apply`` is recorded; a fusion triggered when its apply changed the model (the
serialization before and after differ): the effect names the first search-op node it removed
(``replaced LayerNormalization node …``, the wording :mod:`passcheck.hunt.nearness` reads op types
from) and the node count. A run that raises keeps the evidence seen before it (its failure is a
finding of the hunt, not an effect). Run through ``IsolatedExecutor.call``: the class is patched
for the duration of the call.
"""

from __future__ import annotations

import contextlib

from passcheck.coverage.entry import Entry, key
from passcheck.passes.ort_fusion_probe import patched
from passcheck.passes.ort_transformers import MODEL_TYPES, disabled_flags, more_types, options

TOOL = "ort-transformers"


def _optimize(model, model_type: str) -> None:
    import logging

    import onnx
    from onnxruntime.transformers.optimizer import optimize_model

    logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    with contextlib.suppress(Exception):  # the optimizer failing is a finding elsewhere; what ran still counts
        optimize_model(
            copy,
            model_type,
            num_heads=0,
            hidden_size=0,
            opt_level=0,
            optimization_options=options(model_type, disabled_flags(model_type)),
        )


def _offered() -> tuple[str, ...]:
    """The fixed model types, then every offered type of the installed release."""
    return (*MODEL_TYPES, *(t for t, why in more_types().items() if why is None))


def _one_per_class() -> tuple[str, ...]:
    """The offered types, the first of each (optimizer class, options turned off) only: the types sharing both run
    the same fusions the same way."""
    from onnxruntime.transformers.optimizer import MODEL_TYPES as ALL

    seen: dict[tuple, str] = {}
    for t in _offered():
        seen.setdefault((ALL[t][0], disabled_flags(t)), t)
    return tuple(seen.values())


def fusions(model) -> dict[str, tuple[list[str], str, list[str]]]:
    """Fusion class name → (search op types, fused op type, model types constructing it), read by
    running the optimizer on ``model`` (see module docs)."""
    out: dict[str, tuple[list[str], str, list[str]]] = {}
    current = [""]

    def wrap(original):
        def init(self, *args, **kwargs):
            original(self, *args, **kwargs)
            name = type(self).__name__
            search, fused, types = out.setdefault(name, (list(self.search_op_types), self.fused_op_type, []))
            if current[0] not in types:
                types.append(current[0])

        return init

    offered = _offered()  # read before patching: reading the types runs the optimizer (ort_fusion_probe)
    with patched("__init__", wrap):
        for current[0] in offered:
            _optimize(model, current[0])
    return out


def catalogue(found: dict[str, tuple[list[str], str, list[str]]]) -> list[Entry]:
    """The entries of ``found`` (from :func:`fusions`, run in the worker)."""
    src = "Fusion subclasses optimize_model constructs (installed, Fusion.__init__ recorded)"
    out = []
    for name, (search, fused, types) in sorted(found.items()):
        passes = tuple(f"ort-transformers:{t}" for t in types)
        out.append(Entry(TOOL, "fusion", name, passes, f"search {', '.join(search)} → {fused or '(no fused op)'}", src))
    return out


def triggers(model) -> dict[str, str]:
    """Entry key → effect for every fusion whose ``apply`` changed ``model`` under some model type."""
    out: dict[str, str] = {}
    current = [""]

    def wrap(original):
        def apply(self, *args, **kwargs):
            graph = self.model.model
            before = graph.SerializeToString(deterministic=True)
            nodes = [_ident(n) for n in graph.graph.node if n.op_type in self.search_op_types]
            n0 = len(graph.graph.node)
            try:
                return original(self, *args, **kwargs)
            finally:
                graph = self.model.model
                if graph.SerializeToString(deterministic=True) != before:
                    kept = {_ident(n) for n in graph.graph.node}
                    gone = [n for n in nodes if n not in kept]
                    what = f"replaced {gone[0][0]} node '{gone[0][1]}'" if gone else "changed the model"
                    out.setdefault(
                        key(TOOL, "fusion", type(self).__name__),
                        f"ort-transformers:{current[0]}: {type(self).__name__} {what} "
                        f"(nodes {n0}→{len(graph.graph.node)})",
                    )

        return apply

    types = _one_per_class()
    with patched("apply", wrap):
        for current[0] in types:
            _optimize(model, current[0])
    return out


def _ident(node) -> tuple[str, str, tuple[str, ...]]:
    """A node as the graph holds it: op type, name, outputs (protobuf wrappers are not stable objects)."""
    return node.op_type, node.name, tuple(node.output)
