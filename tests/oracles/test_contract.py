"""The oracle contract (issue 13 item 1): one registry the engine applies to pass cells and input
cells alike; the runtime check and the input-agreement check are oracles that can fail; an oracle
is added by one module and its registry line, as the tiny oracle below is."""

from __future__ import annotations

import pytest
from onnx import parser

from passcheck.engine import INPUT, Subject, evaluate
from passcheck.errors import UnknownIdError
from passcheck.oracles import Oracle, registry
from passcheck.oracles._contract import INPUT as INPUT_CELLS
from passcheck.oracles._contract import PASS, BaseOracle
from passcheck.testing import as_adapter, oracle_names, select
from passcheck.testing import registered as registered_pass

RELU = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) { t = Relu(x)  y = Identity(t) }"""
MAX0 = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) { z = Constant<value = float {0.0}>()  t = Max(x, z)  y = Identity(t) }"""
NEG = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (float[N] y) { t = Neg(x)  y = Identity(t) }"""
UNRUNNABLE = """<ir_version: 8, opset_import: ["" : 18, "custom.x" : 1]>
g (float[N] x) => (float[N] y) { y = custom.x.Twice(x) }"""


def _input_cells(**forms):
    subject = Subject("contract/relu", {k: parser.parse_model(v) for k, v in forms.items()}, [{}, {}])
    return {c.form: c for c in evaluate(subject, [INPUT])}


def test_every_registered_oracle_keeps_the_contract():
    found = registry.oracles()
    ids = [o.id for o in found]
    assert len(set(ids)) == len(ids) and all(ids), ids
    for o in found:  # each module's ORACLE is the one applied, under the module's own name
        assert type(o).__module__ == f"passcheck.oracles.{o.id}", o
    # Report order: validity first (an invalid output explains what follows), the form-only oracles last.
    assert ids[0] == "validity" and ids.index("numeric") < ids.index("parity")
    for o in found:
        assert isinstance(o, Oracle), o
        assert o.kinds and o.kinds <= {PASS, INPUT_CELLS}, o
    assert {o.id for o in registry.oracles(INPUT_CELLS)} == {
        "validity",
        "annotations",
        "runtime",
        "agreement",
        "conformance",
    }


def test_runtime_oracle_rejects_a_form_onnxruntime_cannot_run_and_names_the_form_that_runs():
    cells = _input_cells(common=RELU, custom=UNRUNNABLE)
    assert cells["common"].findings == []
    (f,) = [f for f in cells["custom"].findings if f.oracle == "runtime"]
    assert f.kind == "rejected" and "form 'common' runs on the same feeds" in f.message


def test_agreement_oracle_flags_a_form_that_computes_other_numbers():
    assert all(not c.findings for c in _input_cells(common=RELU, max0=MAX0).values())
    cells = _input_cells(common=RELU, neg=NEG)
    (f,) = cells["neg"].findings
    assert (f.oracle, f.kind) == ("numeric", "wrong-result") and f.message.startswith("differs from form 'common'")


class Tiny(BaseOracle):
    """Flags a run whose observed ``t`` is negative somewhere: needs ``t`` observed."""

    id = "tiny"
    kinds = frozenset({PASS, INPUT_CELLS})

    def observes(self, model):
        return ["t"]

    def check(self, run, cells):
        seen = [r.observed["t"] for r in run.runs if "t" in r.observed]
        if seen and any((v < 0).any() for v in seen):
            return [run.finding("wrong-result", self.id, "t went negative")]
        return []


def test_a_registered_oracle_is_applied_to_pass_and_input_cells_and_gets_what_it_observes():
    subject = Subject("contract/tiny", {"common": parser.parse_model(NEG)}, [{}, {}])
    with registry.registered(Tiny()), registered_pass(as_adapter(lambda m: m, "user:same")) as pid:
        assert "tiny" in oracle_names()
        cells = evaluate(subject, [pid])
    assert {c.pass_id: [f.oracle for f in c.findings] for c in cells} == {INPUT: ["tiny"], pid: ["tiny"]}
    assert "tiny" not in oracle_names()
    assert all(not c.findings for c in evaluate(subject, [INPUT]))


def test_an_oracle_that_names_no_other_reports_as_its_own_id_and_no_name_is_empty():
    """``BaseOracle.__init_subclass__``: an oracle with an id and no ``reports_as`` reports under its id,
    so the names a test selects by are every id and every other name, none empty. Kills
    ``if cls.id and not cls.reports_as`` → ``if not cls.id and …``, which left ``reports_as`` empty and
    accepted ``""`` as an oracle name."""

    assert Tiny.reports_as == "tiny"
    assert all(o.reports_as for o in registry.oracles())
    with registry.registered(Tiny()):
        names = oracle_names()
        assert "tiny" in names and "" not in names
        with pytest.raises(UnknownIdError):
            select([], oracles=[""])
