"""Every entry point of a version converter searches the converter-only bases (M184,
:func:`passcheck.generate.build.converters`, :func:`passcheck.passes.boundary_passes`), with the real generator,
the real onnxscript converter and onnxruntime runs.

onnxscript's converter has two entry points (``version_converter/__init__.py``): the ModelProto one copies back
only the graph and keeps the source opset import (docs/found.md row 191), so an adapter that keeps a node looks right
there; the ``ir.Model`` one sets the target opset, and only there is the adapters' own output judged. A base the gate
keeps for the converters only (tag ``declared-passes-only``: GroupNormalization-18 at opset 20, withdrawn) was
searched under a fixed list of three ids that left the ``ir.Model`` entry point out.
"""

from __future__ import annotations

import onnx
import pytest

from passcheck.case_model import DECLARED_ONLY
from passcheck.engine import Subject, evaluate
from passcheck.generate.build import converters
from passcheck.hunt import documented
from passcheck.passes import boundary_passes, conversion, get_pass, known_pass_ids
from passcheck.passes.onnxscript_version_converter import ID, IR_ID
from passcheck.signature import Signature
from tests._shared import generated_cases

CID = "generated/groupnormalization-18.adapter.opset-20"


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "withdrawn-sources-cache", ["GroupNormalization"])


def test_the_converter_passes_are_every_boundary_pass_of_the_registry():
    assert boundary_passes() == {
        ID: "up",
        IR_ID: "up",
        "onnx:convert-opset-down": "down",
        "onnx:convert-opset-up": "up",
    }
    assert converters() == tuple(boundary_passes())
    # no other registered converter targets a per-model boundary (a fixed target is onnx:convert-opset-N)
    others = {i for i in known_pass_ids() if get_pass(i).converts_opset} - set(boundary_passes())
    assert all(not hasattr(get_pass(i), "direction") for i in others), others


def test_both_onnxscript_entry_points_are_asked_the_same_step(cases):
    common = cases[CID].build("common")
    assert conversion(IR_ID, common) == conversion(ID, common) == "20->21"
    assert conversion(IR_ID + "+external-data", common) == "20->21"
    assert conversion("ort:basic", common) is None


def test_a_converter_only_base_is_searched_and_judged_under_the_ir_entry_point(cases):
    case = cases[CID]
    assert DECLARED_ONLY in case.tags and set(case.passes) == set(boundary_passes())
    cells = [c for c in evaluate(Subject.from_case(case, onnx.__version__), [IR_ID]) if c.pass_id == IR_ID]
    by_form = {c.form: c for c in cells}
    assert by_form["common"].verdict == "ok"  # a static channel dim: the adapter repeats scale / bias per channel
    for form in ("symbolic", "anonymous"):  # docs/found.md row 781: node kept, opset 21 stamped, fails to run
        kinds = {(f.oracle, f.kind) for f in by_form[form].findings}
        assert ("numeric", "wrong-result") in kinds, by_form[form]


def test_the_run_error_it_meets_is_the_documented_row_781(cases):
    """A fails-to-run signature names no op (one per runtime error); its alias keeps the base's op types, which the
    documented entry's ``ops_all`` reads (M185): the hunt calls it known, not new."""
    case = cases[CID]
    cells = evaluate(Subject.from_case(case, onnx.__version__), [IR_ID])
    cell = next(c for c in cells if c.form == "symbolic" and c.pass_id == IR_ID)
    (f,) = [f for f in cell.findings if f.kind == "wrong-result"]
    sig = Signature.of(f, rewrite="symbolic-input-dims", models=[case.build("symbolic")], labels=[])
    assert sig.ops == () and "fails" not in sig.error and sig.error  # the runtime's words, no op
    assert any(a.split("|")[3] == "GroupNormalization" for a in sig.aliases), sig.aliases
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": f.message})
    assert entry is not None and entry["row"] == "781", entry
