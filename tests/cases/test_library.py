"""Every form of every registered case is a valid model that computes what its common form does.

Checked per form and binding: onnx.checker (full_check), an unoptimized onnxruntime run, the
onnx reference evaluator, and the form's own shape annotations against the values observed in
its run (seed 000). A case that fails here is a broken case, not a finding.
"""

from __future__ import annotations

import warnings

import onnx
import onnx.checker
import onnx.reference
import pytest

from passcheck.cases import registry
from passcheck.engine import seed_for
from passcheck.oracles import shape_annotations
from passcheck.oracles.numeric import compare
from passcheck.runtime import all_node_outputs, run_ort, synthesize

#: Families whose forms no CPU session runs by construction (onnxruntime has the op's schema and no CPU kernel), judged
#: instead by onnxruntime's graph resolution in their own test (tests/cases/test_contrib_static.py).
NOT_RUN_HERE = ("contrib-static/",)
registry().claim_library()  # the gated families too, not only when a module collected earlier claimed them
CASES = [c for c in registry() if not c.id.startswith(NOT_RUN_HERE)]
#: Reference-evaluator errors that mean "this op is not implemented there", not "the form is wrong".
REFERENCE_GAPS = (
    "no implementation",
    "not implemented",
    "is not supported",
    "unable to find",
    "not found in domain",
    "no onnx corresponding type",
    "from domain 'com.microsoft' is unknown",  # a contrib op (FusedMatMul) the reference evaluator lacks
)
#: (case, form) → why the reference evaluator's numbers are not comparable for it (a reference gap, reported).
REFERENCE_SKIPS = {
    (
        "control-flow/loop-trip-one",
        "loop-carried",
    ): 'Loop with cond written "" runs no iteration in the reference evaluator (ort and cond=true agree)',
    (
        "control-flow/loop-trip-one",
        "loop-outer-scope",
    ): 'Loop with cond written "" runs no iteration in the reference evaluator',
    (
        "control-flow/loop-scan-output",
        "scan-output",
    ): 'Loop with cond written "" runs no iteration in the reference evaluator',
    (
        "non-tensor/optional-get-element",
        "optional",
    ): "OptionalGetElement(Optional(x)) returns a list in the reference evaluator",
    (
        "graph-interface/optional-output",
        "common",
    ): "an optional graph output comes back as a list in the reference evaluator",
    (
        "graph-interface/optional-output",
        "identity",
    ): "an optional graph output comes back as a list in the reference evaluator",
}
#: (case, form) → why the onnx checker rejects this form although onnxruntime runs it (the
#: library's validity-disagreement forms). The test fails once the checker accepts it.
KNOWN_CHECKER_REJECTS = {
    ("graph-interface/output-without-shape", "no-shape"): "a graph output's tensor type without a shape field",
    ("scope-names/if-branch", "initializer-as-later-output"): "strict inference lets the later outer declared type "
    "of t reach the branch initializer t (docs/found.md row 1433)",
    ("scope-names/loop-body", "initializer-as-later-output"): "strict inference lets the later outer declared type "
    "of t reach the body initializer t (docs/found.md row 1433)",
    ("scope-names/if-constant-condition", "initializer-as-later-output"): "strict inference lets the later outer "
    "declared type of t reach the branch initializer t (docs/found.md row 1433)",
}
#: (case, form) → why onnxruntime cannot run this valid form unoptimized. The form is then checked
#: with the reference evaluator only, and the test fails once onnxruntime runs it (remove the entry).
KNOWN_ORT_FAILURES = {
    ("optional-input/squeeze-axes", "empty-name"): 'Squeeze kernel: "Axes input is null" when axes is written as ""',
    (
        "constant/sparse-value",
        "sparse-value",
    ): 'a Constant(sparse_value) output that is also a graph output: "Missing Input"'
    " (the observation run exposes it; the plain run works)",
}


def _feeds(case, common):
    return [
        case.feeds(b, seed_for(case.id, i)) if case.feeds else synthesize(common, b, seed_for(case.id, i))
        for i, b in enumerate(case.bindings)
    ]


def _agree(case, got: dict, want: dict, what: str) -> None:
    assert list(got) == list(want), f"{what}: outputs {list(got)} vs common {list(want)}"
    for name, value in want.items():
        c = compare(got[name], value, case.rtol, case.atol)
        assert c.ok, f"{what}: output {name!r}: {c.message}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_form_is_valid_and_agrees(case):
    skip = case.skip_reason(onnx.__version__)
    if skip:
        pytest.skip(skip)
    models = {name: case.build(name) for name in case.forms}
    feeds = _feeds(case, models["common"])
    expected = []
    for f in feeds:
        base = run_ort(models["common"], f)
        assert base.error is None, f"common form does not run: {base.error}"
        expected.append(base.outputs)
    for name, model in models.items():
        if (case.id, name) in KNOWN_CHECKER_REJECTS:
            with pytest.raises(Exception):  # noqa: B017,PT011 - ValidationError or InferenceError
                onnx.checker.check_model(model, full_check=True)
            warnings.warn(
                f"{case.id}:{name}: the checker rejects it: {KNOWN_CHECKER_REJECTS[case.id, name]}", stacklevel=1
            )
        else:
            onnx.checker.check_model(model, full_check=True)
        ref = None
        if (case.id, name) in REFERENCE_SKIPS:
            warnings.warn(
                f"{case.id}:{name}: reference comparison skipped: {REFERENCE_SKIPS[case.id, name]}", stacklevel=1
            )
        else:
            try:
                ref = onnx.reference.ReferenceEvaluator(model)
            except Exception as exc:  # noqa: BLE001 - classified below
                _reference_gap(case, name, exc)
        for i, f in enumerate(feeds):
            run = run_ort(model, f, expose=all_node_outputs(model))
            known = KNOWN_ORT_FAILURES.get((case.id, name))
            if known:
                assert run.error, f"{case.id}:{name} now runs under onnxruntime; remove it from KNOWN_ORT_FAILURES"
                plain = run_ort(model, f)
                if plain.error is None:
                    _agree(case, plain.outputs, expected[i], f"{name} under ort, unobserved (binding {i})")
                else:
                    assert ref is not None, (
                        f"{case.id}:{name}: known onnxruntime failure ({known}) and no reference run"
                    )
                warnings.warn(
                    f"{case.id}:{name}: onnxruntime cannot run it observed ({known}); annotations not checked",
                    stacklevel=1,
                )
            else:
                assert run.error is None, f"{name} (binding {i}) does not run: {run.error}"
                _agree(case, run.outputs, expected[i], f"{name} under ort (binding {i})")
                report = shape_annotations.check(model, run.observed)
                assert report.ok, f"{name} (binding {i}): wrong annotations: {[v.message for v in report.violations]}"
            if ref is None:
                continue
            try:
                values = ref.run(None, {k: v for k, v in f.items() if k in ref.input_names})
            except Exception as exc:  # noqa: BLE001 - classified below
                _reference_gap(case, name, exc)
                ref = None
                continue
            _agree(
                case,
                dict(zip([o.name for o in model.graph.output], values)),
                expected[i],
                f"{name} under the reference evaluator (binding {i})",
            )


def _reference_gap(case, form: str, exc: Exception) -> None:
    text = f"{type(exc).__name__}: {exc}"
    if not any(g in text.lower() for g in REFERENCE_GAPS):
        raise AssertionError(f"{case.id}:{form}: the reference evaluator rejects the form: {text[:500]}") from exc
    warnings.warn(f"{case.id}:{form}: reference comparison skipped: {text.splitlines()[0][:200]}", stacklevel=2)


def test_library_is_broad():
    mine = [c for c in CASES if "seed" not in c.tags]
    assert len(mine) >= 40, f"{len(mine)} non-seed cases"
    assert len({c.family for c in mine}) >= 10, sorted({c.family for c in mine})
