"""The generated ``opset`` pair's third form: the stamp every pinned environment's onnxruntime loads
(``NEWEST_PORTABLE``), between since_version and the newest, which the older environments mark n/a."""

from __future__ import annotations

import onnx.defs

from passcheck.cases.opsets import NEWEST_PORTABLE
from passcheck.engine import feeds_for
from passcheck.generate import model as gen_model
from passcheck.generate import recipe
from passcheck.generate.gate import gate
from passcheck.generate.pair import Ctx
from passcheck.generate.spellings import opset_stamp
from passcheck.runtime.session import run_ort


def test_a_schema_that_outlives_the_portable_opset_gets_a_form_stamped_there():
    variant = recipe.table_row(onnx.defs.get_schema("SplitToSequence", 11))["variants"]["split-scalar"]
    node = recipe.build_node(onnx.defs.get_schema("SplitToSequence", 11), 11, override=variant)
    (pair,) = opset_stamp(node, Ctx(23, None))
    assert list(pair.forms) == ["common", "opset23", f"opset{NEWEST_PORTABLE}"]
    forms = {f: gen_model.to_model(n, mode) for f, (n, mode, _doc) in pair.forms.items()}
    assert forms[f"opset{NEWEST_PORTABLE}"].opset_import[0].version == NEWEST_PORTABLE
    feeds = feeds_for(forms["common"], "generated/splittosequence-11.opset.split-scalar", [{}, {}])
    assert gate(forms, feeds, run_ort).ok


def test_no_third_form_when_the_schema_ends_before_it_or_starts_after_it():
    node = recipe.build_node(onnx.defs.get_schema("Split", 13), 13)
    assert list(opset_stamp(node, Ctx(17, None))[0].forms) == ["common", "opset17"]
    late = recipe.build_node(onnx.defs.get_schema("Squeeze", 23), 23)
    assert list(opset_stamp(late, Ctx(24, None))[0].forms) == ["common", "opset24"]
