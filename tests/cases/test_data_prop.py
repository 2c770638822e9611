"""data-prop/*: onnx data propagation gives the consumer's output its dims on every form, and the
cases' bases trigger the coverage map's data-propagation entries. Real onnx shape inference."""

from __future__ import annotations

import onnx
import onnx.shape_inference
import pytest

from passcheck.cases import registry
from passcheck.coverage.shapes import triggers

CASES = [c for c in registry().select(["data-prop/*"]) if c.skip_reason(onnx.__version__) is None]
#: the data-propagation entries (op@since_version) the bases must trigger: every default-domain schema of the installed
#: onnx with a data-propagation function (Cast-28 in onnx 1.23 among them: M387 reads the opsets off the schemas)
ENTRIES = sorted(
    f"{s.name}@{s.since_version}"
    for s in onnx.defs.get_all_schemas_with_history()
    if s.domain == "" and not s.deprecated and getattr(s, "has_data_propagation_function", False)
)


def _dims(model: onnx.ModelProto, data_prop: bool) -> list:
    out = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=data_prop).graph.output[0]
    return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in out.type.tensor_type.shape.dim]


def test_the_family_is_registered_with_several_forms_per_case():
    assert len(CASES) >= 10
    assert all(len(c.forms) >= 2 and next(iter(c.forms)) == "common" for c in CASES)
    assert {"gather-negative", "shape-start-end", "cast-same", "int32"} <= {f for c in CASES for f in c.forms}


#: forms onnx's data propagation does not see through (onnx 1.23: Identity has no data-propagation function)
GAPS = {"identity"}


@pytest.mark.parametrize("case", [c for c in CASES if c.expect], ids=lambda c: c.id)
def test_data_propagation_gives_every_form_the_expected_shape_and_plain_inference_does_not(case):
    (expected,) = [e.output_shapes["y"] for e in case.expect]
    for form in case.forms:
        model = case.build(form)
        got = _dims(model, True)
        if form in GAPS:  # less precise, never wrong: each dim is the expected one or anonymous
            assert all(d == e or str(d).startswith("unk__") for d, e in zip(got, expected, strict=True)), form
        else:
            assert got == list(expected), form
        assert _dims(model, False) != list(expected), form


def test_the_bases_trigger_the_data_propagation_entries():
    got = set()
    for case in CASES:
        got |= {k.rsplit(":", 1)[1] for k in triggers(case.build("common")) if ":data-propagation:" in k}
    assert "Cast@13" in ENTRIES and "Shape@1" in ENTRIES
    assert set(ENTRIES) <= got, sorted(set(ENTRIES) - got)
