"""Every registered case documents itself and states the versions in which it is valid."""

from __future__ import annotations

import re

import pytest

from passcheck._versions import ir_version_for, max_supported_opset
from passcheck.cases import registry

#: every case of the library, its gated families (lazy sources) claimed here: before, they were listed only when a
#: module collected earlier had claimed them (the whole suite: 844 ids; this file alone: fewer)
registry().claim_library()
CASES = list(registry())
CITATION = re.compile(r"(Operators\.md|IR\.md|Broadcasting\.md|onnx\.proto|seed \d{3}|microsoft/onnxruntime#\d+|docs/)")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_documents_what_why_and_source(case):
    doc = case.doc.strip()
    assert len(doc.splitlines()[0]) > 10, "the first line says what the case computes"
    assert "Uncommon" in doc or "Control" in doc, "the doc says what is uncommon"
    assert CITATION.search(doc), "the doc cites the spec section, operator doc or issue that makes the forms valid"
    for name, form in case.forms.items():
        if name != "common":
            assert form.doc.strip(), f"form {name!r} says what is uncommon about it"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_states_its_version_range(case):
    if "seed" not in case.tags:
        assert re.search(r"^Valid: .*(opset|ir_version)", case.doc, re.M), (
            "a 'Valid:' line gives the opset / ir_version / onnx range"
        )
    for name in case.forms:
        m = case.build(name)
        default = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")]
        assert default and default[0] <= case.opset, (
            f"form {name!r} imports opset {default} above the case's {case.opset}"
        )
        assert m.ir_version == ir_version_for(default[0]), (
            f"form {name!r}: ir_version {m.ir_version} is not the oldest for opset {default[0]}"
        )


def test_out_of_range_case_is_skipped_with_reason():
    case = next(c for c in CASES if c.opset >= 18)
    assert case.skip_reason("1.23.2") is None
    assert "onnx" in case.skip_reason(None)
    newer = type(case)(**{**case.__dict__, "min_onnx": "99.0"})
    assert "valid from onnx 99.0" in newer.skip_reason("1.23.2")
    assert max_supported_opset() >= max(c.opset for c in CASES) or any(c.skip_reason("1.23.2") for c in CASES)


def test_tags_name_families():
    families = {c.family for c in CASES}
    for c in CASES:
        assert c.family in c.tags
        assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", t) for t in c.tags), sorted(c.tags)
    assert len(families) >= 10, sorted(families)
