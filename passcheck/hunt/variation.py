"""Neighbours of a base model: one *non-equivalent but valid* change each, derived from the operator
schemas, so the hunt also reaches the conditions a pass checks before it acts (a constant's value, a
broadcast shape, an attribute, the element type), not only spellings.

A neighbour is named by a *variation form id* ``vary:<kind>@<site>``:

========================  ==========================================================================
kind                      change (site)
========================  ==========================================================================
``value-nudge``           a small float constant (≤ :data:`SMALL` elements, an initializer no graph input
                          overrides, or a Constant) × (1 + 1e-2) (site: the value's name); none where an
                          element would overflow its type (a mask's ``-3.4e38`` is left as it is)
``value-negate``          its sign flipped
``value-zero``            every element 0 (not a quantization ``y_scale``: a reader would divide by it)
``value-one``             every element 1
``value-floor-edge``      a Resize / Upsample ``scales`` vector with each scale (not 1, on a static dim that is no
                          power of two) at the float32 value whose exact product with the dim falls just below
                          an integer that a float32 product rounds up to (:mod:`.vary_scale`; site: its name)
``value-round-tie``       a Resize-18+ ``sizes`` vector moved so that the ``keep_aspect_ratio_policy`` scale puts
                          another axis's exact output size at a half (``round_int`` rounds it up), the policy set
                          to ``not_larger`` where it is ``stretch`` (:mod:`.vary_scale`; site: its name)
``shape-leading-one``     its shape ``[…]`` → ``[1, …]``, where every reader broadcasts it (site: name)
``shape-scalar``          a vector → its first element as a scalar (rank 0), where every reader broadcasts it
``shape-one-element``     a vector → its first element as a one-element vector ``[1]`` (a broadcast operand
                          distinct from the scalar and from ``[1, …]``), likewise
``shape-outrank``         its shape given leading 1s up to one more than the rank of its readers' outputs, where
                          every reader broadcasts it multidirectionally: the output gains a leading 1 (a pass
                          that takes a one-element operand for a scalar loses it)
``shape-empty``           a constant read only by multidirectionally broadcasting nodes made zero-size at the
                          rightmost aligned axis where every other operand has a static 1 or no dim (a 1
                          stretches to 0, Broadcasting.md): the outputs hold no element (:mod:`.vary_empty`;
                          site: the constant's name)
``shape-index-empty``     an int constant read only as the ``indices`` of Gather, GatherElements or GatherND
                          (``batch_dims`` 0) made zero-size in its first dim (any rank, Operators.md): the
                          gathers select nothing, their outputs keep their rank (:mod:`.vary_index_empty`;
                          site: the constant's name)
``shape-target-outrank``  an int64 shape vector read only as Expand's / Reshape's ``shape`` or ConstantOfShape's
                          input given one more leading 1: the value it shapes gains a leading dim
                          (:mod:`.vary_target`; site: the constant's name)
``shape-target-regroup``  such a vector read only as Reshape's ``shape``, every entry >= 1: its last entry moved
                          to a new leading dim, ``[n, …, 1]`` (the elements grouped otherwise; :mod:`.vary_target`)
``attr-<name>``           a node's attribute set to another value of its schema domain (site:
                          ``<node>=<value>``): ``axis`` to another axis in ``[0, r-1]`` (r: the rank of input
                          0); a FLOAT × (1 + 1e-2) (``epsilon`` × 10) and × 2, and a non-zero FLOAT the
                          formula does not divide by to 0, offered beyond the sample (:mod:`.vary_attr_zero`); an
                          INT whose schema default is 0 or 1 (no element type) flipped; ``perm`` with two entries
                          swapped; ``dilations`` /
                          ``strides`` with the first entry 2; a STRING to another value its documented domain
                          allows; the node's trailing optional outputs added or dropped when its op's inference
                          asks for another count at the new value (BatchNormalization's ``training_mode``:
                          :mod:`.vary_attr_outputs`)
``elem-<type>``           one type-constraint group moved to float16, double, bfloat16, int32, int64, int8
                          or uint8 (:mod:`.elem_groups`: the schemas allow it and onnxruntime's CPU provider
                          has a kernel for every node it touches; site: ``graph`` for the graph's only float
                          group, else a value of the group: its first graph input or smallest name)
``elem-split-<type>``     one part of a type-constraint group split at a shared constant moved likewise, each of
                          the part's readers of the constant reading its own copy cast to the type
                          (:mod:`.elem_split`: a constant is one value per reader; offered where the part
                          differs from its whole group; site: the part's first graph input or smallest name)
``expose``, ``fanout``    an intermediate value read by one node also a graph output, or read by one more node
                          whose result is a new graph output (:mod:`.vary_struct`; site: the value's name);
``fanout-copy``           a copy of a node reading the same inputs, its outputs new graph outputs (site: the
                          node's first output)
``expose-input``          a graph input also a graph output through an Identity (:mod:`.vary_struct`; site: the
                          input's name)
``operand-computed``      an initializer a node reads beside a computed value read through an Identity listed
                          right before that node, its output annotated (:mod:`.vary_operand`; site:
                          ``<node>=<input index>``)
``int-<change>``          a small integer constant (≤ :data:`SMALL` elements) changed: ``int-nudge``,
                          ``int-zero``, ``int-one``, ``int-negate`` (an axes or index constant in its other
                          spelling), ``int-sentinel`` (a Slice start/end at its clamp bound as ``INT_MAX`` /
                          ``INT_MIN``), ``int-permute`` (a set of axes reordered), ``int-repartition`` (a Split
                          point moved, the parts still summing to the dim) (:mod:`.vary_int`: which are
                          equivalent and their schema sources; site: the value's name)
``opt-fill``              an omitted optional input set to a rank-0 constant 1 of the element type its schema's
                          type variable binds in the node (:mod:`.vary_optional`; site: ``<node>=<input index>``)
``cast-narrow``,          every reader of a value reads it cast through a narrowing type and back, or through
``transpose-pair``,       two Transposes whose product is no identity, or (rank 2) through a Transpose and a
``transpose-regroup``     Reshape back to its own shape (:mod:`.vary_pairs`; site: the value's name): pairs a pass
                          must not cancel
``reshape-rank``          a shape-keeping node reads its input 0 through a Reshape to rank r ± 1 (its last dim split
                          into ``(d, 1)``, its leading dim moved last behind a new leading 1, or its last two dims
                          merged), its outputs reshaped back (:mod:`.vary_rank`; site: ``<node>=<up|lead|down>``)
``input-rank-up``,        a graph input's declared shape given a leading 1, or a ``dim_param`` stated as 0 or as
``input-fix-zero``,       2 (the first default binding) in every declaration (:mod:`.vary_inputs`; site: the input's
``input-fix``             name, the symbol)
``input-dim-alone``       a static dim another fed input declares at the same axis doubled in one input only, the
                          other inputs kept (:mod:`.vary_inputs`; site: ``<input>=<axis>``; every such site is
                          offered, up to :data:`.vary_inputs.ALONE_SITES`)
``input-dim-one``         one dim of one fed input declared 1 where broadcasting absorbs it (the graph outputs'
                          inferred shapes unchanged; :mod:`.vary_inputs`; site: ``<input>=<axis>``)
``input-axis-one``        one static dim of one fed input declared 1 and every constant broadcast along it sliced to
                          its first element: the computation on the input's first slice (:mod:`.vary_axis_one`;
                          site: ``<input>=<axis>``)
``input-dim-zero``        one dim of one fed input declared 0 while that input keeps another dim symbolic
                          (:mod:`.vary_inputs`; site: ``<input>=<axis>``)
``input-apart``           one reading slot of a graph input read by several reads an independent input of the same
                          declared type, its non-static dims fresh symbols bound to twice the size
                          (:mod:`.vary_apart`; site: ``<node>=<input index>``)
``input-constant``        every reader of a fed graph input of static shape (float, integer, bool or string)
                          reads an initializer of its type instead, the input kept unread (:mod:`.vary_frozen`:
                          what a folding pass computes at session creation; site: the input's name)
``twin``                  the computation a second time on a graph input with one dim doubled, every constant
                          shared, the copy's outputs appended (:mod:`.vary_twin`; site: ``<input>=<axis>``)
``twin-output``           a graph output computed a second time, on the same inputs, by copies of its nodes
                          sharing every constant, the copy appended (:mod:`.vary_twin_output`; site: the output)
``twin-signed-zero``      a node whose float attribute holds +0.0 computed a second time with that zero written
                          -0.0 (IEEE 754: equal under ``==``, another value), its downstream nodes copied and the
                          copied outputs appended (:mod:`.vary_zero_sign`; site: ``<node>=<attribute>``)
``saturate-float8``       a Cast / CastLike narrowed to a float8 type with the attribute that acts only there
                          written (``saturate``, its input scaled past the type's range; float8e8m0's
                          ``round_mode``), cast back after (:mod:`.vary_saturate`; site: ``<node>=<type>,<value>``)
``group``                 a Conv / ConvTranspose of ``group`` 1 split into ``g`` channel groups (a common divisor
                          > 1 of its input and output channels), its weight sliced to the shape the schema then
                          requires, its output channels kept (:mod:`.vary_group`; site: ``<node>=<g>``)
``axes-move``,            every ``Reduce*`` of one connected pattern reducing the same axes moved together to
``axes-sign``             another axis whose dim is not 1 (keepdims 1), or its axes in the other sign spelling
                          (equivalent): a decomposed norm over a non-last axis (:mod:`.vary_axes`; site:
                          ``<first node>=<axes>``)
``default-fed``           an overridable default (a graph input with an initializer of the same name) fed
                          another value of its dtype and shape, the dims computed from it unstated
                          (:mod:`.vary_defaults`; site: the input's name)
``qdq-wrap``,             one float node made a QDQ node group: its inputs dequantized (a weight int8, a third
``qdq-own-scale``,        input int32 at the product of the first two scales), its outputs quantized and back
``qdq-16bit``,            (:mod:`.vary_qdq`: what onnxruntime's QDQ selectors match; site: the node's name); the
``qdq-float-params``      second with that int32 input at a scale of its own; the third (opset ≥ 21) with uint16
                          activations; the fourth with its float initializers left float
``bind-…``, ``feed-…``    the same model under another binding of its dim_params or on other float
                          feeds (:mod:`.vary_bindings`: the run conditions, not the model)
========================  ==========================================================================

A *chained* neighbour (round 10a, M96; :mod:`.chain` chooses them) is a neighbour of a neighbour:
``vary:<kind>@<site>+<kind>@<site>``, the second link a neighbour of the model the first one built, at its labels
(:data:`CHAIN` is reserved in sites, so the first ``+`` after the first link's ``@`` splits the two). Both links
are of model-only families (no run condition of their own, :func:`.chain.model_only`), of two different families; its
kind is ``vary:<kind>+<kind>`` (:func:`kind`), its family ``chain``; it is never equivalent to its base.

Sources: broadcasting readers are the ops whose schema doc states multidirectional or unidirectional
broadcasting (Operators.md, "Broadcasting in ONNX": docs/Broadcasting.md); the attribute types and defaults
are the ``onnx.defs`` schema's; the STRING domains are the documented ones of
:mod:`passcheck.oracles.spec_table` (``one_of`` rules); the type constraints are each schema's
``type_constraints``. A neighbour keeps the graph's interface (a structural one appends one graph output);
where a change can move a value's shape or type (shape, attribute and elem kinds) the annotations that no
longer hold are replaced by what onnx shape inference says, except in an equivalent neighbour
(:func:`.vary_equiv.equivalent`), which keeps its base's (every value is the base's). Whether the neighbour is
valid (checker, runs under ``ort:disabled``) is for the caller to check (:mod:`.vary_probe`): this module only
derives it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from passcheck.hunt import (
    vary_apart,
    vary_attr_outputs,
    vary_attr_zero,
    vary_axes,
    vary_axis_one,
    vary_bindings,
    vary_defaults,
    vary_empty,
    vary_frozen,
    vary_group,
    vary_index_empty,
    vary_inputs,
    vary_int,
    vary_operand,
    vary_optional,
    vary_pairs,
    vary_qdq,
    vary_rank,
    vary_saturate,
    vary_scale,
    vary_struct,
    vary_target,
    vary_twin,
    vary_twin_output,
    vary_zero_sign,
)
from passcheck.hunt.elem_groups import TARGETS
from passcheck.hunt.graph_values import SMALL
from passcheck.hunt.graph_values import constants as _constants
from passcheck.hunt.graph_values import readers as _readers
from passcheck.hunt.graph_values import replace as _replace
from passcheck.hunt.rotation import Sites
from passcheck.runtime import isolated_tools
from passcheck.signature import THEN, VARY

if TYPE_CHECKING:
    import numpy as np
    import onnx

#: Starts a neighbour's form id; :data:`THEN` (:data:`passcheck.signature.THEN`) joins it to a rewrite form applied
#: to that neighbour (:mod:`.compose`), never in a site.
PREFIX = VARY
#: Joins the two links of a chained neighbour (``vary:<kind>@<site>+<kind>@<site>``); a site never holds it.
CHAIN = "+"
#: The family of a chained neighbour (:func:`family`).
CHAINED = "chain"
#: Sites sampled per variation kind on one base.
PER_KIND = 2
#: Kinds offering more sites than :data:`PER_KIND`: ``input-dim-alone``'s sites are each another relation
#: between the inputs' sizes, of which an op accepts few (:mod:`.vary_inputs`).
PER_KIND_OF = {vary_inputs.ALONE: vary_inputs.ALONE_SITES, vary_inputs.ONE: vary_inputs.ALONE_SITES}
VALUE_KINDS = ("value-nudge", "value-negate", "value-zero", "value-one")
SHAPE_KINDS = ("shape-leading-one", "shape-scalar", "shape-one-element", "shape-outrank")
SPLIT_KINDS = {f"elem-split-{name}": to for name, to in TARGETS.items()}  # a part split at a shared constant
ELEM_KINDS = {**{f"elem-{name}": to for name, to in TARGETS.items()}, **SPLIT_KINDS}  # kind → element type
_RESERVED = set("@|+=")  # characters a site label cannot hold (form id and item key grammar)


def is_variation(form: str) -> bool:
    """Whether ``form`` is a variation form id (``vary:<kind>@<site>``; a rewrite of a neighbour, which holds
    :data:`THEN`, is not: :mod:`.compose`)."""
    return form.startswith(PREFIX) and THEN not in form


def is_chained(form: str) -> bool:
    """Whether ``form`` is a chained neighbour's form id (``vary:<kind>@<site>+<kind>@<site>``, module docs)."""
    return is_variation(form) and CHAIN in form.partition("@")[2]


def links(form: str) -> tuple[str, str] | None:
    """``(first, second)`` variation form ids of chained ``form`` (the second's site labels name values and nodes of
    the first's neighbour), or None for any other form."""
    if not is_chained(form):
        return None
    k, _, rest = form.partition("@")
    site, _, second = rest.partition(CHAIN)
    return f"{k}@{site}", f"{PREFIX}{second}"


def chain(first: str, second: str) -> str:
    """The chained form id of variation forms ``first`` and ``second`` (the latter a neighbour of the former's)."""
    return f"{first}{CHAIN}{second[len(PREFIX) :]}"


def kind(form: str) -> str:
    """The variation kind with its prefix (``vary:value-zero``): what a signature records as its rewrite; a
    chained neighbour's is both links' (``vary:qdq-wrap+attr-alpha``)."""
    if (two := links(form)) is not None:
        return f"{kind(two[0])}{CHAIN}{kind(two[1])[len(PREFIX) :]}"
    return form.split("@", 1)[0]


def labels(form: str) -> list[str]:
    """The site labels ``form`` changes: a value name, or the node name of an attribute site; none for
    an elem kind (every node); a chained neighbour's: both links' (the second's name its first neighbour's)."""
    if (two := links(form)) is not None:
        return list(dict.fromkeys([*labels(two[0]), *labels(two[1])]))
    k, _, site = form.partition("@")
    if k[len(PREFIX) :] in ELEM_KINDS or vary_bindings.is_condition(k[len(PREFIX) :]):
        return []
    if k[len(PREFIX) :] in vary_inputs.SYMBOL_KINDS:  # a symbol, not a value
        return []
    if _node_site(k[len(PREFIX) :]):
        return [site.rsplit("=", 1)[0]]
    return [site]


def site_labels(model: onnx.ModelProto, form: str) -> list[str]:
    """:func:`labels` in terms of ``model`` as it is: a node named only in
    :func:`~passcheck.mutations.forms.named`'s copy is ``#<index>:<OpType>`` (the label grammar
    :func:`passcheck.signature.site_ops` and the scheduler's nearness read). An ``input-rank-up`` neighbour's
    labels also name every value computed from its input (:func:`.vary_inputs.reach`); an ``elem-split-<type>``
    neighbour's name the nodes it retypes (:func:`.elem_split.touched`), so the scheduler tells its parts apart."""
    from passcheck.mutations.forms import named

    if (two := links(form)) is not None:  # the second link's labels are its first neighbour's
        built = build(model, two[0])
        second = site_labels(built[0], two[1]) if built is not None else []
        return list(dict.fromkeys([*site_labels(model, two[0]), *second]))
    nodes = {n.name: (i, n) for i, n in enumerate(named(model).graph.node)}
    own = {n.name for n in model.graph.node if n.name}
    out = []
    found = labels(form)
    if kind(form) == f"{PREFIX}input-rank-up":  # a declared rank reaches every value computed from the input
        found += vary_inputs.reach(model, form.partition("@")[2])
    if kind(form) == f"{PREFIX}input-fix":  # a stated dim reaches every value computed from an input declaring it
        found += [
            v for name in vary_inputs.declaring(model, form.partition("@")[2]) for v in vary_inputs.reach(model, name)
        ]
    if kind(form) in (f"{PREFIX}{k}" for k in vary_inputs.AXIS_KINDS):  # so does a declared size
        found += vary_inputs.reach(model, form.partition("@")[2].rpartition("=")[0])
    if kind(form) == f"{PREFIX}{vary_frozen.KIND}":  # so do the constants: every value computed from them
        inputs = vary_frozen.frozen(model, form.partition("@")[2])
        found = [*inputs, *[v for name in inputs for v in vary_inputs.reach(model, name)]]
    if vary_axes.is_kind(kind(form)[len(PREFIX) :]):  # every reduction of the group: name them
        first = labels(form)[0]
        found += [
            n.name
            for g, _, _ in vary_axes.groups(named(model), _inferred(named(model)))
            if g[0].name == first
            for n in g[1:]
        ]
    if kind(form)[len(PREFIX) :] in SPLIT_KINDS:  # a part retypes some nodes only: name them
        found += _part_nodes(named(model), form.partition("@")[2])
    for label in found:
        i, n = nodes.get(label, (None, None))
        out.append(label if n is None or label in own else f"#{i}:{n.op_type}")
    return out


#: The variation families: a kind is ``<family>`` or ``<family>-<detail>``.
FAMILIES = (
    "value",
    "shape",
    "int",
    "attr",
    "elem",
    "opt",
    "expose",
    "fanout",
    "twin",
    "group",
    "axes",
    "cast",
    "transpose",
    "input",
    "bind",
    "feed",
    "default",
    "qdq",
    "operand",
    "reshape",
    "saturate",
)


def origin(label: str) -> str | None:
    """The label a neighbour's copy ``label`` was made from (:func:`.vary_apart.origin`: ``x__apart`` → ``x``), or
    None: :mod:`.compose` spells a rewrite at a copy and at its origin alike."""
    return vary_apart.origin(label)


def family(form: str) -> str:
    """The variation family of ``form``: one of :data:`FAMILIES`, or :data:`CHAINED` for a chained neighbour."""
    if is_chained(form):
        return CHAINED
    return kind(form)[len(PREFIX) :].split("-", 1)[0]


def site_ops(model: onnx.ModelProto, form: str) -> set[str]:
    """Op types of the nodes ``form`` changes (reading the changed value, or holding the changed
    attribute), labels read on :func:`~passcheck.mutations.forms.named`'s copy; empty for an elem kind."""
    from passcheck.mutations.forms import named
    from passcheck.signature import site_ops as ops_at

    if (two := links(form)) is not None:  # each link's ops in the model it changes
        built = build(model, two[0])
        return site_ops(model, two[0]) | (site_ops(built[0], two[1]) if built is not None else set())
    return ops_at([named(model)], labels(form)) if labels(form) else set()


def neighbours(
    model: onnx.ModelProto,
    rng: random.Random,
    bindings=({}, {}),
    pools: dict[str, Sites] | None = None,
    family: str | None = None,
) -> list[str]:
    """The variation form ids of ``model`` (see module docs), at most :data:`PER_KIND` sites of each kind, and every
    attribute value the node's op version added (:func:`_added_sites`, round 13b, M181) and each float attribute's
    zero (:mod:`.vary_attr_zero`, round 18e, M359); ``bindings``:
    its case's (the run-condition kinds read them). Node labels are those of :func:`passcheck.mutations.forms.named`.
    ``pools``: filled with each kind's :class:`.rotation.Sites` (kind with its prefix → sites), whose batch 0 is the
    sample listed here and whose later batches are the kind's other sites (round 13d, M188).

    Each kind's sites are sampled with a generator of its own, seeded by one draw of ``rng`` and the kind (round 8e,
    M71): a kind added to the module, or offered on the base where it was not, moves no other kind's sample (with one
    generator across the kinds in turn, the default-fed kind's sites moved the elem-split ones of a QDQ Conv base).

    ``family`` (one of :data:`FAMILIES`): only that family's forms, the same ones as the full listing's (each kind's
    draw is its own); a family with its own candidate listing (:data:`_FAMILY_CANDIDATES`: ``elem``) lists only
    those, a fraction of the cost of every kind's. Raises ValueError for a name not in :data:`FAMILIES`."""
    from passcheck.mutations.forms import named

    if family is not None and family not in FAMILIES:
        raise ValueError(f"no variation family {family!r} (one of {', '.join(FAMILIES)})")
    model = named(model)
    found: dict[str, list[str]] = {}
    if family in _FAMILY_CANDIDATES:
        listed = list(_FAMILY_CANDIDATES[family](model))
    else:
        listed = [*_candidates(model), *vary_bindings.candidates(model, bindings)]
    for k, site in listed:
        if family is not None and k.split("-", 1)[0] != family:
            continue
        name = site.rsplit("=", 1)[0] if _node_site(k) else site
        if not _RESERVED & set(name) and not {"@", "|", "+", THEN} & set(site):
            found.setdefault(k, []).append(site)
    key = rng.getrandbits(64)  # one draw, whatever kinds the model offers
    added = _added_sites(model) | set(vary_attr_zero.sites(model, lambda n: _schema(model, n)))
    out = []
    for k in sorted(found):
        sites = sorted(dict.fromkeys(found[k]))
        drawn = Sites(sites, random.Random(f"{key}:{k}"), PER_KIND_OF.get(k, PER_KIND))
        extra = {s for s in sites if (k, s) in added}
        first = drawn.batch(0)
        drawn.withhold(extra)  # listed here: no later batch lists them again
        out += [f"{PREFIX}{k}@{s}" for s in sorted(set(first) | extra)]
        if pools is not None:
            pools[f"{PREFIX}{k}"] = drawn
    return out


def _added(op: str, version: int, attr: str) -> tuple[str, ...]:
    """The values of ``op``'s STRING attribute ``attr`` documented at opset ``version`` that the op's previous
    version does not document (:mod:`passcheck.oracles.spec_table`'s ranges: Resize-19 added
    ``coordinate_transformation_mode = "half_pixel_symmetric"``, Pad-19 ``mode = "wrap"``, Operators.md); empty
    where no earlier range is stated."""
    ranges = _string_domains().get((op, attr), ())
    here = next((r for r in ranges if r[0][0] <= version and (r[0][1] is None or version < r[0][1])), None)
    before = next((values for (_lo, hi), values in ranges if here is not None and hi == here[0][0]), None)
    return () if here is None or before is None else tuple(v for v in here[1] if v not in before)


def _added_sites(model) -> set[tuple[str, str]]:
    """``(attr-<name>, <node>=<value>)`` of every attribute neighbour of ``model`` (node-named) setting a value its
    op's version added (:func:`_added`). A converter to the previous opset must refuse or rewrite exactly these
    (a step registered as compatible only restamps the node), so :func:`neighbours` offers each beyond
    :data:`PER_KIND`'s sample."""
    out = set()
    for node in model.graph.node:
        for (op, attr), _ranges in _string_domains().items():
            if op == node.op_type and node.domain in ("", "ai.onnx"):
                out |= {(f"attr-{attr}", f"{node.name}={v}") for v in _added(op, _opset(model, node.domain), attr)}
    return out


def offered(model: onnx.ModelProto) -> set[str]:
    """Every model-changing variation form id of ``model``, unsampled (the sites :func:`neighbours` draws from, the
    run-condition kinds left out); labels as :func:`neighbours` gives them."""
    from passcheck.mutations.forms import named

    return {f"{PREFIX}{k}@{site}" for k, site in _candidates(named(model))}


def may_offer(model: onnx.ModelProto, k: str) -> bool | None:
    """Whether :func:`neighbours` of ``model`` can hold kind ``k`` (no prefix), asked of the kind's own candidates
    alone for the kinds with a declared precondition (:data:`.vary_rare.PRECONDITIONS`: ``value-floor-edge``,
    ``group``); None for another kind (only the full listing tells). False is exact (the full listing draws the
    kind's sites from the same candidates, on the same node-named copy); True means the kind has a site here, which
    :func:`neighbours` keeps unless its label holds a reserved character. Listing one kind's candidates costs a
    fraction of every kind's (:func:`_candidates` builds and infers each elem kind's move): a hunt asks this of
    every base meeting a rare kind's precondition (185 for ``value-floor-edge`` on the full set)."""
    from passcheck.mutations.forms import named

    if vary_scale.is_kind(k):
        model = named(model)
        found = vary_scale.candidates(model, _constants(model), _inferred(model), _readers(model))
    elif vary_group.is_kind(k):
        found = vary_group.candidates(named(model))
    else:
        return None
    return any(kind == k for kind, _ in found)


def build(model: onnx.ModelProto, form: str, labelled: bool = False) -> tuple[onnx.ModelProto, list[str]] | None:
    """``model`` changed as ``form`` says and the labels changed, or None when the site is not in it
    (or the change does not apply there). ``model`` is never modified.

    The change is made on :func:`~passcheck.mutations.forms.named`'s copy (a node site is labelled by the name it
    gives, ``n<index>_<OpType>``); the neighbour returned keeps ``model``'s own spelling of node names (round 10e,
    M105): a node ``model`` leaves unnamed, and a node the change adds named after one (a ``fanout-copy`` copy, a
    twin), is unnamed (IR.md "Nodes": a node's name is optional, and a pass that derives names from it meets the
    empty name only where the base has one). ``labelled``: the node-named copy itself, whose names the composed
    rewrites' site labels are (:mod:`.compose`) and signatures read."""
    from passcheck.mutations.forms import named

    if (two := links(form)) is not None:  # a chained neighbour: the second link on the first's neighbour
        first = build(model, two[0])
        second = None if first is None else build(first[0], two[1])
        return None if second is None else (second[0], labels(form))
    k, _, site = form.partition("@")
    k = k[len(PREFIX) :]
    out = named(model)
    given = {out.graph.node[i].name for i, n in enumerate(model.graph.node) if not n.name}
    had = {n.name for n in out.graph.node}
    try:
        if k in VALUE_KINDS or k in SHAPE_KINDS or vary_int.is_int_kind(k) or vary_scale.is_kind(k):
            done = _set_constant(out, site, k)
        elif k.startswith("attr-"):
            node, _, value = site.rpartition("=")
            done = _set_attribute(out, node, k[len("attr-") :], value)
            if done:  # the value may ask for another output count (BatchNormalization's training_mode, M405)
                done = _fit_outputs(out, node)
            if done:
                _refresh_annotations(out)
        elif k in ELEM_KINDS:
            done = _retype(out, site, ELEM_KINDS[k], split=k in SPLIT_KINDS)
        elif vary_struct.is_structural(k):
            done = vary_struct.build(out, k, site, _inferred(out))
        elif vary_twin_output.is_kind(k):
            done = vary_twin_output.build(out, k, site)
        elif vary_zero_sign.is_kind(k):
            done = vary_zero_sign.build(out, site)
        elif vary_saturate.is_kind(k):
            done = vary_saturate.build(out, site)
        elif vary_pairs.is_pair(k):
            done = vary_pairs.build(out, k, site, _inferred(out))
        elif vary_twin.is_kind(k):
            done = vary_twin.build(out, site)
        elif vary_rank.is_kind(k):  # the reader's outputs are reshaped back: no annotation moves
            done = vary_rank.build(out, site, _inferred(out), lambda n, i: _broadcasts(out, n, i))
        elif vary_optional.is_optional_kind(k):
            done = vary_optional.build(out, site, _inferred(out), lambda n: _schema(out, n))
            if done:
                _refresh_annotations(out)
        elif vary_frozen.is_kind(k):
            done = vary_frozen.build(out, site)
        elif vary_operand.is_kind(k):
            done = vary_operand.build(out, site)
        elif vary_target.is_kind(k):  # the shaped value gains a leading dim: so do the values downstream
            done = vary_target.build(out, site, k)
            if done:
                _refresh_annotations(out)
        elif vary_empty.is_kind(k):  # the readers' outputs lose their elements: so do the values downstream
            done = vary_empty.build(out, site, _inferred(out), lambda n, i: _broadcasts(out, n, i, multi=True))
            if done:
                _refresh_annotations(out)
        elif vary_index_empty.is_kind(k):  # the gathers select nothing: their outputs lose their elements
            done = vary_index_empty.build(out, site)
            if done:
                _refresh_annotations(out)
        elif vary_group.is_kind(k):
            done = vary_group.build(out, site)
        elif vary_qdq.is_kind(k):
            done = vary_qdq.build(out, k, site, _inferred(out))
        elif vary_apart.is_kind(k):
            done = vary_apart.build(out, site)
            if done:
                _refresh_annotations(out)
        elif vary_axes.is_kind(k):
            done = vary_axes.build(out, k, site, _inferred(out))
            if done and k == vary_axes.MOVE:  # another axis reduced: the reductions' outputs change shape
                _refresh_annotations(out)
        elif vary_axis_one.is_kind(k):  # the axis is 1 down to the outputs: so are their annotations
            done = vary_axis_one.build(out, site, _inferred(out), lambda n, i: _broadcasts(out, n, i, multi=True))
            if done:
                _refresh_annotations(out)
        elif vary_inputs.is_input_kind(k):
            done = vary_inputs.build(out, k, site)
            if done:  # a stated 0 reaches a computed shape's values only through data propagation
                _refresh_annotations(out, zeros=k == vary_inputs.ZERO)
        elif vary_defaults.is_kind(k):  # the dims below the default unstated; its feed is the setting's
            done = vary_defaults.build(out, site)
        elif vary_bindings.is_condition(k):  # the model as it is: only its run conditions change
            done = vary_bindings.builds(out, k, site)
        else:
            return None
    except (ValueError, KeyError, IndexError, TypeError):  # a site that does not parse here
        return None
    if not done:
        return None
    return (out if labelled or not given else unlabelled(out, given, had)), labels(form)


def unlabelled(model: onnx.ModelProto, given: set[str], had: set[str]) -> onnx.ModelProto:
    """``model`` (changed in place and returned) with the node names :func:`~passcheck.mutations.forms.named` gave
    (``given``) cleared, and those of the main-graph nodes the change added (a name not in ``had``) that are named
    after one of them (``<given>_…``: a copy or a twin of an unnamed node is unnamed too, IR.md "Nodes")."""
    for n in model.graph.node:
        if n.name in given or (n.name not in had and any(n.name.startswith(f"{g}_") for g in given)):
            n.ClearField("name")
    return model


def _node_site(k: str) -> bool:
    """Whether kind ``k`` (no prefix) names its site ``<name>=<value>`` (an attribute, an optional input, an
    input's axis)."""
    return (
        k.startswith("attr-")
        or vary_optional.is_optional_kind(k)
        or vary_twin.is_kind(k)
        or vary_zero_sign.is_kind(k)
        or vary_saturate.is_kind(k)
        or vary_group.is_kind(k)
        or vary_axes.is_kind(k)
        or k in vary_inputs.AXIS_KINDS
        or vary_apart.is_kind(k)
        or vary_operand.is_kind(k)
        or vary_rank.is_kind(k)
    )


# -- candidates --------------------------------------------------------------------------------------


def _candidates(model: onnx.ModelProto) -> Iterator[tuple[str, str]]:
    consts = _constants(model)
    readers = _readers(model)
    for name, arr in consts.items():
        if arr.dtype.kind != "f" or not 0 < arr.size <= SMALL or not readers.get(name):
            continue
        if (arr != 0).any():
            if _changed(arr, "value-nudge") is not None:
                yield "value-nudge", name
            yield "value-negate", name
        if (arr != 0).any() and not any(_divides(model, n, i) for n, i in readers[name]):
            yield "value-zero", name
        if (arr != 1).any():
            yield "value-one", name
        if all(_broadcasts(model, n, i, multi=True) for n, i in readers[name]):
            yield "shape-outrank", name
        if all(_broadcasts(model, n, i) for n, i in readers[name]):
            if arr.ndim >= 1:
                yield "shape-leading-one", name
            if arr.size > 1:
                yield "shape-scalar", name
                yield "shape-one-element", name
    shapes = _inferred(model)
    yield from vary_int.candidates(model, consts, shapes, lambda n: _schema(model, n))
    yield from vary_scale.candidates(model, consts, shapes, readers)
    for node in model.graph.node:
        schema = _schema(model, node)
        if schema is None:
            continue
        for attr, value in _attribute_variants(model, node, schema, shapes):
            yield f"attr-{attr}", f"{node.name}={value}"
    yield from _elem_candidates(model, shapes)
    yield from vary_optional.candidates(model, shapes, lambda n: _schema(model, n))
    yield from vary_struct.candidates(model, shapes)
    yield from vary_twin_output.candidates(model)
    yield from vary_zero_sign.candidates(model)
    yield from vary_saturate.candidates(model)
    yield from vary_pairs.candidates(model, shapes)
    yield from vary_rank.candidates(model, shapes, lambda n, i: _broadcasts(model, n, i))
    yield from vary_inputs.candidates(model)
    yield from vary_axis_one.candidates(
        model,
        shapes,
        lambda n, i: _broadcasts(model, n, i, multi=True),
        vary_inputs.tensor_inputs(model),
        vary_inputs.accepted,
    )
    yield from vary_apart.candidates(model)
    yield from vary_frozen.candidates(model)
    yield from vary_operand.candidates(model)
    yield from vary_target.candidates(model)
    yield from vary_empty.candidates(model, shapes, lambda n, i: _broadcasts(model, n, i, multi=True))
    yield from vary_index_empty.candidates(model)
    yield from vary_defaults.candidates(model)
    yield from vary_twin.candidates(model)
    yield from vary_group.candidates(model)
    yield from vary_qdq.candidates(model, shapes)
    yield from vary_axes.candidates(model, shapes)


def _attribute_variants(model, node, schema, shapes) -> Iterator[tuple[str, str]]:
    """(attribute name, new value spelled as in a site label) of ``node``, within its schema domain."""
    import onnx
    from onnx import helper

    set_ = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    A = onnx.AttributeProto
    for name, spec in schema.attributes.items():
        default = spec.default_value
        has_default = default is not None and default.type != A.UNDEFINED
        if name not in set_ and not has_default:
            continue
        cur = set_[name] if name in set_ else helper.get_attribute_value(default)
        if spec.type == A.INT and name == "axis":
            rank = _rank(node.input[0], shapes) if node.input else None
            if rank:
                norm = cur % rank if -rank <= cur < rank else None
                yield from ((name, str(a)) for a in range(rank) if a != norm)
        elif spec.type == A.INT and _flag(name, default, cur):
            yield name, str(1 - cur)
        elif spec.type == A.FLOAT and isinstance(cur, float):
            new = cur * 10 if name == "epsilon" else (cur * 1.01 if cur else 0.5)
            yield name, _fmt(new)
            # the same attribute moved by a power of two (every product with it stays exact): a pass that reads it
            # at the wrong place or scale shows an error of the value's own size, not 1 % of it, which a rounding
            # allowance (a quantized graph's steps, oracles/quant_steps.py) can hide
            if name != "epsilon" and cur and abs(cur) * 2 < 3.4e38:
                yield name, _fmt(cur * 2)
            if vary_attr_zero.offers_zero(node.op_type, name, cur):  # the factor erasing its term (round 18e, M359)
                yield name, vary_attr_zero.ZERO
        elif spec.type == A.INTS and name == "perm" and len(cur) >= 2:
            p = list(cur)
            p[-1], p[-2] = p[-2], p[-1]
            yield name, ",".join(map(str, p))
        elif spec.type == A.INTS and name in ("dilations", "strides") and cur:
            yield name, ",".join(map(str, [1 if cur[0] == 2 else 2, *cur[1:]]))
        elif spec.type == A.STRING:
            text = cur.decode() if isinstance(cur, bytes) else str(cur)
            for v in _string_domain(node.op_type, _opset(model, node.domain), name):
                if v != text and not _pads_exclude(name, v, set_):
                    yield name, v


def _pads_exclude(name: str, value: str, written: dict) -> bool:
    """Whether ``auto_pad = value`` cannot stand beside the node's own attributes: Operators.md Conv, ConvTranspose,
    the pools (``pads``: "This attribute cannot be used simultaneously with auto_pad attribute"), so a node writing
    ``pads`` admits only ``NOTSET`` (onnxruntime refuses the pair at session creation: every such neighbour was
    invalid, 58 of 58 in round 19k's hunt)."""
    return name == "auto_pad" and value != "NOTSET" and "pads" in written


def _flag(name: str, default, cur) -> bool:
    """An INT attribute read as a 0/1 flag: its schema default is 0 or 1 and so is its value; an element
    type (``to``, ``dtype``, ``stash_type``: TensorProto codes) is none."""
    from onnx import helper

    has = default is not None and default.type != 0
    return (
        has and "type" not in name and name != "to" and helper.get_attribute_value(default) in (0, 1) and cur in (0, 1)
    )


def _fmt(v: float) -> str:
    return format(v, ".7g")  # a FLOAT attribute is a float32: 7 significant digits spell it


def _string_domains():
    from passcheck.oracles.spec_table import string_domains

    return string_domains()


def _string_domain(op: str, version: int, attr: str) -> tuple[str, ...]:
    from passcheck.oracles.spec_table import string_domain

    return string_domain(op, version, attr)


def _broadcasts(model, node, index: int, multi: bool = False) -> bool:
    """Whether ``node`` broadcasts its input ``index`` (schema doc: multidirectional, or unidirectional
    for an input after the first; Operators.md, "Broadcasting in ONNX"); ``multi``: multidirectionally
    only (an operand of higher rank than the others then raises the output's rank)."""
    schema = _schema(model, node)
    doc = (schema.doc or "") if schema is not None else ""
    return "multidirectional" in doc or (not multi and "unidirectional" in doc and index > 0)


def _divides(model, node, index: int) -> bool:
    """Whether ``node`` divides by its input ``index``: the ``y_scale`` of QuantizeLinear and the QLinear ops
    (Operators.md QuantizeLinear: ``y = saturate((x / y_scale) + y_zero_point)``). A zero there makes the
    output the saturation of 0/0 or x/0, a value the spec does not give (both the unoptimized run and a pass
    that assumes a non-zero scale are then right), so ``value-zero`` leaves such a constant alone."""
    schema = _schema(model, node)
    return schema is not None and index < len(schema.inputs) and schema.inputs[index].name == "y_scale"


def _groups(model, shapes, split: bool = False):
    from passcheck.hunt.elem_groups import Groups

    return Groups(model, _value_types(model, shapes), lambda node: _schema(model, node), split)


def _part_nodes(model, site: str) -> list[str]:
    """Names of the nodes of ``model`` (named) that the split part of ``site`` binds (:func:`.elem_split.touched`)."""
    from passcheck.hunt.elem_split import touched

    groups = _groups(model, _inferred(model), split=True)
    part = groups.of(site)
    return [model.graph.node[i].name for i in touched(groups, part)] if part else []


def _elem_candidates(model, shapes) -> Iterator[tuple[str, str]]:
    from passcheck.hunt.elem_groups import holds, sites
    from passcheck.hunt.elem_split import move, parts

    whole = _groups(model, shapes)
    before = _value_types(model, shapes)
    kinds = [(whole, sites(whole), {k: to for k, to in ELEM_KINDS.items() if k not in SPLIT_KINDS})]
    if whole.whole:
        split = _groups(model, shapes, split=True)
        kinds.append((split, parts(split, whole), SPLIT_KINDS))
    for groups, found, targets in kinds:
        for group, site in found:
            src = groups.source(group)
            for k, to in targets.items():
                if not groups.allows(group, to):
                    continue
                moved = _copy(model)
                try:
                    names = move(moved, group, src, to)
                except (ValueError, TypeError, KeyError):  # a value that does not cast: no neighbour
                    continue
                if holds(moved, before, names, to):
                    yield k, site


#: family → its own candidates of a node-named model, exactly the ones :func:`_candidates` yields of that family
_FAMILY_CANDIDATES = {"elem": lambda model: _elem_candidates(model, _inferred(model))}


def _copy(model):
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    return out


# -- edits ----------------------------------------------------------------------------------------------


def _set_constant(model, name: str, k: str) -> bool:
    """Constant ``name`` (an initializer no graph input overrides, or a Constant's output) changed as kind
    ``k`` says, annotations refreshed where the kind can move a shape or value they depend on; False when it
    is no such constant or the kind does not apply."""
    arr = _constants(model).get(name)
    if arr is None:
        return False
    same = _equivalent(model, name, k)  # read on the base, before the change
    if vary_int.is_int_kind(k):
        new = vary_int.changed(model, name, arr, k, _inferred(model), lambda n: _schema(model, n))
    elif vary_scale.is_kind(k):
        new = vary_scale.changed(model, name, arr, _inferred(model), _readers(model), k)
    else:
        new = _changed(arr, k, _outrank(model, name) if k == "shape-outrank" else None)
    if new is None:
        return False
    _replace(model, name, new)
    vary_scale.settle(model, name, k)  # value-round-tie: the policy that reads the ratio
    if same:  # every value is the base's: its annotations hold, only the constant's own may change shape
        _annotate_constant(model, name, new)
    elif k in SHAPE_KINDS or vary_int.is_int_kind(k) or vary_scale.is_kind(k):  # a shape, axes, a count, scales
        _refresh_annotations(model)
        if vary_scale.is_kind(k):
            vary_scale.loosen(model, name)
    return True


def _equivalent(model, name: str, k: str) -> bool:
    """Whether kind ``k`` of constant ``name`` is an equivalent spelling (:func:`.vary_equiv.equivalent`): then the
    neighbour computes every value its base computes, and the base's annotations are kept (onnx shape inference
    may infer less for the other spelling, and made-up symbols such as ``unk__0`` for dims it does not know: a
    refresh would make the neighbour's annotations less precise than the base's, which the pair's parity oracle
    would blame on the pass)."""
    return equivalent(model, f"{PREFIX}{k}@{name}") is not None


def equivalent(model: onnx.ModelProto, form: str) -> str | None:
    """The spec source for ``form``'s neighbour of ``model`` computing what ``model`` computes (the kinds and their
    sources: :mod:`.vary_equiv`'s docs), or None when it is not (or not known to be) equivalent."""
    from passcheck.mutations.forms import named

    if is_chained(form):  # two changes: not known to be equivalent (a link may be, the other is not)
        return None
    k, _, site = form.partition("@")
    k = k[len(PREFIX) :]
    if site in {o.name for o in model.graph.output}:  # the constant's value is itself an output: it changes
        return None
    if vary_int.is_int_kind(k):
        model = named(model)
        shapes = _inferred(model)
        ok = vary_int.is_equivalent(k, model, site, shapes, lambda n: _schema(model, n))
        return f"{k}: the same value by the reader's schema (vary_int)" if ok else None
    if k == "shape-leading-one":
        return _leading_one_equivalent(named(model), site)
    if k == vary_axes.SIGN:
        return "axes-sign: an axis a and a - r name the same axis in [-r, r-1] (Operators.md, every Reduce*)"
    return None


def _leading_one_equivalent(model: onnx.ModelProto, name: str) -> str | None:
    arr = _constants(model).get(name)
    reads = _readers(model).get(name, [])
    if arr is None or not reads or not all(_broadcasts(model, n, i) for n, i in reads):
        return None
    shapes = _inferred(model)
    ranks = [_rank(n.output[0], shapes) if n.output else None for n, _ in reads]
    if any(r is None or r < arr.ndim + 1 for r in ranks):
        return None
    return "shape-leading-one: broadcasting prepends the 1 anyway (Broadcasting.md)"


def _annotate_constant(model, name: str, new: np.ndarray) -> None:
    """The shape of the annotations naming constant ``name`` itself (value_info, a graph output) set to ``new``'s."""
    for vi in [*model.graph.output, *model.graph.value_info]:
        if vi.name == name and vi.type.HasField("tensor_type"):
            shape = vi.type.tensor_type.shape
            del shape.dim[:]
            for d in new.shape:
                shape.dim.add().dim_value = d


def _outrank(model, name: str) -> int | None:
    """One more than the largest rank of the outputs of ``name``'s readers (None when one is unknown)."""
    shapes = _inferred(model)
    ranks = [_rank(o, shapes) for n, _ in _readers(model).get(name, []) for o in n.output[:1]]
    return None if not ranks or None in ranks else max(ranks) + 1  # type: ignore[type-var]


def _changed(arr: np.ndarray, k: str, rank: int | None = None) -> np.ndarray | None:
    """``arr`` changed as kind ``k`` says (``rank``: the target rank of ``shape-outrank``), or None."""
    import numpy as np

    if arr.dtype.kind != "f" or not 0 < arr.size <= SMALL:
        return None
    if k == "shape-outrank":
        return None if rank is None or rank <= arr.ndim else np.array(arr.reshape((1,) * (rank - arr.ndim) + arr.shape))
    if k == "value-nudge":
        with np.errstate(over="ignore"):
            nudged = arr * arr.dtype.type(1.01)
        # a finite element nudged past its type's largest value is inf: another value, not a nudge
        return None if (np.isfinite(nudged) != np.isfinite(arr)).any() else np.array(nudged, dtype=arr.dtype, order="C")
    new = {
        "value-negate": lambda: -arr,
        "value-zero": lambda: np.zeros_like(arr),
        "value-one": lambda: np.ones_like(arr),
        "shape-leading-one": lambda: arr.reshape((1, *arr.shape)),
        "shape-scalar": lambda: np.asarray(arr.reshape(-1)[0]),
        "shape-one-element": lambda: arr.reshape(-1)[:1],
    }[k]()
    return np.array(new, dtype=arr.dtype, order="C")  # ascontiguousarray would make a scalar 1-D


def _fit_outputs(model, node_name: str) -> bool:
    """:func:`.vary_attr_outputs.fit` on the node ``node_name`` of ``model`` after an attribute change; True also when
    its op has no schema here (nothing to ask)."""
    node = next(n for n in model.graph.node if n.name == node_name)
    schema = _schema(model, node)
    return schema is None or vary_attr_outputs.fit(model, node, schema, _inferred(model))


def _set_attribute(model, node_name: str, attr: str, text: str) -> bool:
    import onnx
    from onnx import helper

    node = next((n for n in model.graph.node if n.name == node_name), None)
    schema = None if node is None else _schema(model, node)
    if schema is None or attr not in schema.attributes:
        return False
    A = onnx.AttributeProto
    t = schema.attributes[attr].type
    value: Any = {
        A.INT: lambda: int(text),
        A.FLOAT: lambda: float(text),
        A.INTS: lambda: [int(x) for x in text.split(",")],
        A.STRING: lambda: text,
    }[t]()
    keep = [a for a in node.attribute if a.name != attr]
    del node.attribute[:]
    node.attribute.extend([*keep, helper.make_attribute(attr, value, attr_type=t)])
    return True


def _retype(model, site: str, to: int, split: bool = False) -> bool:
    """The group of ``site`` (``graph``: every float group together) moved to ``to`` (:mod:`.elem_groups`;
    ``split``: the group of the split groups, :mod:`.elem_split`), annotations refreshed by inference; False
    when the group may not move there."""
    from passcheck.hunt.elem_groups import FLOAT, holds
    from passcheck.hunt.elem_split import move

    shapes = _inferred(model)
    groups = _groups(model, shapes, split)
    if site == "graph" and not split:
        floats = [g for g in groups.all() if groups.source(g) == FLOAT]
        group = frozenset().union(*floats) if floats else None
    else:
        group = groups.of(site)
    if not group or not groups.allows(group, to):
        return False
    src = groups.source(group)
    before = _value_types(model, shapes)
    names = move(model, group, src, to)
    if not holds(model, before, names, to):
        return False
    _refresh_annotations(model)
    return True


def _refresh_annotations(model, zeros: bool = False) -> None:
    """Replace each annotation (graph output, value_info) that no longer agrees with what onnx shape
    inference infers for the changed model (another elem type, rank or static dim); keep the rest. ``zeros``: a
    declared 0 (``input-dim-zero``) is followed as ``input-fix-zero`` states its 0 in every declaration: inference
    also propagates shape values (onnx's ``data_prop``: a ``Shape`` read by a ``Reshape``), and an annotated dim
    left unknown where inference gives 0 is written 0."""
    from passcheck.hunt.fed_shapes import unannotated

    try:
        g = isolated_tools.infer_shapes(unannotated(model), data_prop=zeros).graph
        inferred = {v.name: v.type for v in [*g.value_info, *g.output]}
    except Exception:  # noqa: BLE001 - inference fails on this neighbour: the gate judges it as it is
        return
    for vi in [*model.graph.output, *model.graph.value_info]:
        new = inferred.get(vi.name)
        if new is None or not new.HasField("tensor_type"):
            continue
        if not _agrees(vi.type, new):
            vi.type.CopyFrom(new)
        elif zeros and vi.type.tensor_type.HasField("shape") and new.tensor_type.HasField("shape"):
            for old, got in zip(vi.type.tensor_type.shape.dim, new.tensor_type.shape.dim, strict=True):
                if old.WhichOneof("value") is None and got.HasField("dim_value") and got.dim_value == 0:
                    old.dim_value = 0


def _agrees(old, new) -> bool:
    a, b = old.tensor_type, new.tensor_type
    if b.elem_type and a.elem_type != b.elem_type:
        return False
    if not (a.HasField("shape") and b.HasField("shape")):
        return True
    if len(a.shape.dim) != len(b.shape.dim):
        return False
    return all(_same_dim(x, y) for x, y in zip(a.shape.dim, b.shape.dim))


def _same_dim(old, new) -> bool:
    """Whether an annotated dim agrees with the inferred one: either unknown, or both the same value or the same
    symbol (a symbol where inference gives a value, or another symbol, is another dim: a neighbour that moves an
    axis, ``int-nudge`` of a Reduce's axes, moves the static 1 among the symbolic dims)."""
    if old.WhichOneof("value") is None or new.WhichOneof("value") is None:
        return True
    return old.WhichOneof("value") == new.WhichOneof("value") and getattr(old, old.WhichOneof("value")) == getattr(
        new, new.WhichOneof("value")
    )


# -- reading --------------------------------------------------------------------------------------------


def _opset(model, domain: str) -> int:
    return next((o.version for o in model.opset_import if o.domain in ((domain,) if domain else ("", "ai.onnx"))), 0)


def _schema(model, node):
    import onnx

    try:
        return onnx.defs.get_schema(node.op_type, _opset(model, node.domain), node.domain)
    except Exception:  # noqa: BLE001 - a custom op or one this onnx does not know: no schema to derive from
        return None


def _inferred(model) -> dict[str, Any]:
    """Value name → TypeProto (graph inputs, initializers, inferred value_info, outputs)."""
    import onnx

    try:
        done = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - inference fails: only what the model declares
        done = model
    g = done.graph
    out = {v.name: v.type for v in [*g.input, *g.value_info, *g.output]}
    for t in g.initializer:
        out.setdefault(t.name, onnx.helper.make_tensor_type_proto(t.data_type, list(t.dims)))
    return out


def _value_types(model, shapes) -> dict[str, int]:
    return {k: t.tensor_type.elem_type for k, t in shapes.items() if t.HasField("tensor_type")}


def _rank(name: str, shapes) -> int | None:
    t = shapes.get(name)
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return len(t.tensor_type.shape.dim)
