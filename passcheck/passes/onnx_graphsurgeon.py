"""onnx-graphsurgeon (NVIDIA's graph surgeon, ``import onnx_graphsurgeon as gs``): the graph clean-up TensorRT users and
Polygraphy run on a model before building an engine.

Every id imports the model into gs's IR (``gs.import_onnx``), applies the operation its tool documents, and exports it
back (``gs.export_onnx``); the export must carry what the ONNX IR lets a model hold (value_info, ``dim_param``,
denotations, omitted optional inputs ``""``, subgraphs, model-local functions, opset imports, metadata, initializers),
since gs's own docs call the round trip lossless for a graph it can represent:

- ``onnx-gs:round-trip``: import → export, nothing else;
- ``onnx-gs:toposort``: ``Graph.toposort()`` (defaults: ``recurse_subgraphs``, ``recurse_functions``, ``mode="full"``);
- ``onnx-gs:cleanup``: ``Graph.cleanup()`` (defaults: unused nodes removed, subgraphs and functions recursed, graph
  inputs and node outputs kept); ``onnx-gs:cleanup-outputs`` also ``remove_unused_node_outputs=True`` ("never removes
  empty-tensor, i.e. optional but omitted, outputs", its docstring);
- ``onnx-gs:fold-constants``: ``toposort()``, ``fold_constants()`` and ``cleanup()`` — the sequence gs's docstring asks
  for ("the graph's nodes must be topologically sorted prior"; "will not remove constants … run cleanup()") and
  Polygraphy's ``surgeon sanitize --fold-constants`` runs; ``fold_constants`` lowers ``Constant`` nodes, elides
  int → float → int ``Cast`` pairs around shape arithmetic, folds ``Shape`` / ``Shape→Gather`` / ``Shape→Slice`` of
  static shapes by its own code and evaluates the rest of the constant part with onnxruntime (CPU);
  ``-no-shapes`` is ``fold_shapes=False`` (no cast elision, no Shape folding); ``-partition`` is
  ``partitioning="recursive"`` (a part onnxruntime cannot evaluate is split until the rest folds).

Each is an extra install (``pip install onnx-graphsurgeon``; pin in ``ci/tool-envs/onnx-graphsurgeon.txt``):
missing, the pass is ``unavailable`` with that command. gs's ``G_LOGGER.critical`` raises
``OnnxGraphSurgeonException``: a model gs refuses with its own error is ``declined``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from passcheck.passes._base import PassAdapter, PassDeclined, PassUnsupported

PREFIX = "onnx-gs:"

#: id suffix → (the Graph methods called in order, each with its keyword arguments). ``fold`` variants declare
#: ``folds_constants`` (``-no-shapes`` with ``folds_shapes`` False: it is asked to leave Shape nodes); every variant
#: that removes or rewrites nodes declares ``optimizes``.
VARIANTS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "round-trip": (),
    "toposort": (("toposort", {}),),
    "cleanup": (("cleanup", {}),),
    "cleanup-outputs": (("cleanup", {"remove_unused_node_outputs": True}),),
    "fold-constants": (("toposort", {}), ("fold_constants", {}), ("cleanup", {})),
    "fold-constants-no-shapes": (("toposort", {}), ("fold_constants", {"fold_shapes": False}), ("cleanup", {})),
    "fold-constants-partition": (
        ("toposort", {}),
        ("fold_constants", {"partitioning": "recursive"}),
        ("cleanup", {}),
    ),
}


def call_text(name: str) -> str:
    """The Python expression the variant ``name`` evaluates, ``graph`` being ``gs.import_onnx(model)``:
    ``gs.export_onnx(graph.toposort().fold_constants().cleanup())`` (each method returns the graph)."""
    chain = "".join(f".{m}({', '.join(f'{k}={v!r}' for k, v in kw.items())})" for m, kw in VARIANTS[name])
    return f"gs.export_onnx(graph{chain})"


class OnnxGraphsurgeonAdapter(PassAdapter):
    """``onnx-gs:<variant>`` (:data:`VARIANTS`): ``gs.export_onnx`` of ``gs.import_onnx(model)`` after the variant's
    Graph methods.

    Input: any ModelProto gs imports (tensor, sequence, optional types; gs keeps no map or sparse type). Output: the
    exported ModelProto. Raises :class:`~passcheck.passes.PassDeclined` when gs refuses the model with its own
    ``OnnxGraphSurgeonException`` (``G_LOGGER.critical``), :class:`~passcheck.passes._base.PassUnsupported`
    (``unavailable``) when the model holds an attribute type gs's importer says it skips
    (:func:`skipped_attribute_types`); any other exception is ``crashed``."""

    tools = ("onnx-graphsurgeon",)
    extra = "onnx-graphsurgeon"
    warm = ("onnx_graphsurgeon",)

    def __init__(self, name: str):
        self.name = name
        self.id = PREFIX + name
        # ``fold_shapes=False`` asks gs not to fold a Shape of a static shape: ``folds_shapes`` says so, and the
        # folding and parity oracles then judge its constant-only chains only (PassAdapter.folds_shapes).
        self.folds_constants = name.startswith("fold-constants")
        self.folds_shapes = name != "fold-constants-no-shapes"
        self.optimizes = name.startswith(("fold-constants", "cleanup"))
        self.doc = (
            f"onnx_graphsurgeon: {call_text(name)}, graph = gs.import_onnx(model) (pip install onnx-graphsurgeon)"
        )

    def own_stated_limit(self, model) -> str | None:
        """gs's importer's warning when ``model`` holds an attribute type it skips (:func:`skipped_attribute_types`),
        or None; a pass that runs gs whole meets it through its ``steps`` (``PassAdapter.stated_limit``)."""
        skipped = skipped_attribute_types(model)
        if not skipped:
            return None
        return (
            f"onnx_graphsurgeon: Attribute of type {', '.join(skipped)} is currently unsupported. Skipping "
            "attribute. (its importer's warning: the node would be exported without it)"
        )

    def apply(self, model, workdir: Path):
        import onnx_graphsurgeon as gs

        limit = self.own_stated_limit(model)
        if limit is not None:
            raise PassUnsupported(limit)
        try:
            graph = gs.import_onnx(model)
            for method, kwargs in VARIANTS[self.name]:
                graph = getattr(graph, method)(**kwargs)
            return gs.export_onnx(graph)
        except gs.OnnxGraphSurgeonException as exc:
            raise PassDeclined(f"onnx_graphsurgeon: {exc}") from exc


def skipped_attribute_types(model) -> list[str]:
    """The attribute types of ``model`` (main graph, subgraphs, model-local functions) gs's importer skips, sorted.

    ``OnnxImporter.import_attributes`` keeps an attribute only when its type name (``ATTR_TYPE_MAPPING``) is in
    ``ONNX_PYTHON_ATTR_MAPPING`` (FLOAT, INT, STRING, TENSOR, GRAPH, FLOATS, INTS, STRINGS); any other type (TENSORS,
    GRAPHS, SPARSE_TENSOR(S), TYPE_PROTO(S)) is dropped with the warning "Attribute of type … is currently
    unsupported. Skipping attribute." Read from the installed gs's own tables. Returns [] when gs keeps every one.
    Raises ImportError when onnx-graphsurgeon is not installed."""
    from onnx_graphsurgeon.importers import onnx_importer as imp

    kept = set(imp.ONNX_PYTHON_ATTR_MAPPING)
    found: set[str] = set()
    pending = [list(model.graph.node)] + [list(f.node) for f in model.functions]
    while pending:
        for node in pending.pop():
            for attr in node.attribute:
                name = imp.ATTR_TYPE_MAPPING.get(attr.type, str(attr.type))
                if name not in kept and not attr.ref_attr_name:
                    found.add(name)
                pending.extend(list(g.node) for g in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs))
    return sorted(found)


ADAPTERS = tuple(OnnxGraphsurgeonAdapter(name) for name in VARIANTS)
