"""The rewrite contract: a meaning-preserving edit of a model, and the record of where it applied."""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from passcheck.mutations._by_content import by_content

if TYPE_CHECKING:
    import onnx


#: Set while :meth:`Rewrite.sites` asks the edit of a rewrite declared ``lists`` for its labels (M211): such an edit
#: then returns the labels it would change and changes nothing, so no copy of the model is made.
LISTING: contextvars.ContextVar[bool] = contextvars.ContextVar("LISTING", default=False)


@dataclasses.dataclass(frozen=True)
class Applied:
    """Where one rewrite changed a model.

    Attributes:
        rewrite: the rewrite id.
        nodes: names of the nodes (or initializers / values, as ``detail`` says) it changed.
        count: how many sites changed (``len(nodes)``).
        detail: one line on what changed.
    """

    rewrite: str
    nodes: tuple[str, ...]
    detail: str = ""

    @property
    def count(self) -> int:
        return len(self.nodes)

    def to_json(self) -> dict:
        return {"rewrite": self.rewrite, "nodes": list(self.nodes), "count": self.count, "detail": self.detail}


class RewriteError(Exception):
    """A rewrite raised while editing a model (a bug in that rewrite, never a finding). The
    registry leaves such a form out with this message as its reason (see
    :func:`passcheck.mutations.registry.iter_mutants` ``failed``)."""


@dataclasses.dataclass(frozen=True)
class Rewrite:
    """A form rewrite with a stable id, applicable at one or more *sites* (nodes, values or
    initializers, each named by a stable label: the node name, ``#index:OpType`` for an unnamed
    node, or the value / initializer name).

    ``edit(model, only=None)`` changes the model it is given in place, only at the sites labelled
    in ``only`` (every site when None), and returns the labels it changed (empty: nothing to
    change). Labels are those of the model as given to ``edit``, so the same model always yields
    the same labels. :meth:`sites` and :meth:`apply` run it on a copy, so the caller's model is
    never touched.

    Attributes:
        id: stable id (``--form ID``; ``ID@LABEL`` for one site).
        doc: one line: the common form → the uncommon form, and the ONNX rule that allows it.
        edit: ``(model, only) → changed labels``; edits in place.
        inverse: id of the rewrite that undoes this one, if any.
        detail: what the labels name (nodes, initializers, values, tensors).
        site_signature: ``(label, signatures) → key or None``, for labels that name no entry of the
            model's site signatures (:func:`passcheck.mutations.sites.site_signatures`) as they are:
            an edge ``VALUE->READER``, a step ``SITE:NAME`` (:mod:`passcheck.mutations._value_sites`).
        withholds: the rewrite only withholds declarations a pass could infer (a main-graph output's dims):
            in a form with other rewrites both sides of the pair get it (:mod:`passcheck.mutations.withheld`).
        hides_shapes: the rewrite makes values' shapes unknowable to static inference on purpose (what a pass does
            with a value of unknown rank is its subject): a withheld pair with it would compare what the form hides,
            nothing the pass infers, so :func:`passcheck.mutations.withheld.forms` pairs no withholding rewrite with it.
        after: ids of rewrites whose output may hold sites of this one where the model as given has none (a
            node moved into a function body): :func:`passcheck.mutations.forms.enumerate_forms` then offers the
            depth-2 pair ``AFTER+ID`` when this rewrite applies to that output.
        lists: ``edit`` honours :data:`LISTING` (its labels, the model untouched: the value-site rewrites of
            :func:`passcheck.mutations._value_sites.insert`); :meth:`sites` then edits no copy.
    """

    id: str
    doc: str
    edit: Callable[..., list[str]]
    inverse: str | None = None
    detail: str = "nodes"
    site_signature: Callable[[str, Mapping[str, object]], object | None] | None = None
    withholds: bool = False
    hides_shapes: bool = False
    after: tuple[str, ...] = ()
    lists: bool = False
    #: The sites at one node are alternatives (``NODE:perm-P`` of transpose-conjugate-perm: one layout per node at a
    #: time): the all-at-once form writes one of each node's sites, so :meth:`sites` lists more than it changes.
    alternatives: bool = False

    def signature(self, label: str, signatures: Mapping[str, object]) -> object:
        """What a pass's pattern matcher sees at site ``label``, the key by which one site stands for the
        others: the ``site_signature`` hook's answer when it gives one, else ``signatures[label]``, else
        the label itself."""
        if self.site_signature is not None and (got := self.site_signature(label, signatures)) is not None:
            return got
        return signatures.get(label, label)

    def sites(self, model: onnx.ModelProto) -> list[str]:
        """Every label where this rewrite applies to ``model`` (found by editing a copy, or for a rewrite declared
        ``lists`` by its edit under :data:`LISTING`, which changes nothing), in model order.

        Raises:
            RewriteError: the edit raised (its type and message named).
        """
        if not self.lists:
            return self._edit(_copy(model), None)
        token = LISTING.set(True)
        try:
            return self._edit(model, None)
        finally:
            LISTING.reset(token)

    def _edit(self, model: onnx.ModelProto, only: frozenset[str] | None) -> list[str]:
        try:
            return self.edit(model, only)
        except Exception as exc:  # noqa: BLE001 - any failure of an edit is that rewrite's bug, reported as one
            raise RewriteError(f"rewrite {self.id!r} raised {type(exc).__name__}: {exc}") from exc

    def apply(
        self, model: onnx.ModelProto, sites: Iterable[str] | None = None
    ) -> tuple[onnx.ModelProto, Applied] | None:
        """A rewritten copy of ``model`` (only at ``sites`` when given) and where it changed, or None
        when nothing changed (the pattern does not occur, or none of ``sites`` is a site).

        Raises:
            RewriteError: the edit raised (its type and message named).
        """
        copy = _copy(model)
        changed = self._edit(copy, None if sites is None else frozenset(sites))
        if not changed:
            return None
        return copy, Applied(self.id, tuple(changed), f"{len(changed)} {self.detail}")


def _copy(model: onnx.ModelProto) -> onnx.ModelProto:
    import onnx

    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    return copy


def chosen(only: frozenset[str] | None, label: str) -> bool:
    """Whether the site ``label`` is one an edit limited to ``only`` may change (None: every site)."""
    return only is None or label in only


def node_label(node: onnx.NodeProto, index: int) -> str:
    """A node's name, or ``#index:OpType`` for an unnamed node."""
    return node.name or f"#{index}:{node.op_type}"


def opset(model: onnx.ModelProto, domain: str = "") -> int:
    """The model's opset version for ``domain`` (0 when not imported)."""
    for o in model.opset_import:
        if o.domain in ((domain, "ai.onnx") if domain == "" else (domain,)):
            return o.version
    return 0


def is_default_domain(node: onnx.NodeProto) -> bool:
    return node.domain in ("", "ai.onnx")


def subgraphs(node: onnx.NodeProto) -> Iterator[onnx.GraphProto]:
    """The graphs held by a node's attributes (If branches, Loop/Scan bodies)."""
    for a in node.attribute:
        if a.HasField("g"):
            yield a.g
        yield from a.graphs


def names_used_in_subgraphs(graph: onnx.GraphProto) -> set[str]:
    """Every value name read by a node inside any subgraph of ``graph`` (outer-scope reads included)."""
    used: set[str] = set()

    def walk(g: onnx.GraphProto) -> None:
        for n in g.node:
            used.update(n.input)
            for sg in subgraphs(n):
                walk(sg)

    for n in graph.node:
        for sg in subgraphs(n):
            walk(sg)
    return used


def consumers(graph: onnx.GraphProto) -> dict[str, list[int]]:
    """Value name → indices of main-graph nodes that read it directly."""
    out: dict[str, list[int]] = {}
    for i, n in enumerate(graph.node):
        for name in n.input:
            if name:
                out.setdefault(name, []).append(i)
    return out


def redirect_reads(graph: onnx.GraphProto, readers: Iterable[int], old: str, new: str) -> None:
    """Rename the input ``old`` to ``new`` in the main-graph nodes at ``readers`` (indices, as :func:`consumers`)."""
    for j in readers:
        node = graph.node[j]
        for k, x in enumerate(node.input):
            if x == old:
                node.input[k] = new


def static_tensors(graph: onnx.GraphProto) -> dict[str, onnx.TensorProto]:
    """Values whose content is fixed in the graph: non-overridable initializers and Constant(value=tensor) outputs."""
    inputs = {v.name for v in graph.input}
    found = {t.name: t for t in graph.initializer if t.name not in inputs}
    for n in graph.node:
        if (
            n.op_type == "Constant"
            and is_default_domain(n)
            and len(n.attribute) == 1
            and n.attribute[0].name == "value"
        ):
            found[n.output[0]] = n.attribute[0].t
    return found


def static_vector(static: dict[str, onnx.TensorProto], name: str) -> list[int] | None:
    """The values of ``name`` as ints when ``static`` (from :func:`static_tensors`) holds it as a rank-1 tensor
    (a shape, axes, starts, ... operand), else None."""
    from onnx import numpy_helper

    t = static.get(name)
    return None if t is None or len(t.dims) != 1 else [int(v) for v in numpy_helper.to_array(t)]


class Names(set):
    """A set of names that also keeps, per base name, the largest ``N`` :func:`fresh_name` has found ``base_N``
    taken at (so ``base_1`` … ``base_N`` are all in the set): the next ``fresh_name(names, base)`` starts there
    instead of at 1, with the same result. A rewrite that wraps each of 1,100 chained Identity nodes into an If
    (``deep-identity-chain+node-in-if-const``) names 2,200 branch graphs ``then_N`` / ``else_N``: a scan from 1
    each time tried 1.2 million names. The hints hold only while the set does not shrink: every method that
    removes a name forgets them, and a copy gets its own."""

    __slots__ = ("_scanned",)

    def __init__(self, names: Iterable[str] = ()) -> None:
        super().__init__(names)
        self._scanned: dict[str, int] = {}

    def copy(self) -> Names:
        out = Names(self)
        out._scanned.update(self._scanned)
        return out

    __copy__ = copy

    def __deepcopy__(self, memo) -> Names:
        return self.copy()

    def __reduce__(self):
        return (Names, (set(self),))


def _forgetting(method: str) -> Callable:
    plain = getattr(set, method)

    def shrinking(self, *args):
        self._scanned.clear()
        out = plain(self, *args)
        return self if out is NotImplemented or method.startswith("__i") else out

    shrinking.__name__ = method
    return shrinking


for _method in (
    "discard",
    "remove",
    "pop",
    "clear",
    "difference_update",
    "intersection_update",
    "symmetric_difference_update",
    "__isub__",
    "__iand__",
    "__ixor__",
):
    setattr(Names, _method, _forgetting(_method))


def fresh_name(taken: set[str], base: str) -> str:
    """``base`` or ``base_N`` (the least ``N`` from 1), not in ``taken``; the result is added to ``taken``. With a
    :class:`Names` set the scan for ``N`` resumes where the last one for ``base`` ended."""
    scanned = taken._scanned if isinstance(taken, Names) else None
    name, i = base, 0
    while name in taken:
        i = i + 1 if i or scanned is None else scanned.get(base, 0) + 1
        name = f"{base}_{i}"
    if i and scanned is not None:
        scanned[base] = i
    taken.add(name)
    return name


@by_content(Names.copy)
def all_names(model: onnx.ModelProto, data: bytes = b"") -> Names:
    """Every value and node name in the model, subgraphs included (a :class:`Names` set). Called as
    ``all_names(model)``: kept per content (:func:`._by_content.by_content`), each call gets its own set."""
    names = Names()

    def walk(g: onnx.GraphProto) -> None:
        names.update(v.name for v in list(g.input) + list(g.output) + list(g.value_info))
        names.update(t.name for t in g.initializer)
        for n in g.node:
            names.update(n.input)
            names.update(n.output)
            names.add(n.name)
            for sg in subgraphs(n):
                walk(sg)

    walk(model.graph)
    return names


def labels(graph: onnx.GraphProto, indices: Iterable[int]) -> list[str]:
    return [node_label(graph.node[i], i) for i in indices]


def value_shapes(model: onnx.ModelProto) -> dict[str, tuple[int | None, ...]]:
    """Main-graph tensor value → its shape as onnx shape inference sees it (a dim is its
    dim_value, or None when symbolic or unknown); values of unknown rank are left out (see
    :func:`passcheck.mutations._shapes.known`)."""
    from passcheck.mutations._shapes import known

    return {
        name: tuple(d if isinstance(d, int) else None for d in k.dims)
        for name, k in known(model).items()
        if k.dims is not None
    }


def drop_unused(graph: onnx.GraphProto, names: Iterable[str], initializers: bool = True) -> None:
    """Remove the Constant nodes (and non-input initializers, unless ``initializers`` is False)
    among ``names`` that nothing reads any more (no node, subgraph or graph output), and the
    value_info of those of ``names`` that no longer exist."""
    read = {x for n in graph.node for x in n.input} | {o.name for o in graph.output} | names_used_in_subgraphs(graph)
    dead = set(names) - read
    if not dead:
        return
    keep = [n for n in graph.node if not (n.op_type == "Constant" and is_default_domain(n) and n.output[0] in dead)]
    if len(keep) != len(graph.node):
        del graph.node[:]
        graph.node.extend(keep)
    inputs = {v.name for v in graph.input}
    inits = [t for t in graph.initializer if t.name not in dead or t.name in inputs or not initializers]
    if len(inits) != len(graph.initializer):
        del graph.initializer[:]
        graph.initializer.extend(inits)
    exist = {o for n in graph.node for o in n.output} | {t.name for t in graph.initializer} | inputs
    info = [v for v in graph.value_info if v.name not in dead or v.name in exist]
    if len(info) != len(graph.value_info):
        del graph.value_info[:]
        graph.value_info.extend(info)


def static_axes(node: onnx.NodeProto, static: dict[str, onnx.TensorProto]) -> list[int] | None:
    """A node's ``axes`` when fixed in the graph: the attribute, or its second input when that is
    one of ``static`` (see :func:`static_tensors`); None otherwise."""
    from onnx import numpy_helper

    for a in node.attribute:
        if a.name == "axes":
            return list(a.ints)
    if len(node.input) > 1 and node.input[1] in static:
        return [int(v) for v in numpy_helper.to_array(static[node.input[1]]).reshape(-1)]
    return None
