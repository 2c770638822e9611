"""Type-constraint groups split at a shared constant: which parts are new neighbours, and the per-reader copies a
moved part gives its readers (the ``elem-split-<type>`` variation kinds of :mod:`.variation`).

A type variable ties element types within one node only (Operators.md: each schema's ``type_constraints``); two
nodes share a type because one computes the value the other reads. A constant (IR.md: an initializer no graph
input overrides, or a Constant's output) is data, not a computed value: each of its readers may as well read a
copy of it in another element type. QuantizeLinear-19 binds ``x`` and ``y_scale`` to ``T1`` and
DequantizeLinear-19 binds ``x_scale`` and ``y`` to ``T2``, so a Q → DQ pair reading one scale initializer may read
a float scale in the Q and a float16 one in the DQ; the whole groups of :class:`.elem_groups.Groups` (closed under
sharing) never move the two apart.

A *part* is a group of the split :class:`~.elem_groups.Groups` (``split=True``). It is a neighbour of its own when
it differs from the whole group holding it: some value of the whole group is neither in the part nor a shared
constant all of whose readers' copies are (:func:`parts`). Moving a part gives each reader in it a copy of the
constant cast to the new type (:func:`write_copies`); the constant stays as it is for its other readers.

**Values.** A copy holds what a Cast to the new type gives (Operators.md Cast: floats round to the nearest
representable value, a float to an integer drops its fraction), which for a float copy is the rounding the elem
kinds already accept when they move a whole group (:func:`.elem_groups.cast_values`). Where that function is no
cast (a float clipped to float16's finite range, a float rounded and clipped into a small integer range, an
integer clipped into a narrower type's range) the copy would hold another value than its original for the other
readers, so no copy is written (:class:`ValueError`): the part has no neighbour of that type.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from passcheck.hunt.elem_groups import Copy, Groups, Member, cast_values

if TYPE_CHECKING:
    import numpy as np
    import onnx


def parts(split: Groups, whole: Groups) -> Iterator[tuple[frozenset[Member], str]]:
    """(part, site label) of every part of ``split`` (a model's ``Groups(..., split=True)``; ``whole``: its
    ``Groups``) that has one element type and differs from its whole group (module docs). The label is
    the part's first graph input, else its smallest value name; a part of copies alone (a shared constant read
    where no computed value shares its type) has none and is left out."""
    inputs = [v.name for v in split.model.graph.input]
    for part in split.all():
        names = {m for m in part if isinstance(m, str)}
        if not names or split.source(part) is None:
            continue
        group = whole.of(min(names))
        if group is None or all(v in part or split.copies.get(v, {None}) <= part for v in group):
            continue
        yield part, next((v for v in inputs if v in names), min(names))


def touched(groups: Groups, part: frozenset[Member]) -> list[int]:
    """Indices of the main-graph nodes that bind a member of ``part`` to a type variable: the nodes whose element
    types moving it changes."""
    return [i for i, vars_ in enumerate(groups.bound) if any(part & set(vs) for vs in vars_.values())]


def as_cast(arr: np.ndarray, to: int) -> np.ndarray:
    """``arr`` cast to element type ``to`` (:func:`.elem_groups.cast_values`), when that is what a Cast gives.

    Raises:
        ValueError: :func:`.elem_groups.cast_values` clips or rounds to an integer here (module docs).
    """
    import numpy as np

    out = cast_values(arr, to)
    with np.errstate(all="ignore"):
        plain = np.asarray(arr).astype(out.dtype)
    if not np.array_equal(out, plain, equal_nan=out.dtype.kind == "f"):
        raise ValueError(f"a copy as element type {to} is no cast of its constant")
    return out


def move(model: onnx.ModelProto, group: frozenset[Member], src: int, to: int) -> frozenset[str]:
    """:func:`.elem_groups.move` for a group that may hold :class:`~.elem_groups.Copy` members: each copy's reader
    gets its own constant first (:func:`write_copies`), in place. Returns the names of the group's values in the
    moved model (copies by their new names).

    Raises:
        ValueError: a copy's values are no cast of its constant (:func:`as_cast`).
    """
    from passcheck.hunt import elem_groups

    copied, in_place = write_copies(model, [m for m in group if isinstance(m, Copy)], src, to)
    names = frozenset(m for m in group if isinstance(m, str)) | in_place
    elem_groups.move(model, names, src, to)
    return names | copied


def write_copies(model: onnx.ModelProto, copies: Iterable[Copy], src: int, to: int) -> tuple[frozenset[str], set[str]]:
    """Give each copy's reader (``model.graph.node[copy.node]``) its own constant: the shared one cast from
    ``src`` to ``to`` (:func:`as_cast`), an initializer for an initializer, a Constant node placed before the
    reader for a Constant's output, every input slot of the reader that reads it renamed. A constant whose every
    reader is among ``copies`` is left for the caller to move in place. Returns (the copies' names, the constants
    left to move in place).

    Raises:
        ValueError: a copy's values are no cast of its constant (:func:`as_cast`).
    """
    from onnx import helper, numpy_helper

    from passcheck.hunt.graph_values import constants
    from passcheck.mutations._base import all_names, fresh_name

    g = model.graph
    by_value: dict[str, set[int]] = {}
    for c in copies:
        by_value.setdefault(c.value, set()).add(c.node)
    if not by_value:
        return frozenset(), set()
    readers: dict[str, set[int]] = {}
    for i, node in enumerate(g.node):
        for v in node.input:
            readers.setdefault(v, set()).add(i)
    in_place = {v for v, nodes in by_value.items() if nodes >= readers.get(v, set())}
    values = constants(model)
    taken = all_names(model)
    made: set[str] = set()
    before: dict[int, list[onnx.NodeProto]] = {}
    suffix = helper.tensor_dtype_to_np_dtype(to).name if to != 16 else "bfloat16"
    for v, nodes in sorted(by_value.items()):
        if v in in_place:
            continue
        arr = as_cast(values[v], to)
        from_node = not any(t.name == v for t in g.initializer)
        for i in sorted(nodes):
            reader = g.node[i]
            new = fresh_name(taken, f"{v}_{suffix}_{reader.name or i}")
            made.add(new)
            for k, name in enumerate(reader.input):
                if name == v:
                    reader.input[k] = new
            tensor = numpy_helper.from_array(arr, new)
            if from_node:
                tensor.ClearField("name")
                const = helper.make_node("Constant", [], [new], name=fresh_name(taken, f"{new}_constant"), value=tensor)
                before.setdefault(i, []).append(const)
            else:
                g.initializer.append(tensor)
    if before:
        nodes = [n for i, node in enumerate(g.node) for n in [*before.get(i, []), node]]
        del g.node[:]
        g.node.extend(nodes)
    return frozenset(made), in_place
