"""onnxruntime's transformer optimizer fusions (``onnxruntime/transformers/fusion_*.py``, the
``ort-transformers:*`` passes), and which a model triggers.

Catalogue, by introspection of the installed package: ``optimize_model`` is run on a one-node model
for each model type the passes offer (:data:`passcheck.passes.ort_transformers.MODEL_TYPES` and the
offered :func:`~passcheck.passes.ort_transformers.more_types`: ``gpt2_tf``, ``gpt_neox``, ``qwen3``, ``swin``
with onnxruntime 1.32.0), as the pass runs it, with ``Fusion.__init__`` (``fusion_base.py``, the base class
of every fusion) recorded: each ``Fusion`` subclass the optimizer constructs is a ``fusion`` entry, run by
the model types that constructed it (a type's ``FusionOptions`` decide which: ``qwen3`` turns
``enable_embed_layer_norm`` off), its scope the ``search_op_types`` it starts matching from and the
``fused_op_type`` it writes (the constructor's own arguments). Triggers are observed under
:data:`~passcheck.passes.ort_transformers.MODEL_TYPES` only (the other types run the same optimizer
classes): an entry triggered there counts for every type that constructs it.

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
import sys
from collections.abc import Callable, Iterator

from passcheck.coverage.entry import Entry, key
from passcheck.passes.ort_transformers import MODEL_TYPES, more_types

TOOL = "ort-transformers"


def _fusion_classes() -> list[type]:
    """``Fusion`` as the optimizer imports it (``fusion_base``, a top-level module once
    ``onnxruntime.transformers`` put its folder on ``sys.path``) and as a package module: one
    class or two."""
    import onnxruntime.transformers.fusion_base as packaged
    import onnxruntime.transformers.optimizer  # noqa: F401 - puts the top-level fusion modules in sys.modules

    found = [packaged.Fusion]
    top = sys.modules.get("fusion_base")
    if top is not None and top.Fusion is not packaged.Fusion:
        found.append(top.Fusion)
    return found


@contextlib.contextmanager
def _patched(method: str, wrap: Callable) -> Iterator[None]:
    saved = [(c, c.__dict__[method]) for c in _fusion_classes()]
    for c, original in saved:
        setattr(c, method, wrap(original))
    try:
        yield
    finally:
        for c, original in saved:
            setattr(c, method, original)


def _optimize(model, model_type: str) -> None:
    import logging

    import onnx
    from onnxruntime.transformers.optimizer import optimize_model

    logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    with contextlib.suppress(Exception):  # the optimizer failing is a finding elsewhere; what ran still counts
        optimize_model(copy, model_type, num_heads=0, hidden_size=0, opt_level=0)


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

    with _patched("__init__", wrap):
        for current[0] in (*MODEL_TYPES, *(t for t, why in more_types().items() if why is None)):
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

    with _patched("apply", wrap):
        for current[0] in MODEL_TYPES:
            _optimize(model, current[0])
    return out


def _ident(node) -> tuple[str, str, tuple[str, ...]]:
    """A node as the graph holds it: op type, name, outputs (protobuf wrappers are not stable objects)."""
    return node.op_type, node.name, tuple(node.output)
