"""Conformance: what a pass writes stays inside the domains the operator documentation states.

``onnx.checker`` verifies the schema's structure and onnx shape inference rejects much, but many
documented rules are prose only: a ``nearest_mode`` outside its four modes, a reduce axis named
twice where that is undefined, a Split whose sizes do not add up when the dim is not static, pads
of the wrong length. onnxruntime accepts some of them (it ignores, clamps or guesses). This oracle
reads every node of the main graph and its subgraphs against

- the rules of :data:`passcheck.oracles.spec_rules.RULES` (prose in the operator docs, each with
  its source), and
- the node's own schema in ``onnx.defs`` at the imported opset (it exists there: since_version;
  attribute types; input/output arity; each input's and output's elem type allowed by its type
  constraint, and one type per constraint),

and reports ``spec-violation`` with the rule's source. It judges only models the checker accepts
(``invalid-model`` is the validity oracle's) and, on a pass output, only violations its input
does not already have. On a form itself (pass ``input``) a violation is the form's fault, not any
pass's: a bug in the case or rewrite that built it (or in the model given), said so in the finding.

A rule that applies and cannot be decided (a rank shape inference did not give, an input that is
not constant) is neither a finding nor checked: the cell's ``coverage["spec_rules"]`` counts it as
not applicable, with why. The cell's verdict does not turn ``unchecked`` over it: the rule's
premise is missing, not its judgement.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, PASS, BaseOracle, Cells
from passcheck.oracles.spec_rules import Site, Undecided
from passcheck.oracles.spec_table import RULES
from passcheck.records import Finding
from passcheck.runtime.graph_index import per_model
from passcheck.typestr import schema_type

NAME = "conformance"
KIND = "spec-violation"
#: Undecided rules named in a cell's coverage (the count covers them all).
MAX_REASONS = 20
_DEFAULT = ("", "ai.onnx")


@dataclasses.dataclass(frozen=True)
class Violation:
    rule: str
    node: str
    op_type: str
    message: str
    source: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.rule, self.op_type, self.message)


@dataclasses.dataclass
class Evaluation:
    """Every rule on every node of one model: what broke, how many were decided, and why the rest were not."""

    violations: list[Violation] = dataclasses.field(default_factory=list)
    decided: int = 0
    undecided: dict[str, str] = dataclasses.field(default_factory=dict)

    def coverage(self) -> dict[str, Any]:
        reasons = dict(list(self.undecided.items())[:MAX_REASONS])
        return {"checked": self.decided, "not_applicable": len(self.undecided), "reasons": reasons}


@per_model
def evaluate(model) -> Evaluation:
    """:class:`Evaluation` of ``model`` (a ModelProto; static shapes from onnx shape inference when it runs)."""
    import onnx.shape_inference

    from passcheck.execution.payloads import whole

    full = whole(model)  # a pass output hollowed in this process: its payloads back (rules read constants)
    try:
        typed = onnx.shape_inference.infer_shapes(full)
    except Exception:  # noqa: BLE001 - shape inference is a source of ranks; without it, the model's own value_info
        typed = full
    return _evaluate(model, typed)


def _evaluate(model, typed) -> Evaluation:
    opsets = {o.domain or "": o.version for o in model.opset_import}
    ev = Evaluation()
    declared = {vi.name: vi.type for vi in [*model.graph.output, *model.graph.value_info]}
    _walk(typed.graph, opsets, {}, {}, ev, "", declared)
    return ev


def _evaluation(model, checker) -> Evaluation:
    """:func:`evaluate`, without onnx shape inference where it kills its process on ``model`` (asked
    first in ``checker``'s worker when it has one): oracles run in passcheck's process, so a tool that
    can crash is never called here on a model it crashes on; ranks then come from value_info alone."""
    died = getattr(checker, "inference_died", None)
    if died is not None and died(model):
        from passcheck.execution.payloads import whole

        return _evaluate(model, whole(model))
    return evaluate(model)


def _walk(
    graph, opsets: dict[str, int], outer_types: dict, outer_consts: dict, ev: Evaluation, scope: str, declared=None
) -> None:
    """Judge every node of ``graph`` (and its subgraphs); ``declared``: the main graph's own output and value_info
    types (:attr:`Site.declared`), none for a subgraph."""
    import onnx
    from onnx import helper

    from passcheck.runtime.constants import constant_attribute, value_of

    types = dict(outer_types)
    for vi in [*graph.input, *graph.output, *graph.value_info]:
        types[vi.name] = vi.type
    consts = dict(outer_consts)
    overridden = {i.name for i in graph.input}
    for t in graph.initializer:
        types.setdefault(t.name, helper.make_tensor_type_proto(t.data_type, list(t.dims)))
        if t.name not in overridden:
            consts[t.name] = t
    for i, node in enumerate(graph.node):
        label = f"{scope}{node.name or f'{node.op_type}_{i}'}"
        domain = "" if node.domain in _DEFAULT else node.domain
        version = opsets.get(domain) or opsets.get("ai.onnx", 0)
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute if not a.ref_attr_name}
        site = Site(
            node,
            version,
            attrs,
            lambda n: value_of(consts[n]) if n in consts else None,
            lambda n: _dims(types.get(n)),
            lambda n: _dims((declared or {}).get(n)),
        )
        if domain == "":
            _judge(site, label, ev)
        _schema(site, label, types, ev)
        if (value := constant_attribute(node)) is not None:
            consts[node.output[0]] = value
        for a in node.attribute:
            for g in [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs):
                _walk(g, opsets, types, consts, ev, f"{label}.{a.name}::")


def _dims(t) -> list[int | None] | None:
    if t is None or t.WhichOneof("value") != "tensor_type" or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]


@functools.lru_cache(maxsize=4096)
def _rules_for(op_type: str, version: int) -> tuple:
    """The rules of RULES (in its order) that apply to ``op_type`` at opset ``version``."""
    return tuple(rule for rule in RULES if rule.applies(op_type, version))


def _judge(site: Site, label: str, ev: Evaluation) -> None:
    for rule in _rules_for(site.node.op_type, site.version):
        try:
            got = rule.check(site)
        except Exception as exc:  # noqa: BLE001 - a value a rule cannot read is not a verdict on the pass
            got = Undecided(f"the rule could not read the node: {type(exc).__name__}: {exc}")
        _record(ev, rule.id, label, site.node.op_type, got, rule.cite)


def _record(ev: Evaluation, rule: str, label: str, op_type: str, got, source: str) -> None:
    if isinstance(got, Undecided):
        ev.undecided[f"{rule}@{label}"] = str(got)
        return
    ev.decided += 1
    if got:
        ev.violations.append(Violation(rule, label, op_type, got, source))


@dataclasses.dataclass(frozen=True)
class _Formal:
    """What the rules read of one ``onnx.defs`` formal parameter."""

    name: str
    option: Any  # OpSchema.FormalParameterOption
    min_arity: int
    type_str: str
    is_homogeneous: bool


@dataclasses.dataclass(frozen=True)
class _Schema:
    """What the rules read of one ``onnx.defs`` schema, read once per (op, opset, domain): each attribute of a
    schema object is built anew on every access."""

    since_version: int
    attributes: dict[str, tuple[int, str]]  # name -> (AttributeProto type, its name)
    inputs: tuple[_Formal, ...]
    outputs: tuple[_Formal, ...]
    max_input: int
    max_output: int
    allowed: dict[str, frozenset[str]]  # type parameter -> allowed type strings


def _formals(formals) -> tuple[_Formal, ...]:
    return tuple(_Formal(f.name, f.option, f.min_arity, f.type_str, f.is_homogeneous) for f in formals)


@functools.lru_cache(maxsize=4096)
def _schema_of(op_type: str, version: int, domain: str) -> _Schema | None:
    """The schema ``onnx.defs`` gives ``op_type`` at opset ``version`` of ``domain``, None when it has none."""
    import onnx.defs

    try:
        schema = onnx.defs.get_schema(op_type, version, domain)
    except Exception:  # noqa: BLE001 - SchemaError: no such op at this opset
        return None
    return _Schema(
        schema.since_version,
        {name: (int(a.type), a.type.name) for name, a in schema.attributes.items()},
        _formals(schema.inputs),
        _formals(schema.outputs),
        schema.max_input,
        schema.max_output,
        {c.type_param_str: frozenset(c.allowed_type_strs) for c in schema.type_constraints},
    )


def _schema(site: Site, label: str, types: dict, ev: Evaluation) -> None:
    """The rules ``onnx.defs`` states for the node's op at its opset (see the module doc)."""
    node = site.node
    domain = "" if node.domain in _DEFAULT else node.domain
    schema = _schema_of(node.op_type, site.version, domain)
    if schema is None:
        if domain == "":
            _record(
                ev,
                "schema-since-version",
                label,
                node.op_type,
                f"{node.op_type} has no schema at opset {site.version} of the default domain",
                "an op is used at an opset its domain defines it in (IR.md, Operator Sets; the op's since_version)",
            )
        return
    src = f"the {node.op_type}-{schema.since_version} schema in onnx.defs"
    for a in node.attribute:
        want = schema.attributes.get(a.name)
        if want is not None and not a.ref_attr_name and want[0] != int(a.type):
            _record(
                ev,
                "schema-attribute-type",
                label,
                node.op_type,
                f"attribute {a.name!r} has type {a.type}, the schema says {want[1]}",
                f"an attribute has the type its schema declares ({src})",
            )
    for what, names, formals, hi in (
        ("inputs", node.input, schema.inputs, schema.max_input),
        ("outputs", node.output, schema.outputs, schema.max_output),
    ):
        n, lo = _trimmed(names), _required(formals)
        got = None if lo <= n <= hi else f"{n} {what}; the schema allows {lo} to {hi}"
        missing = [f.name for f, name in zip(formals, names, strict=False) if not name and f.option == f.option.Single]
        got = got or (f"required {what} {missing} written as ''" if missing else None)
        _record(
            ev,
            "schema-arity",
            label,
            node.op_type,
            got,
            f"every required input and output is given, and no more than the schema allows ({src}; "
            "IR.md, Optional Inputs and Outputs)",
        )
    _constraints(site, label, schema, types, ev, src)


def _required(formals) -> int:
    """How many leading slots a node must fill: up to the last Single formal, and a trailing
    variadic's minimum arity (an optional slot at the end may be left out)."""
    n = 0
    for i, f in enumerate(formals):
        if f.option == f.option.Single:
            n = i + 1
        elif f.option == f.option.Variadic and i == len(formals) - 1:
            n = max(n, i + f.min_arity) if f.min_arity else n
    return n


def _trimmed(names) -> int:
    n = len(names)
    while n and not names[n - 1]:
        n -= 1
    return n


def _constraints(site: Site, label: str, schema: _Schema, types: dict, ev: Evaluation, src: str) -> None:

    allowed = schema.allowed
    bound: dict[str, set[str]] = {}
    for formals, names in ((schema.inputs, site.node.input), (schema.outputs, site.node.output)):
        for i, name in enumerate(names):
            if not name or not formals:
                continue
            formal = formals[min(i, len(formals) - 1)]
            t = types.get(name)
            if (
                formal.type_str not in allowed
                or t is None
                or t.WhichOneof("value") != "tensor_type"
                or not t.tensor_type.elem_type
            ):
                continue
            got = schema_type(t.tensor_type.elem_type)
            bad = (
                None
                if got in allowed[formal.type_str]
                else f"{name!r} is {got}, not allowed by {formal.type_str} of {formal.name!r}"
            )
            _record(
                ev,
                "schema-type-constraint",
                label,
                site.node.op_type,
                bad,
                f"each input and output has an elem type its type constraint allows ({src})",
            )
            if formal.is_homogeneous:
                bound.setdefault(formal.type_str, set()).add(got)
    for param, seen in bound.items():
        got = None if len(seen) <= 1 else f"type parameter {param} is bound to {sorted(seen)}"
        _record(
            ev,
            "schema-type-binding",
            label,
            site.node.op_type,
            got,
            f"every input and output sharing a type parameter has the same type ({src})",
        )


def check(run: FormRun) -> list[Finding]:
    """``spec-violation`` per rule broken by a model the checker accepts (on a pass output: only rules its
    input does not break the same way)."""
    out = run.output
    if out is None or (run.checker or _checker)(out) is not None:
        return []
    found = _evaluation(out, run.checker).violations
    if run.pass_id != "input":
        before = {v.key for v in _evaluation(run.model, run.checker).violations}
        return [
            run.finding(
                KIND,
                NAME,
                f"{run.pass_id} wrote {v.op_type} {v.node!r} outside its documented domain: {v.message}; "
                f"the spec: {v.source}",
                rule=v.rule,
                node=v.node,
                source=v.source,
                blame="pass",
            )
            for v in found
            if v.key not in before
        ]
    return [
        run.finding(
            KIND,
            NAME,
            f"this form breaks a documented rule at {v.op_type} {v.node!r}: {v.message}; the spec: {v.source}. "
            "The form is wrong, not any pass (a bug in the case or rewrite that built it, or in the model given)",
            rule=v.rule,
            node=v.node,
            source=v.source,
            blame="form",
        )
        for v in found
    ]


@per_model
def _checker(model) -> str | None:
    """The checker's verdict in this process (no isolation worker), read once per model in a shared block."""
    from passcheck.oracles.validity import checker_error

    return checker_error(model)


def coverage(run: FormRun) -> dict[str, Any]:
    """``{"spec_rules": {checked, not_applicable, reasons}}`` for the pass output (empty when there
    is none or the checker rejects it)."""
    out = run.output
    if out is None or (run.checker or _checker)(out) is not None:
        return {}
    return {"spec_rules": _evaluation(out, run.checker).coverage()}


class Conformance(BaseOracle):
    """``spec-violation`` (see :func:`check`), on pass outputs and forms."""

    id = NAME
    kinds = frozenset({PASS, INPUT})

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)

    def coverage(self, run: FormRun) -> dict[str, Any]:
        return coverage(run)


ORACLE = Conformance()
