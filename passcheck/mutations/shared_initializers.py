"""One initializer read by several node inputs ↔ one copy per reader, and equal initializers ↔ one.

IR.md §Graphs and §Nodes: an initializer that is not a graph input is a constant, a name may be read by
any number of node inputs, and the values of two constants with the same element type, dims and
content are the same; so readers may share one initializer or each read its own copy. Passes decide on
sharing: onnxruntime's ConstantSharing merges equal initializers and EnsureUniqueDQForNodeUnit gives QDQ
node units their own inputs; onnxscript and onnxoptimizer deduplicate initializers; fusions that fold a
constant into a node check how many nodes read it. Only the main graph's non-overridable initializers
(not graph inputs, from IR 4) move, so the model's interface is unchanged; graph outputs, values read
by subgraphs and external data keep their one name."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import protected
from passcheck.mutations._only import wanted

if TYPE_CHECKING:
    import onnx

#: Before IR 4 every initializer is also a graph input (overridable): a copy would change the interface.
FIRST_IR = 4


def _movable(model: onnx.ModelProto) -> dict[str, onnx.TensorProto]:
    import onnx

    g = model.graph
    if model.ir_version < FIRST_IR:
        return {}
    fixed = protected(g) | {v.name for v in g.input}
    return {t.name: t for t in g.initializer if t.name not in fixed and t.data_location != onnx.TensorProto.EXTERNAL}


def duplicate(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each movable initializer that two or more main-graph input slots read (two slots of one node
    count twice) → the first slot keeps it, every later slot reads its own copy (same element type,
    dims and storage, a fresh name, appended to the initializer list). Sites: the shared initializers'
    names."""
    import onnx

    g = model.graph
    movable = _movable(model)
    slots: dict[str, list[tuple[int, int]]] = {}
    for i, n in enumerate(g.node):
        for k, name in enumerate(n.input):
            if name in movable:
                slots.setdefault(name, []).append((i, k))
    taken: set[str] | None = None
    sites = []
    for name, readers in slots.items():
        if len(readers) < 2 or not wanted(only, name):
            continue
        taken = all_names(model) if taken is None else taken
        for i, k in readers[1:]:
            copy = onnx.TensorProto()
            copy.CopyFrom(movable[name])
            copy.name = fresh_name(taken, f"{name}_copy")
            g.initializer.append(copy)
            g.node[i].input[k] = copy.name
        sites.append(name)
    return sites


def _content_key(t: onnx.TensorProto) -> tuple:
    from onnx import numpy_helper

    array = numpy_helper.to_array(t)
    return (t.data_type, tuple(t.dims), array.tobytes() if array.dtype != object else repr(array.tolist()))


def merge(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each movable initializer equal to an earlier movable one (element type, dims and values, whatever
    their storage: raw_data or the typed field) → removed with its value_info entry, its main-graph
    readers reading the earlier one. Not one read by a subgraph (outer-scope names stay). Sites: the
    removed initializers' names."""
    g = model.graph
    movable = _movable(model)
    # values are read only where two movable initializers share element type and dims
    shapes: dict[tuple, int] = {}
    for t in movable.values():
        shapes[t.data_type, tuple(t.dims)] = shapes.get((t.data_type, tuple(t.dims)), 0) + 1
    first: dict[tuple, str] = {}
    rename: dict[str, str] = {}
    for t in g.initializer:
        if t.name not in movable or shapes[t.data_type, tuple(t.dims)] < 2:
            continue
        key = _content_key(t)
        if key not in first:
            first[key] = t.name
        elif wanted(only, t.name):
            rename[t.name] = first[key]
    if not rename:
        return []
    for n in g.node:
        n.input[:] = [rename.get(x, x) for x in n.input]
    keep = [t for t in g.initializer if t.name not in rename]
    del g.initializer[:]
    g.initializer.extend(keep)
    infos = [v for v in g.value_info if v.name not in rename]
    del g.value_info[:]
    g.value_info.extend(infos)
    return list(rename)


REWRITES = (
    Rewrite(
        "duplicate-shared-initializer",
        "an initializer read by several node inputs → one copy per reader (constants with equal values are equal)",
        duplicate,
        inverse="merge-duplicate-initializers",
    ),
    Rewrite(
        "merge-duplicate-initializers",
        "initializers with equal element type, dims and values → one initializer read by all their readers",
        merge,
        inverse="duplicate-shared-initializer",
    ),
)

FREEDOMS = (
    Freedom(
        "shared-or-duplicated-initializer",
        "initializers",
        "IR.md §Graphs (an initializer that is not a graph input is a constant), §Nodes (a name may be read by any "
        "number of node inputs)",
        "One initializer read by several node inputs may be one copy per reader, and initializers with equal "
        "element type, dims and values may be one.",
        ("duplicate-shared-initializer", "merge-duplicate-initializers"),
        "non-overridable main-graph initializers from IR 4 (not graph inputs, graph outputs, values read by "
        "subgraphs, or external data); a node reading one initializer in two slots counts as two readers.",
    ),
)
