"""Every hand-written pattern base (``cases/patterns_*.py``) triggers what it names, observed by effect.

For each ``pattern-onnxscript*`` case, the rule its doc targets and the rules its tags name are
among the rules ``onnxscript``'s pipelines applied (:func:`passcheck.coverage.onnxscript.triggers`).
For each ``pattern-ort*`` case, the common form's evidence (:func:`passcheck.coverage.ort.triggers`:
the verbose log's ``GraphTransformer <name> modified: 1`` for a transformer, for a rule the change
of the optimized graph when ``disabled_optimizers`` names it) must include the transformer or rule
the case's doc targets and every other one its tags name. Sessions run in the isolation worker.
"""

from __future__ import annotations

import pytest

from passcheck.cases import registry
from passcheck.cases.fusion import TARGET, transformer_tag
from passcheck.cases.rules import TARGET as RULE_TARGET
from passcheck.cases.rules import rule_tag
from passcheck.coverage import onnxscript as cov_script
from passcheck.coverage import ort as cov_ort
from passcheck.passes.isolation import IsolatedExecutor
from tests._shared import built_once

PATTERNS = [c for c in registry() if c.id.startswith("pattern-ort")]
#: Bases whose target the installed platform preempts: NchwcTransformer takes a 2-D float Conv
#: first wherever MLAS has an NCHWc block size (x86-64), so ConvAddActivationFusion never sees it.
PREEMPTED = {"pattern-ort-fusion/conv-add-relu": "NchwcTransformer"}


def _shared_evidence(tmp_path_factory, key: str, observe) -> dict[str, set[str]]:
    """``observe(executor)`` (case id → names) once per test run, shared by the xdist workers (tests/_shared.py)."""

    def build(_folder):
        with IsolatedExecutor(timeout=300) as ex:
            return {case: sorted(names) for case, names in observe(ex).items()}

    return {case: set(names) for case, names in built_once(tmp_path_factory, key, build)[1].items()}


@pytest.fixture(scope="session")
def evidence(tmp_path_factory):
    """Case id → names of the transformers and rules its common form triggers."""
    return _shared_evidence(
        tmp_path_factory,
        "pattern-ort-evidence",
        lambda ex: {c.id: {k.split(":", 2)[2] for k in ex.call(cov_ort.triggers, c.build("common"))} for c in PATTERNS},
    )


def _named(case) -> set[str]:
    """The catalogue names among the case's tags (``ort-<name>``), the doc's target included."""
    known = {n for names in cov_ort.rules().values() for n in names}
    target = TARGET.search(case.doc).group(1)
    return {target} | {n for n in known if transformer_tag(n) in case.tags}


def test_there_are_pattern_bases():
    assert len(PATTERNS) >= 30


@pytest.mark.parametrize("case", PATTERNS, ids=[c.id for c in PATTERNS])
def test_common_form_triggers_its_target(case, evidence):
    fired = evidence[case.id]
    target = TARGET.search(case.doc).group(1)
    if case.id in PREEMPTED:
        assert PREEMPTED[case.id] in fired, f"{case.id}: {PREEMPTED[case.id]} did not take it: {sorted(fired)}"
        return
    assert target in fired, f"{case.id}: {target} did not fire; fired: {sorted(fired)}"
    tagged = {t for t in case.tags if t.startswith("ort-")}
    seen = {transformer_tag(n) for n in fired}
    assert tagged <= seen, f"{case.id}: tagged but not triggered: {sorted(tagged - seen)}"
    assert _named(case) <= fired | {target}


SCRIPT = [c for c in registry() if c.id.startswith("pattern-onnxscript")]


@pytest.fixture(scope="session")
def script_evidence(tmp_path_factory):
    """Case id → names of the onnxscript rules and fusions its common form triggers."""
    return _shared_evidence(
        tmp_path_factory,
        "pattern-onnxscript-evidence",
        lambda ex: {
            c.id: {k.split(":", 2)[2] for k in ex.call(cov_script.triggers, c.build("common")) if ":fold:" not in k}
            for c in SCRIPT
        },
    )


@pytest.mark.parametrize("case", SCRIPT, ids=[c.id for c in SCRIPT])
def test_common_form_triggers_its_onnxscript_rule(case, script_evidence):
    fired = script_evidence[case.id]
    target = RULE_TARGET.search(case.doc).group(1)
    assert target in fired, f"{case.id}: {target} did not fire; fired: {sorted(fired)}"
    tagged = {t for t in case.tags if t.startswith("onnxscript-")}
    assert tagged <= {rule_tag(n) for n in fired}, f"{case.id}: tagged but not triggered"
