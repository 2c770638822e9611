"""Parity: after the same pass, the forms of a case are treated alike.

- *ops*: an op type the pass removed from one form (a fusion, a fold) but not from another
  form that had it too is a ``missed-optimization`` on the form that kept it — unless the form
  that lost it is shown wrong (numbers differ, an output is missing, or its output fails to run
  where the other's runs): a wrong fusion is the numeric oracle's ``wrong-result`` on that form,
  and the form left alone is not blamed. Not counted as kept: nodes with nothing to merge with
  (reading graph inputs only, read by no node: an Identity from a graph input to a graph output
  cannot go without renaming the interface) when the other form's nodes were eliminated, not
  replaced by new ops, and an op the other form lost only by expanding
  its schema's function body (a runtime without a kernel for that version inlines it; Operators.md
  "function"): expansion is no optimization. The Casts onnxruntime inserts around a kernel it
  lacks for an element type (:func:`~passcheck.oracles.ort_own_ops.inserted_casts`) are not
  counted either. When neither form kept anything the other lost, different new op types are still
  no finding if the pass made the same change to both (the same ops added and removed, counted by
  type), and an added Identity is no new op type (:data:`NOT_NEW`); nor, for a pass that declares it treats ops
  by type alone, when the forms are spelled with different op types (:func:`_by_type_differs`). Nor is a node kept
  that reads
  (directly or through other nodes) an overridable default of its form which the other form spells
  as a constant, or that is linked through kept nodes to one that does (a fusion takes the whole
  pattern): a pass may fold only the constant spelling (IR.md §Graphs). Nor, for a pass that folds only all-constant
  nodes (``FormRun.folds_shapes`` False), a node that reads a fed graph input through other nodes
  (:func:`_behind_inputs`). Nor is a Pad kept whose pads hold a
  negative entry (Operators.md Pad-11+: it removes elements), or whose every reader is such a Pad or a Pad
  counted out likewise: the window ops a Pad folds into take non-negative pads only (Conv, AveragePool: "pads
  … value must be greater than or equal to 0"), so no fold may take it, and a fold that does is the
  conformance oracle's ``window-pads-non-negative``. Nor are Identity nodes kept that an interface needs
  (:mod:`~passcheck.oracles.interface_copies`: a graph, subgraph or function output copying an input, another
  output, an outer-scope value, or a value another such copy reads). A missed optimization whose kept nodes
  border nodes that only the keeping form spells and the pass kept says so (``behind [OP]``,
  ``details["barrier"]``: :func:`_barrier`), so a pattern cut by a node the pass does not remove is grouped on
  that node, not on the fusion;
- *precision*: the pass output's graph-output annotations are less precise on one form
  (rank unknown where the other knows it; fewer ``dim_value`` / named dims; a name the pass made
  up for one unknown dim, such as ``unk__2``, counts as unnamed) → ``less-precise``,
  only when the more precise annotation holds in every run (a wrong one is the annotations
  oracle's ``annotation-violated`` on its own form), and only when the pass made the gap: not when it
  gained nothing on the more precise form and lost nothing on the other, i.e. it kept what each form
  declares (a form may leave a shape unspecified, IR.md "Static tensor shapes": that is the form's own
  annotation, not a pass that infers less; onnxruntime saves every graph output's declared type as given),
  nor when the less precise form's graph inputs declare less (a dim named where the other gives its value:
  :func:`inputs_say_less`) and the pass kept that form's own output declaration (what it inferred beyond
  it starts from inputs that say less), nor when the pass declares it writes a graph it rewrote nothing in as given
  (:attr:`~passcheck.oracles.FormRun.writes_given_unchanged`: onnxruntime's saved optimized model is the loaded
  GraphProto itself unless a transformer changed the graph, ``Graph::ToGraphProto`` in ``core/graph/graph.cc``)
  and returned the less precise form's main graph unchanged (:func:`returned_as_given`; a Constant node it loaded as
  an initializer is no change): its inference on that form
  is not in the output, so the gap is no evidence of it inferring less (a rewrite on the other form, such as an
  Identity removed, is what made that form's output carry inferred types). The message names the node producing
  the output on the less precise form, its element type and each dim it knows less of (``details["dims"]``).
  Nor when every dim it knows less of is one a sequence's type cannot carry: an output read out of a sequence
  (ConcatFromSequence's axis, an axis where the sequence's elements differ: :mod:`~passcheck.oracles.sequence_dims`,
  onnx.proto ``TypeProto.Sequence`` has one element type and no length) — no type-level inference knows it;

Status parity (accepted on one form, refused on another) is reported by the acceptance oracle.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from passcheck.oracles import annotations, numeric
from passcheck.oracles._context import FormRun, op_key
from passcheck.oracles._context import op_counts as _all_op_counts
from passcheck.oracles._contract import BaseOracle, Cells
from passcheck.oracles.ort_own_ops import inserted_casts
from passcheck.oracles.sequence_dims import uncarried
from passcheck.records import Finding

NAME = "parity"
#: A Constant node and an initializer are two spellings of one value (Operators.md Constant):
#: a pass may leave either, so Constant nodes do not count as ops here.
SPELLINGS = {"Constant"}
#: Op types that are no rewrite of their own when a pass adds them: an Identity computes nothing (Operators.md
#: Identity); a pass leaves one where it drops a node but keeps its output's name (onnxscript's rewriter turns a
#: same-type Cast and an identity-perm Transpose into Identity), so gaining one is no different rewrite.
NOT_NEW = {"Identity"}


def op_counts(model):
    """Op-type multiset without constant spellings (see SPELLINGS)."""
    counts = _all_op_counts(model)
    for op in SPELLINGS:
        counts.pop(op, None)
    return counts


def _after(run: FormRun) -> Counter:
    """:func:`op_counts` of the pass output without the Casts onnxruntime inserted
    (:func:`~passcheck.oracles.ort_own_ops.inserted_casts`: not ops of the pass's rewrite here)."""
    counts = op_counts(run.output)
    inserted = len(inserted_casts(run.model, run.output))
    if inserted:
        counts["Cast"] -= inserted
        if counts["Cast"] <= 0:
            del counts["Cast"]
    return counts


def _delta(run: FormRun) -> tuple[Counter, Counter]:
    """(ops the pass added, ops it removed), as multisets of op types."""
    before, after = op_counts(run.model), _after(run)
    return after - before, before - after


def check(runs: Sequence[FormRun], checks: frozenset[str] = frozenset({"ops", "precision"})) -> list[Finding]:
    """Compare every uncommon form with the first (``common``) form."""
    if len(runs) < 2:
        return []
    found: list[Finding] = []
    common = runs[0]
    for other in runs[1:]:
        if common.output is None or other.output is None:
            continue
        if "ops" in checks and common.optimizes:
            found += _ops(common, other)
        if "precision" in checks:
            found += _precision(common, other) + _precision(other, common)
    return found


def _by_type_differs(c: FormRun, f: FormRun) -> bool:
    """Whether the pass declares it treats ops by type alone (:attr:`FormRun.by_type`: the float16 conversion's
    op block list, a quantizer's registry) and the two forms spell the computation with different op types: the
    pass's own rule then gives them different new ops by design (Casts around a blocked Max next to a Transpose it
    converts, none around a Max alone; none around the Clip it converts)."""
    return bool(c.by_type | f.by_type) and set(op_counts(c.model)) != set(op_counts(f.model))


def _kept(a: FormRun, b: FormRun) -> list[str]:
    """Op types the pass got rid of in ``a`` and not in ``b``.

    Either ``a`` lost every node of the type while ``b`` kept some, or both forms had the same
    number of them and ``b`` lost fewer (a fusion or fold applied to one form only). A spelling that
    renames ops (Tile for Expand) gives ``b`` extra nodes of a type that ``a`` writes as other types:
    up to that many nodes ``b`` kept are its spelling, not a fusion declined, and are not counted.
    """
    ba, aa = op_counts(a.model), _after(a)
    bb, ab = op_counts(b.model), _after(b)
    kept = []
    # ``a`` only eliminated nodes (no new op): ``b``'s nodes with nothing to merge with cannot go that way
    isolated = _isolated(b.output) if not set(aa) - set(ba) else Counter()
    for op in sorted(ba):
        removed_a, removed_b = ba[op] - aa.get(op, 0), bb.get(op, 0) - ab.get(op, 0)
        if removed_a <= 0 or not bb.get(op) or (ab.get(op) and isolated[op] >= ab[op]) or _expanded(op, a):
            continue
        renamed = min(max(0, bb[op] - ba[op]), sum(max(0, n - bb.get(o, 0)) for o, n in ba.items() if o != op))
        if (aa.get(op, 0) == 0 and ab.get(op, 0) > renamed) or (ba[op] == bb[op] and removed_b < removed_a):
            kept.append(op)
    return kept


def _isolated_identities(model) -> Counter:
    """The Identity nodes from a graph input to a graph output: how a graph writes an output equal to an input."""
    return Counter({"Identity": _isolated(model)["Identity"]})


def _isolated(model) -> Counter:
    """Op types of the nodes with nothing to merge with: every input a graph input, an initializer
    or empty (at least one a graph input, else it is foldable), no output read by a node."""
    g = model.graph
    inputs, inits = {v.name for v in g.input}, {t.name for t in g.initializer}
    read = {i for n in g.node for i in n.input}
    return Counter(
        op_key(n)
        for n in g.node
        if all(i in inputs or i in inits or not i for i in n.input)
        and any(i in inputs and i not in inits for i in n.input)
        and not any(o in read for o in n.output if o)
    )


def _body(op: str, a: FormRun) -> set[str] | None:
    """Op types of ``op``'s schema function body at ``a``'s opset (Cast for CastLike, Constant and
    Identity besides), or None when it has none (context-dependent functions included)."""
    import onnx

    if "::" in op:
        return None
    version = next((o.version for o in a.model.opset_import if o.domain in ("", "ai.onnx")), None)
    try:
        schema = onnx.defs.get_schema(op, version, "") if version else None
    except onnx.defs.SchemaError:
        return None
    if schema is None or not schema.has_function:
        return None
    return {n.op_type for n in schema.function_body.node} | {"Cast", "Constant", "Identity"}


def _expanded(op: str, a: FormRun) -> bool:
    """Whether ``a`` lost ``op`` by inlining its schema's function body: every op type the pass
    added to ``a`` is one of the body's."""
    body = _body(op, a)
    new = set(_after(a)) - set(op_counts(a.model))
    return body is not None and bool(new) and new <= body


def _expansions(a: FormRun) -> set[str]:
    """The op types the pass added to ``a`` by inlining function bodies (see :func:`_expanded`)."""
    ba, aa = op_counts(a.model), _after(a)
    lost = [op for op in ba if ba[op] > aa.get(op, 0) and _expanded(op, a)]
    return set().union(*(_body(op, a) for op in lost)) if lost else set()


def _ops(c: FormRun, f: FormRun) -> list[Finding]:
    """At most one finding per direction: on the form that kept what the other lost; or, when
    neither kept anything back but the outputs still differ, on the uncommon form when the pass
    rewrote the two into different new op types."""
    found, kept_any = [], False
    for a, b in ((c, f), (f, c)):
        raw = _kept(a, b)
        kept_any = kept_any or bool(raw)
        lawful = _behind_defaults(raw, b, a) | _crops(raw, b) | _behind_inputs(raw, b) | _shapes_left(raw, b)
        lawful |= _interface_copies(raw, b)
        kept = [op for op in raw if op not in lawful]
        if kept and not numeric.shown_wrong(a, b):  # a wrong rewrite of ``a`` is no optimization ``b`` missed
            found.append(_finding(a, b, kept))
    if kept_any:
        return found
    if _by_type_differs(c, f):
        return []
    ca, fa = _after(c) - _isolated_identities(c.output), _after(f) - _isolated_identities(f.output)
    new_c, new_f = (
        sorted(set(ca) - set(op_counts(c.model)) - _expansions(c) - NOT_NEW),
        sorted(set(fa) - set(op_counts(f.model)) - _expansions(f) - NOT_NEW),
    )
    if ca != fa and new_c != new_f and _delta(c) != _delta(f) and not numeric.shown_wrong(c, f):
        return [_finding(c, f, [])]
    return []


def _behind_defaults(kept: list[str], b: FormRun, a: FormRun) -> set[str]:
    """The op types of ``kept`` whose every node ``b`` kept is part of a pattern that touches an
    overridable default of ``b`` (a graph input with an initializer) that is a constant in ``a``
    (an initializer and no graph input): the node reads a value computed from that default, or is
    linked to such a node through other kept nodes (a fusion takes the whole pattern). A caller may
    feed another value there, so no pass may fold or fuse through it (IR.md §Graphs: an initializer
    named like a graph input is a default; onnxruntime: "Initializer … appears in graph inputs and
    will not be treated as constant value/weight"), and keeping those nodes is no missed optimization."""

    def split(m):
        inputs = {v.name for v in m.graph.input}
        inits = {t.name for t in m.graph.initializer}
        return inits & inputs, inits - inputs

    tainted = split(b.model)[0] & split(a.model)[1]
    if not tainted or not kept:
        return set()
    nodes = list(b.output.graph.node)
    for n in nodes:  # nodes are in topological order (IR.md §Graphs)
        if any(i in tainted for i in n.input):
            tainted.update(o for o in n.output if o)
    group = [n for n in nodes if op_key(n) in kept]
    reached = {id(n) for n in group if any(i in tainted for i in n.input)}
    grew = bool(reached)
    while grew:  # spread through kept nodes linked by a value (producer → reader, either way)
        grew = False
        values = {v for n in group if id(n) in reached for v in [*n.input, *n.output] if v}
        for n in group:
            if id(n) not in reached and values & {v for v in [*n.input, *n.output] if v}:
                reached.add(id(n))
                grew = True
    return {op for op in kept if all(id(n) in reached for n in group if op_key(n) == op)}


def _behind_inputs(kept: list[str], b: FormRun) -> set[str]:
    """The op types of ``kept`` whose every node ``b`` kept reads, directly or through other nodes, a graph input of
    ``b`` that no initializer defaults, when ``b``'s pass folds only all-constant nodes (``FormRun.folds_shapes``
    False): a value derived from a fed input (its shape through Shape / Size included) is not a constant to such a
    pass, so keeping it where the other form spells a constant is no missed optimization. Empty for other passes."""
    if b.folds_shapes or not kept or b.output is None:
        return set()
    g = b.output.graph
    tainted = {v.name for v in g.input} - {t.name for t in g.initializer}
    for n in g.node:  # nodes are in topological order (IR.md §Graphs)
        if any(i in tainted for i in n.input):
            tainted.update(o for o in n.output if o)
    group = [n for n in g.node if op_key(n) in kept]
    return {op for op in kept if all(any(i in tainted for i in n.input) for n in group if op_key(n) == op)}


def _interface_copies(kept: list[str], b: FormRun) -> set[str]:
    """``{"Identity"}`` when ``Identity`` is in ``kept`` and every Identity ``b``'s pass output holds is a copy its
    interfaces need (:func:`passcheck.oracles.interface_copies.needed`: a graph, subgraph or function output copying
    an input, another output, an outer-scope value or a value another such copy reads); else empty."""
    if "Identity" not in kept or b.output is None:
        return set()
    from passcheck.oracles.interface_copies import needed

    return {"Identity"} if _after(b).get("Identity", 0) <= needed(b.output) else set()


def _shapes_left(kept: list[str], b: FormRun) -> set[str]:
    """The op types of ``kept`` every node of which in ``b``'s pass output computes from graph-input shapes only
    (:func:`passcheck.oracles.folding.shape_derived`), when the pass was told to leave such values
    (:attr:`FormRun.folds_shapes` False: Polygraphy's ``--no-fold-shapes``); else empty."""
    if b.folds_shapes or b.output is None:
        return set()
    from passcheck.oracles.folding import shape_derived

    derived = {i for i, _ in shape_derived(b.output)}
    nodes = list(enumerate(b.output.graph.node))
    return {op for op in kept if all(i in derived for i, n in nodes if op_key(n) == op)}


def _crops(kept: list[str], b: FormRun) -> set[str]:
    """``{"Pad"}`` when ``Pad`` is in ``kept`` and every Pad of ``b``'s pass output crops (a negative entry in its
    pads: the ``pads`` input's constant, Pad-11+, or attribute, Pad-2) or feeds only crops and Pads that do
    (module docs); else empty. A Pad whose pads are not constant is not counted out."""
    import numpy as np

    from passcheck.runtime.constants import Constants

    if "Pad" not in kept:
        return set()
    g = b.output.graph
    consts = Constants(g)
    readers: dict[str, list] = {}
    for n in g.node:
        for v in n.input:
            readers.setdefault(v, []).append(n)
    outputs = {o.name for o in g.output}
    pads = [n for n in g.node if op_key(n) == "Pad"]
    lawful: set[int] = set()
    for n in reversed(pads):  # readers first (IR.md §Graphs: nodes are sorted)
        attr = next((list(a.ints) for a in n.attribute if a.name == "pads"), None)
        values = attr if attr is not None else consts.get(n.input[1]) if len(n.input) > 1 else None
        crops = values is not None and bool((np.asarray(values) < 0).any())
        after = [r for o in n.output for r in readers.get(o, [])]
        fed = bool(after) and not outputs & set(n.output) and all(id(r) in lawful for r in after)
        if crops or fed:
            lawful.add(id(n))
    return {"Pad"} if all(id(n) in lawful for n in pads) else set()


def _finding(a: FormRun, b: FormRun, kept: list[str]) -> Finding:
    ba, aa = op_counts(a.model), _after(a)
    bb, ab = op_counts(b.model), _after(b)
    new_a, new_b = sorted(set(aa) - set(ba)), sorted(set(ab) - set(bb))
    sizes = f"nodes after: {a.form} {sum(aa.values())}, {b.form} {sum(ab.values())}"
    news = f"new op types: {a.form} {new_a or 'none'}, {b.form} {new_b or 'none'}"
    if kept:
        detail = "; ".join(
            f"{op} {ba[op]}→{aa.get(op, 0)} in {a.form!r} but {bb[op]}→{ab.get(op, 0)} in {b.form!r}" for op in kept
        )
        msg = f"{a.pass_id} removed {detail}; {sizes}" + (f"; {news}" if new_a != new_b else "")
    else:
        msg = f"{a.pass_id} rewrote the forms into different ops: {news}; {sizes}"
    barrier = _barrier(a, b, set(kept))
    if barrier:
        msg += f"; {BEHIND} [{', '.join(barrier)}], which only {b.form!r} spells and {a.pass_id} kept"
    kept_nodes = _kept_nodes(b.output, set(kept))
    if kept_nodes:
        shown = ", ".join(f"{k['node']} after {k['after']}" if k["after"] else k["node"] for k in kept_nodes[:4])
        msg += f"; kept in {b.form!r}: {shown}" + (f", … ({len(kept_nodes)} in all)" if len(kept_nodes) > 4 else "")
    return b.finding(
        "missed-optimization",
        NAME,
        msg,
        other_form=a.form,
        kept_op_types=kept,
        kept_nodes=kept_nodes,
        new_op_types={a.form: new_a, b.form: new_b},
        nodes_after={a.form: sum(aa.values()), b.form: sum(ab.values())},
        barrier=barrier,
    )


#: How a missed-optimization message names the kept nodes a pattern was interrupted by (:func:`_barrier`);
#: :func:`passcheck.hunt.groups.rule_of` reads it back.
BEHIND = "behind"


def _barrier(a: FormRun, b: FormRun, kept: set[str]) -> list[str]:
    """Op types of the nodes that stand between ``b``'s kept nodes and the rest of a pattern: nodes of ``b``'s pass
    output that share a value with a kept node (read its output or write one it reads; the kept nodes themselves
    left out), of an op type ``b``'s input holds more of than ``a``'s (the spelling added them) and ``b``'s output
    still holds more of than ``a``'s output (the pass kept them: a node of a type both outputs hold as often, as
    the one node a fusion of the other spelling reads, is not counted). A fusion matches adjacent nodes (IR.md
    §Graphs: a node reads values by name), so a pattern cut by a node the pass does not remove is not matched on
    ``b``: the finding is then about that node (does the pass claim to remove it?), not about the fusion. Empty when
    the pass removed what the spelling added: a fusion missed there is the fusion's."""
    if not kept:
        return []
    ab, aa = _after(b), _after(a)
    candidates = {op for op in op_counts(b.model) - op_counts(a.model) if ab.get(op, 0) > aa.get(op, 0)}
    if not candidates:
        return []
    nodes = list(b.output.graph.node)
    pattern = [n for n in nodes if op_key(n) in kept]
    touched = {v for n in pattern for v in [*n.input, *n.output] if v}
    mine = {id(n) for n in pattern}
    return sorted(
        {
            op_key(n)
            for n in nodes
            if id(n) not in mine and op_key(n) in candidates and touched & {v for v in [*n.input, *n.output] if v}
        }
    )


def _kept_nodes(model, ops: set[str]) -> list[dict[str, str]]:
    """Each node of ``ops`` in ``model`` with the node producing its first input (the node a
    fusion would have merged it into), e.g. ``{"node": "bn1", "op": "BatchNormalization",
    "after": "Conv conv1"}``."""
    producer = {o: n for n in model.graph.node for o in n.output if o}
    out = []
    for i, n in enumerate(model.graph.node):
        if op_key(n) in ops:
            p = producer.get(n.input[0]) if n.input else None
            after = f"{op_key(p)} {p.name or '#' + str(list(model.graph.node).index(p))}" if p is not None else ""
            out.append({"node": n.name or f"#{i}", "op": op_key(n), "after": after})
    return out


def precision(tp, fresh: frozenset[str] = frozenset()) -> tuple[int, int, int] | None:
    """(rank known, dims with dim_value, dims with dim_param) of a tensor type; None otherwise.
    ``fresh``: dim_params that say no more than an unknown dim (see :func:`fresh_names`)."""
    if tp.WhichOneof("value") != "tensor_type":
        return None
    tt = tp.tensor_type
    if not tt.HasField("shape"):
        return (0, 0, 0)
    dims = tt.shape.dim
    named = sum(bool(d.HasField("dim_param") and d.dim_param and d.dim_param not in fresh) for d in dims)
    return (1, sum(d.HasField("dim_value") for d in dims), named)


def _dim_params(values) -> list[str]:
    return [
        d.dim_param
        for v in values
        if v.type.WhichOneof("value") == "tensor_type"
        for d in v.type.tensor_type.shape.dim
        if d.dim_param
    ]


#: How onnx shape inference names a dim it cannot know (its symbol table's ``unk__<N>``).
GENERATED_DIM = re.compile(r"unk__\d+")


def fresh_names(run: FormRun) -> frozenset[str]:
    """dim_params of the pass output spelled as a tool's unknown dim (onnx shape inference's
    ``unk__N``, or the run's ``unknown_dim_param`` pattern) that its input never names and that
    occur once among its graph outputs' dims: such a name relates that output dim to no input and
    no other output, so it is no more precise than an unnamed dim."""
    if run.output is None:
        return frozenset()
    pattern = re.compile(run.unknown_dim_param) if run.unknown_dim_param else GENERATED_DIM
    return fresh_dim_params(run.model, run.output, pattern)


def fresh_dim_params(model, output, pattern=GENERATED_DIM) -> frozenset[str]:
    """The dim_params of ``output``'s graph outputs (a pass's output of ``model``) that match ``pattern``,
    occur once among them and ``model`` never names (see :func:`fresh_names`)."""
    g = model.graph
    given = set(_dim_params([*g.input, *g.value_info, *g.output]))
    counts = Counter(_dim_params(output.graph.output))
    return frozenset(n for n, k in counts.items() if k == 1 and n not in given and pattern.fullmatch(n))


def less_precise(pb: tuple[int, int, int], ra: tuple[int, int, int]) -> bool:
    """Whether :func:`precision` ``pb`` says less than ``ra``: rank unknown where ``ra`` knows it,
    fewer ``dim_value``, or as many and fewer named dims."""
    return (ra[0] > pb[0]) or (
        ra[0] == pb[0] == 1 and (ra[1] > pb[1] or (ra[1] == pb[1] and ra[1] + ra[2] > pb[1] + pb[2]))
    )


def _precision(a: FormRun, b: FormRun) -> list[Finding]:
    """Findings on ``b`` for graph outputs whose annotation is less precise than in ``a``."""
    fa, fb = fresh_names(a), fresh_names(b)
    pa = {o.name: (precision(o.type, fa), o) for o in a.output.graph.output}
    found = []
    for o in b.output.graph.output:
        if o.name not in pa or pa[o.name][0] is None:
            continue
        pb = precision(o.type, fb)
        if pb is None:
            continue
        if not less_precise(pb, pa[o.name][0]) or kept_as_declared(a.model, b.model, o.name, pa[o.name][0], pb):
            continue
        own = _declared(b.model, o.name)
        if own is not None and not less_precise(pb, own) and inputs_say_less(a.model, b.model):
            continue
        if b.writes_given_unchanged and returned_as_given(b):
            continue
        other = pa[o.name][1]
        dims = dim_gaps(o.type, other.type)
        if dims and {i for i, _, _ in dims} <= uncarried(b.output, o.name, len(o.type.tensor_type.shape.dim)):
            continue  # read out of a sequence: its type has one element type and no length (sequence_dims)
        if annotations.holds(a, o.name):  # a more precise annotation that is wrong is not a standard to meet
            node, dtype = _producer(b.output, o.name), elem_name(o.type)
            found.append(
                b.finding(
                    "less-precise",
                    NAME,
                    f"graph output {o.name!r} after {b.pass_id}: {type_str(o.type)} in {b.form!r} vs "
                    f"{type_str(other.type)} in {a.form!r}"
                    f" (which holds at run time); {dtype}, produced by {node} (in the pass output of {b.form!r})"
                    + (f"; less known: {', '.join(f'dim {i} {x} vs {y}' for i, x, y in dims)}" if dims else ""),
                    output=o.name,
                    other_form=a.form,
                    node=node,
                    dtype=dtype,
                    dims=[list(d) for d in dims],
                )
            )
    return found


def returned_as_given(run: FormRun) -> bool:
    """Whether the pass output's main graph equals its input's (nodes, initializers, inputs, outputs and value_info,
    protobuf equality) but for main-graph Constant nodes written as initializers of the same names: the pass rewrote
    nothing in it. onnxruntime's ``Graph`` constructor turns every Constant node into an initializer when it loads a
    graph, at every level (``ORT_DISABLE_ALL`` too), and its saved model is that loaded graph while no transformer
    changed it; a form whose only difference is that conversion was written as given (round 24e: its declared
    ``[?, ?, ?, ?]`` output kept beside a Constant). False when the pass failed."""
    if run.output is None:
        return False
    given, out = run.model.graph, run.output.graph
    if out == given:
        return True
    consts = {o for n in given.node if n.op_type == "Constant" and n.domain in ("", "ai.onnx") for o in n.output}
    if not consts or not consts <= {t.name for t in out.initializer}:
        return False
    import onnx

    a, b = onnx.GraphProto(), onnx.GraphProto()
    a.CopyFrom(given)
    b.CopyFrom(out)
    kept = [n for n in a.node if not (n.op_type == "Constant" and n.domain in ("", "ai.onnx"))]
    del a.node[:]
    a.node.extend(kept)
    inits = [t for t in b.initializer if t.name not in consts]
    del b.initializer[:]
    b.initializer.extend(inits)
    return a == b


def _producer(model, name: str) -> str:
    """``OP 'node name'`` (``#i`` for an unnamed node) of the main-graph node of ``model`` writing ``name``, or
    ``a graph input`` / ``an initializer`` / ``no node``."""
    for i, n in enumerate(model.graph.node):
        if name in n.output:
            return f"{op_key(n)} {n.name!r}" if n.name else f"{op_key(n)} #{i}"
    if any(v.name == name for v in model.graph.input):
        return "a graph input"
    return "an initializer" if any(t.name == name for t in model.graph.initializer) else "no node"


def elem_name(tp) -> str:
    """A tensor type's element type as numpy spells it (``float32``; onnx's name when numpy has none; ``?`` when
    unset)."""
    import onnx

    elem = tp.tensor_type.elem_type
    if not elem:
        return "?"
    try:
        return str(onnx.helper.tensor_dtype_to_np_dtype(elem))
    except (KeyError, ValueError, TypeError):
        return onnx.TensorProto.DataType.Name(elem).lower()


def dim_gaps(tb, ta) -> list[tuple[int, str, str]]:
    """(position, dim in ``tb``, dim in ``ta``) for each dim ``tb`` (a tensor type) knows less of than ``ta``: a
    value where ``tb`` has a name or nothing, a name where ``tb`` has nothing; ``[]`` when either rank is unknown or
    the ranks differ (the message's types say it)."""
    sa, sb = ta.tensor_type, tb.tensor_type
    if not (sa.HasField("shape") and sb.HasField("shape")) or len(sa.shape.dim) != len(sb.shape.dim):
        return []

    def rank(d) -> int:
        return 2 if d.HasField("dim_value") else (1 if d.dim_param else 0)

    def word(d) -> str:
        return str(d.dim_value) if d.HasField("dim_value") else (f'"{d.dim_param}"' if d.dim_param else "?")

    return [
        (i, word(db), word(da))
        for i, (db, da) in enumerate(zip(sb.shape.dim, sa.shape.dim, strict=True))
        if rank(db) < rank(da)
    ]


def kept_as_declared(model_a, model_b, name: str, pa: tuple[int, int, int], pb: tuple[int, int, int]) -> bool:
    """Whether a pass kept the annotations of graph output ``name`` that its inputs ``model_a`` and ``model_b``
    (ModelProtos) declare (see module docs): its output's :func:`precision` ``pa`` on ``model_a`` is no more
    precise than ``model_a`` declares, and ``pb`` on ``model_b`` no less than ``model_b`` declares (an output a
    model does not declare, or declares as no tensor: False)."""

    ga, gb = _declared(model_a, name), _declared(model_b, name)
    return ga is not None and gb is not None and not less_precise(ga, pa) and not less_precise(pb, gb)


def _declared(model, name: str) -> tuple[int, int, int] | None:
    """:func:`precision` of graph output ``name`` as ``model`` declares it (None: not declared, or no tensor)."""
    o = next((o for o in model.graph.output if o.name == name), None)
    return None if o is None else precision(o.type)


def inputs_say_less(model_a, model_b) -> bool:
    """Whether a main-graph input of ``model_b`` (a ModelProto) declares a less precise type than the input of the
    same name in ``model_a`` (:func:`precision`, :func:`less_precise`): a dim named or unknown where ``model_a``
    gives its value. Inference starts from the inputs' declarations (IR.md §Static tensor shapes: a dim_param
    is a variable, no value), so ``model_b``'s pass output may then say less than ``model_a``'s without the
    pass inferring less; what the pass keeps of ``model_b``'s own output declaration is no gap of the pass."""
    declared = {v.name: precision(v.type) for v in model_a.graph.input}
    for v in model_b.graph.input:
        pa, pb = declared.get(v.name), precision(v.type)
        if pa is not None and pb is not None and less_precise(pb, pa):
            return True
    return False


def type_str(tp) -> str:
    """A tensor type's shape as passcheck prints it: ``[2, "N", ?]`` (``?`` an unknown dim), or ``rank unknown``."""
    tt = tp.tensor_type
    if not tt.HasField("shape"):
        return "rank unknown"
    return (
        "["
        + ", ".join(
            str(d.dim_value) if d.HasField("dim_value") else (f'"{d.dim_param}"' if d.dim_param else "?")
            for d in tt.shape.dim
        )
        + "]"
    )


class Parity(BaseOracle):
    """``missed-optimization`` / ``less-precise`` across the forms (see :func:`check`)."""

    id = NAME

    def judge(self, cells: Cells) -> list[Finding]:
        return check(cells.runs, cells.parity)


ORACLE = Parity()
