"""Documentation and metadata are free (IR.md §Models, §Graphs, §Nodes, §Optional Metadata, §Other
Metadata): doc_string on the model, graphs, nodes, values, attributes and functions, and the
model's producer fields and metadata_props, never change what a model computes.

- ``add-doc-strings`` / ``strip-doc-strings``: a doc_string on every model part that takes one /
  every doc_string cleared. Sites: ``model``, graph names, node labels, function names.
- ``add-metadata`` / ``strip-metadata``: producer_name/producer_version/domain/model_version and a
  metadata_props entry on the model (and, from IR 10, on graphs, their inputs, outputs and
  value_info, nodes and functions) / all cleared. Sites as above.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, chosen
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._scopes import scopes

if TYPE_CHECKING:
    import onnx

_DOC = "documented by passcheck"
_KEY = "org.passcheck.spelling"  # a reverse-DNS qualified key, as IR.md §Other Metadata recommends


def _parts(model: onnx.ModelProto) -> Iterator[tuple[str, object, list]]:
    """(site label, proto, the protos under it that carry doc_string: value infos, attributes, tensors)."""
    yield "model", model, []
    for scope in scopes(model):
        b = scope.body
        if scope.is_graph:
            yield b.name, b, [*b.input, *b.output, *b.value_info, *b.initializer]
        else:
            yield f"{b.name}", b, []
        for i, n in enumerate(b.node):
            yield scope.label(n, i), n, list(n.attribute)


def _doc(model: onnx.ModelProto, only: frozenset[str] | None, add: bool) -> list[str]:
    sites = []
    for label, proto, under in _parts(model):
        if not chosen(only, label):
            continue
        changed = False
        for p in [proto, *under]:
            if add and not p.doc_string:
                p.doc_string = _DOC
                changed = True
            elif not add and p.doc_string:
                p.ClearField("doc_string")
                changed = True
        if changed:
            sites.append(label)
    return list(dict.fromkeys(sites))


def add_doc_strings(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """A doc_string on every part that has none."""
    return _doc(model, only, add=True)


def strip_doc_strings(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Every doc_string cleared."""
    return _doc(model, only, add=False)


_MODEL_FIELDS = (
    ("producer_name", "passcheck"),
    ("producer_version", "0"),
    ("domain", "org.passcheck"),
    ("model_version", 1),
)


def _meta(model: onnx.ModelProto, only: frozenset[str] | None, add: bool) -> list[str]:
    import onnx

    sites = []
    for label, proto, under in _parts(model):
        if not chosen(only, label):
            continue
        changed = False
        if model.ir_version >= 10:  # ValueInfoProto.metadata_props: IR >= 10 (IR.md §Other Metadata)
            for v in under:
                if isinstance(v, onnx.ValueInfoProto):
                    changed |= _props(v.metadata_props, add)
        if proto is model:
            for field, value in _MODEL_FIELDS:
                if add and not model.HasField(field):
                    setattr(model, field, value)
                    changed = True
                elif not add and model.HasField(field):
                    model.ClearField(field)
                    changed = True
        elif model.ir_version < 10:
            continue  # metadata_props on graphs, nodes and functions: IR >= 10
        changed |= _props(proto.metadata_props, add)
        if changed:
            sites.append(label)
    return list(dict.fromkeys(sites))


def _props(props, add: bool) -> bool:
    """Add passcheck's entry to ``props`` (or clear them all); whether anything changed."""
    import onnx

    if add and not any(p.key == _KEY for p in props):
        props.append(onnx.StringStringEntryProto(key=_KEY, value="1"))
        return True
    if not add and len(props):
        del props[:]
        return True
    return False


def add_metadata(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Producer fields and a metadata_props entry on the model (and graphs, nodes, functions from IR 10)."""
    return _meta(model, only, add=True)


def strip_metadata(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Producer fields and every metadata_props entry cleared."""
    return _meta(model, only, add=False)


REWRITES = (
    Rewrite(
        "add-doc-strings",
        "a doc_string on the model and every graph, node, value, attribute, initializer and function without one",
        add_doc_strings,
        inverse="strip-doc-strings",
        detail="parts",
    ),
    Rewrite(
        "strip-doc-strings", "every doc_string cleared", strip_doc_strings, inverse="add-doc-strings", detail="parts"
    ),
    Rewrite(
        "add-metadata",
        "producer fields and metadata_props on the model (graphs, values, nodes, functions from IR 10)",
        add_metadata,
        inverse="strip-metadata",
        detail="parts",
    ),
    Rewrite(
        "strip-metadata",
        "producer fields and every metadata_props entry cleared",
        strip_metadata,
        inverse="add-metadata",
        detail="parts",
    ),
)

FREEDOMS = (
    Freedom(
        "doc-strings",
        "graphs",
        "IR.md §Models, §Graphs, §Nodes, §Attributes (doc_string: human-readable, free form)",
        "Any part of a model may carry documentation or none; it never enters the computation.",
        ("add-doc-strings", "strip-doc-strings"),
        "model, main graph, subgraphs, function bodies, nodes, value infos, initializers, attributes.",
    ),
    Freedom(
        "model-metadata",
        "graphs",
        "IR.md §Models (producer_name, producer_version, domain, model_version), "
        "§Optional Metadata, §Other Metadata (metadata_props; on graphs, nodes, functions from IR 10)",
        "Producer fields and metadata key-value pairs describe a model without changing what it computes.",
        ("add-metadata", "strip-metadata"),
        "the model; graphs, their inputs, outputs and value_info, nodes and function bodies when the IR "
        "version is >= 10.",
    ),
)
