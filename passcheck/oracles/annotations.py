"""Annotations: the shape/type annotations a pass output carries hold when it runs (seed 000).

Judged on the runs of the pass output with the original feeds. It asks the runtime to observe
every annotated value: the shape and element type of main-graph tensors
(:meth:`Annotations.observes_shapes`, read from onnxruntime's profile of the run), other
main-graph values whole (:meth:`Annotations.observes`, exposed); for a model with subgraphs or
model-local functions the runtime adds a reference-evaluator run, which sees the values of every
scope. Annotated initializers not fed are observed from the model. Where no engine can observe a
value, coverage says so; it is never counted as checked. A precondition violation here means the pass changed a graph
input annotation so that
inputs valid for the original model no longer satisfy it; that is reported against the pass too.
A violated main-graph tensor annotation that onnx's reference evaluator computes as annotated is still
reported, as the runtime's deviation (``details["blame"] == "runtime"``, :func:`reference_holds`).
A violated annotation of a form itself that onnx's shape inference writes again when it is removed
(:mod:`passcheck.oracles.inference_wrote`: a form filled by ``inferred-value-info``) is onnx inference's
(``details["annotated_by"] == "onnx"``).
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from passcheck.oracles import shape_annotations
from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, PASS, BaseOracle, Cells
from passcheck.oracles.inference_wrote import written_by_inference
from passcheck.records import INPUT as FORM_ITSELF
from passcheck.records import Finding, brief
from passcheck.runtime.graph_index import index_of, per_model
from passcheck.runtime.plan import annotated_values, plan_of

NAME = "annotations"


def _reports(run: FormRun) -> list:
    """(binding index, AnnotationReport) per successful run, computed once per FormRun (the
    findings and the coverage both read them; a reference-evaluator run is not cheap)."""
    cached = run.__dict__.get("_annotation_reports")
    if cached is None:
        cached = run.__dict__["_annotation_reports"] = list(_compute(run))
    return cached


def _compute(run: FormRun):
    out = run.output
    if out is None:
        return
    plan = None  # the output's annotations, read once for every run (and kept by fingerprint)
    for i, r in enumerate(run.runs):
        if not r.error:  # the runtime observed what :meth:`Annotations.observes` asked, subgraphs included
            if plan is None and getattr(r.observed, "of", None) is out:  # the run carries it (observe_run)
                plan = getattr(r.observed, "plan", None)
            plan = plan or plan_of(out)
            report = shape_annotations.check(
                out, r.observed, unobservable=r.unobservable, unknown_dim_param=run.unknown_dim_param, plan=plan
            )
            yield i, _second_opinion(run, i, report)


def _second_opinion(run: FormRun, binding: int, report: Any) -> Any:
    """``report`` with each violation of a subgraph or function value (seen by the reference evaluator only) that
    onnxruntime disputes moved to ``unobservable`` (:func:`passcheck.runtime.node_alone.evaluator_departs`, M252):
    the evaluator's value of that node is no evidence against the annotation, and the pass is not blamed on it."""
    inner = [v for v in report.violations if v.rule in _ONE_VALUE and "::" in v.value]
    if not inner or len(run.output.graph.node) > REFERENCE_MAX_NODES:
        return report
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)
    from passcheck.runtime.node_alone import evaluator_departs

    ref = run_reference(run.output, run.feeds[binding])
    if ref.error:
        return report
    for v in inner:
        key = re.sub(r"#\d+$", "", v.value)  # the observation key (a violation names the iteration or call)
        if key not in report.unobserved and (why := evaluator_departs(run.output, ref.observed, v.value)):
            report.unobservable[key] = report.unobserved[key] = f"{why} ({v.value})"
            report.checked -= 1
    report.violations = [v for v in report.violations if re.sub(r"#\d+$", "", v.value) not in report.unobserved]
    return report


#: The rules a value of one run is judged on alone (a symbol conflict spans values; kind, key type: not tensors).
_ONE_VALUE = frozenset({"elem-type", "rank", "dim-value"})
#: Models with more main-graph nodes are not run on the reference evaluator (pure Python: a large model costs
#: minutes); their violations keep blaming the pass, as before the tie-break.
REFERENCE_MAX_NODES = 200
#: Added to the message of a violation :func:`reference_holds` blames on the runtime.
RUNTIME_DEVIATES = "; onnx's reference evaluator computes it as annotated: the runtime deviates"


def reference_holds(run: FormRun, binding: int, value: str) -> bool:
    """Whether onnx's reference evaluator (the spec's executable form, ``onnx.reference``), run on the pass output
    with binding ``binding``'s feeds, computes a value ``value`` (a main-graph tensor) whose elem type, rank and
    dim values satisfy its annotation. True means the annotation is what the operator's definition gives and the
    runtime's value deviates from it: the run's kernel is to blame, not the pass (session 26: onnx 1.23's
    Resize dims ``floor(dim * scale)`` against onnxruntime's float32 product). False when the evaluator fails,
    does not observe the value, or disagrees with the annotation too, and for a model of more than
    :data:`REFERENCE_MAX_NODES` nodes (not run)."""
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    out = run.output
    if out is None or binding >= len(run.feeds) or len(out.graph.node) > REFERENCE_MAX_NODES:
        return False
    ref = run_reference(out, run.feeds[binding])
    if ref.error or value not in (ref.observed or {}):
        return False
    report = shape_annotations.check(out, ref.observed, unknown_dim_param=run.unknown_dim_param)
    return not any(v.value == value for v in report.violations)


def check(run: FormRun) -> list[Finding]:
    found: list[Finding] = []
    seen: set[str] = set()
    producers: dict[str, str] | None = None  # read from the output at the first violation (most runs have none)
    for i, report in _reports(run):
        for v in report.violations:
            if v.message in seen:
                continue
            seen.add(v.message)
            if producers is None:
                producers = _producers(run.output) if run.output is not None else {}
            what = "graph input annotation (narrowed by the pass)" if v.role == "precondition" else "annotation"
            runtime = v.role == "assertion" and v.rule in _ONE_VALUE and v.value in producers
            runtime = runtime and reference_holds(run, i, v.value)
            wrote = _inference_wrote(run, v) if not runtime else None
            found.append(
                run.finding(
                    "annotation-violated",
                    NAME,
                    f"{what} does not hold (binding {i}): {v.message}"
                    + (RUNTIME_DEVIATES if runtime else "")
                    + (f"; {wrote}: the annotation is onnx inference's" if wrote else ""),
                    binding=i,
                    value=v.value,
                    role=v.role,
                    rule=v.rule,
                    occurrences=[o.to_json() for o in v.occurrences],
                    **({"producer": producers[v.value]} if producers.get(v.value) else {}),
                    **({"blame": "runtime"} if runtime else {}),
                    **({"annotated_by": "onnx", "inference": _onnx_version()} if wrote else {}),
                )
            )
    return found


def _inference_wrote(run: FormRun, v: Any) -> str | None:
    """On a form itself (pass ``input``): whether onnx shape inference writes the violated annotation of every value
    ``v`` names (:func:`passcheck.oracles.inference_wrote.written_by_inference`; a symbol's occurrences name values
    as ``name[i]`` for a sequence's elements), or None."""
    if run.pass_id != FORM_ITSELF or run.output is None:
        return None
    names = {re.sub(r"\[.*", "", o.value) for o in v.occurrences} or {v.value}
    return written_by_inference(run.output, names)


def _onnx_version() -> str:
    import onnx

    return f"onnx {onnx.__version__}"


def _producers(model) -> dict[str, str]:
    """Each main-graph value of ``model`` → the op type of the node computing it (``""`` for a graph input or
    initializer; ``domain::op`` outside the default domain)."""
    g = model.graph
    out = {vi.name: "" for vi in g.input} | {t.name: "" for t in g.initializer}
    for n in g.node:
        op = f"{n.domain}::{n.op_type}" if n.domain not in ("", "ai.onnx") else n.op_type
        out.update((o, op) for o in n.output if o)
    return out


def coverage(run: FormRun) -> dict:
    """Values annotated / checked / unobserved on the first successful run of the output; when the
    output ran and no run succeeded, every annotated value is unchecked, the first error as why."""
    for _i, report in _reports(run):
        return report.coverage()
    failed = [(i, r.error) for i, r in enumerate(run.runs) if r.error]
    if run.output is None or not failed:
        return {}
    i, error = failed[0]
    why = f"the model did not run (binding {i}: {brief(error)})"
    keys = list(dict.fromkeys(step[0] for step in plan_of(run.output).steps))
    return {
        "annotated": len(keys),
        "checked": 0,
        "unobserved": 0,
        "unobservable": 0,
        "unchecked": len(keys),
        "reasons": {k: why for k in keys},
    }


def unchecked(run: FormRun) -> dict[str, str]:
    """``annotation <value>`` → why, for each annotated value passcheck's engines could not
    observe in some run (a value of a branch that never ran is not listed: nothing to check)."""
    out: dict[str, str] = {}
    for i, report in _reports(run):
        for key, why in report.unobservable.items():
            out.setdefault(f"annotation {key!r}", f"{why} (binding {i})")
    return out


def holds(run: FormRun, key: str) -> bool:
    """Whether the annotation of ``key`` (a main-graph value of the pass output) was checked in
    every run and holds: not unobserved, not violated, not part of a symbol conflict. False when
    the output did not run (nothing verified)."""
    reports = _reports(run)
    if not reports or len(reports) < len(run.runs):
        return False
    for _i, report in reports:
        if key in report.unobserved or key in report.unchecked:
            return False
        for v in report.violations:
            if (
                v.value == key
                or v.value[len(key) : len(key) + 1] in ("[", "{", "#")
                and v.value.startswith(key)
                or any(o.value == key for o in v.occurrences)
            ):
                return False
    return True


@per_model
def _asked(model) -> tuple[list[str], list[str]]:
    """(observation keys of annotated values read whole, main-graph keys whose shape and element
    type only are read): a main-graph value goes to the second when each of its annotations is a
    tensor type; every subgraph and function value goes to the first."""
    g = model.graph
    kinds: dict[str, set] = {}
    for vi in itertools.chain(g.input, g.output, g.value_info):
        if kind := vi.type.WhichOneof("value"):
            kinds.setdefault(vi.name, set()).add(kind)
    shapes = [k for k, found in kinds.items() if found == {"tensor_type"}]
    whole = [k for k, found in kinds.items() if found != {"tensor_type"}]
    if index_of(model).has_subscopes:
        whole += dict.fromkeys(a.key for a in annotated_values(model) if a.scope)
    return whole, shapes


class Annotations(BaseOracle):
    """``annotation-violated`` on pass outputs and on the forms themselves (seed 000)."""

    id = NAME
    kinds = frozenset({PASS, INPUT})

    def observes(self, model) -> list[str]:
        """Values read whole: sequences, optionals, maps, sparse tensors, and every value of a
        subgraph or function (a reference-evaluator run)."""
        return list(_asked(model)[0])

    def observes_shapes(self, model) -> list[str]:
        """Main-graph values every annotation of which is a tensor type: the check reads their
        shape and element type only."""
        return list(_asked(model)[1])

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return check(run)

    def unchecked_run(self, run: FormRun, cells: Cells) -> dict[str, str]:
        return unchecked(run)


ORACLE = Annotations()
