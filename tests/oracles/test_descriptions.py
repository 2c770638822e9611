"""The pass contract's ``description-dropped``: a pass keeps what its input says of the interface
(doc_string, metadata_props, type and dim denotations of the main graph's inputs and outputs)."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.mutations.registry import build_form
from passcheck.oracles.descriptions import MODEL_FIELDS, describes, describes_itself, dropped, model_dropped
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from passcheck.signature import Signature


def _base(ir: int = 10) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Add", ["r", "r"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=ir)


def _described() -> onnx.ModelProto:
    """The base under passcheck's own rewrites that describe values (the forms a hunt draws)."""
    m = _base()
    for rewrite in ("add-doc-strings", "add-metadata", "add-denotations"):
        built = build_form(m, rewrite)
        assert built is not None, rewrite
        m = built[0]
    return m


def _cell(report, pass_id):
    return next(c for c in report.cells if c.pass_id == pass_id)


def test_the_rewrites_describe_the_interface_and_the_comparison_reads_each_field():
    m = _described()
    x = m.graph.input[0]
    assert x.doc_string and len(x.metadata_props) and x.type.denotation == "TENSOR"
    assert [d.denotation for d in x.type.tensor_type.shape.dim] == ["DATA_FEATURE"] * 2
    assert describes(m) and not describes(_base()) and dropped(m, m) == []
    bare = onnx.ModelProto()
    bare.CopyFrom(m)
    for v in (*bare.graph.input, *bare.graph.output):
        v.doc_string = ""
        del v.metadata_props[:]
        v.type.denotation = ""
        for d in v.type.tensor_type.shape.dim:
            d.denotation = ""
    lost = dropped(m, bare)
    assert {(d.role, d.field) for d in lost} == {
        (r, f) for r in ("input", "output") for f in ("doc_string", "metadata_props", "denotation", "dim-denotation")
    }
    assert dropped(bare, m) == []  # saying more is never a loss
    bare.graph.input[0].name = "x2"  # a renamed input is judged elsewhere
    assert {d.value for d in dropped(m, bare)} == {"y"}
    # nested element types: a sequence input's element denotation
    seq = helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, [2])
    seq.type.sequence_type.elem_type.denotation = "TENSOR"
    a, b = _base(), _base()
    a.graph.input.append(seq)
    b.graph.input.append(helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, [2]))
    assert [(d.field, d.where) for d in dropped(a, b)] == [("denotation", "elem")]


@pytest.fixture
def planted():
    def strip_doc(model):
        """Planted: a pass that writes its graph outputs anew, without their doc_string."""
        out = onnx.ModelProto()
        out.CopyFrom(model)
        for v in out.graph.output:
            v.doc_string = ""
        return out

    pid = register_pass(FunctionAdapter("test:strip-output-doc", strip_doc, optimizes=False)).id
    yield pid
    unregister_pass(pid)


def test_a_pass_dropping_an_output_doc_string_is_flagged_on_the_described_form_only(planted):
    cell = _cell(check_model(_described(), [planted], isolation=False), planted)
    found = [f for f in cell.findings if f.kind == "description-dropped"]
    assert len(found) == 1 and found[0].oracle == "pass-contract", cell.findings
    assert found[0].details["fields"] == ["doc_string"] and "output 'y'" in found[0].message
    assert Signature.of(found[0]).error == "doc_string"
    assert not _cell(check_model(_base(), [planted], isolation=False), planted).findings


def test_onnx_passes_that_drop_a_description_and_one_that_keeps_them():
    """docs/found.md rows 710 and 711 (onnx 1.23.2): the version converter rebuilds the graph's inputs
    and outputs from its IR, which holds no denotation and no metadata_props; shape inference
    (``mergeShapesAndTypes``) assigns an inferred dim that has a value over the declared one, its
    denotation with it. ``extract_model`` keeps every description of the interface (not the model's own: below)."""
    m = _described()
    passes = ["onnx:convert-opset-19", "onnx:infer-shapes", "onnx:extract-model"]
    report = check_model(m, passes, isolation=False)
    found = {
        p: [f for f in _cell(report, p).findings if f.kind == "description-dropped" and "interface" in f.message]
        for p in passes
    }
    (conv,) = found["onnx:convert-opset-19"]
    assert {"denotation", "dim-denotation", "metadata_props"} <= set(conv.details["fields"]), conv.message
    (infer,) = found["onnx:infer-shapes"]
    assert infer.details["fields"] == ["dim-denotation"] and infer.details["dropped"] == [
        "output 'y': dim-denotation (dim 1) 'DATA_FEATURE' -> ''"
    ]
    assert found["onnx:extract-model"] == []


def test_what_the_model_says_of_itself_is_compared_field_by_field():
    m = _described()
    m.model_version, m.domain = 7, "org.example"
    assert describes_itself(m) and not describes_itself(_base()) and model_dropped(m, m) == []
    bare = onnx.ModelProto()
    bare.CopyFrom(m)
    bare.doc_string = bare.graph.doc_string = bare.domain = ""
    bare.model_version = 0
    del bare.metadata_props[:]
    del bare.graph.metadata_props[:]
    assert {d.field for d in model_dropped(m, bare)} == set(MODEL_FIELDS)
    assert model_dropped(bare, m) == []  # saying more is never a loss
    bare.producer_name = "another tool"  # a tool may sign what it wrote
    assert {d.field for d in model_dropped(m, bare)} == set(MODEL_FIELDS)


@pytest.fixture
def strip_model_doc():
    def strip(model):
        """Planted: a pass that writes the model anew, without the model's own doc_string."""
        out = onnx.ModelProto()
        out.CopyFrom(model)
        out.doc_string = ""
        return out

    pid = register_pass(FunctionAdapter("test:strip-model-doc", strip, optimizes=False)).id
    yield pid
    unregister_pass(pid)


def test_a_pass_dropping_the_model_doc_string_is_flagged_and_a_pass_that_states_it_clears_it_is_not(strip_model_doc):
    """A planted pass dropping the model's doc_string is caught on the described form only; onnx-ir's
    ClearMetadataAndDocStringPass clears the graph's doc_string and metadata_props by its own docstring
    (``PassAdapter.clears``), so only what it does not state it clears could be a finding (none: it keeps the
    model's own). ``onnx.utils.extract_model`` writes a new ModelProto from the graph and the opset imports alone:
    the model's doc_string and metadata_props are lost (docs/found.md, session 43, lead)."""
    passes = [strip_model_doc, "onnx-ir:clear-metadata-and-doc-string", "onnx:extract-model"]
    report = check_model(_described(), passes, isolation=False)
    own = {p: [f for f in _cell(report, p).findings if "the model itself" in f.message] for p in passes}
    (planted,) = own[strip_model_doc]
    assert planted.kind == "description-dropped" and planted.details["fields"] == ["model doc_string"], planted
    assert own["onnx-ir:clear-metadata-and-doc-string"] == []
    (extracted,) = own["onnx:extract-model"]
    assert {"model doc_string", "model metadata_props"} <= set(extracted.details["fields"]), extracted.message
    bare = check_model(_base(), [strip_model_doc], isolation=False)
    assert not _cell(bare, strip_model_doc).findings
