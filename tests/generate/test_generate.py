"""The generator's invariants on a small op subset, with real onnx schemas and onnxruntime runs:
every kept pair is valid and its forms agree, generation is deterministic and cached, the default
selection stays hand-written, and planted passes that mishandle one spelling are caught."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import onnx
import pytest

from passcheck._versions import tool_version
from passcheck.engine import INPUT, Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import built_once

OPS = ["ReduceMax", "Concat", "Softmax", "LSTM"]  # LSTM: inputs of different shapes


def _generate(folder):
    from passcheck.generate import index

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASSCHECK_CACHE", str(folder))
        index(ops=OPS, quiet=True)
        index(ops=["Slice"], quiet=True)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """PASSCHECK_CACHE: this worker's copy of the generations of OPS and of Slice, each made once per test run
    (tests/_shared.py), not once per xdist worker; tests may write to the copy."""
    shared, _ = built_once(tmp_path_factory, "generate-cache", _generate)
    own = tmp_path_factory.mktemp("cache")
    shutil.copytree(shared, own, dirs_exist_ok=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("PASSCHECK_CACHE", str(own))
    yield
    mp.undo()


@pytest.fixture(scope="module")
def doc(cache):
    from passcheck.generate import index

    return index(ops=OPS, quiet=True)


@pytest.fixture(scope="module")
def cases(doc):
    from passcheck.generate import cases as to_cases

    return to_cases(doc)


def test_subset_covers_kinds_and_counts_drops(doc):
    kinds = {c["kind"] for c in doc["cases"]}
    assert {"shape", "opset", "attr-default", "attr-no-value", "axes", "attr-to-input", "dtype"} <= kinds
    assert {c["op"] for c in doc["cases"]} == set(OPS)
    built = sum(doc["stats"]["built"].values())
    assert built == len(doc["cases"]) > 50
    # every drop carries a category and a reason; passcheck's own stay rare
    dropped = {k: n for per_op in doc["stats"]["dropped"].values() for k, n in per_op.items()}
    assert all(k.split("|", 1)[0] in ("tool", "passcheck", "n/a") for k in dropped)
    own = sum(n for k, n in dropped.items() if k.startswith("passcheck|"))
    assert own < 0.1 * (built + sum(dropped.values()))


def test_every_pair_is_valid_and_its_forms_agree(cases):
    version = tool_version("onnx")
    sample = cases[::7] + [c for c in cases if c.id.startswith("generated/lstm-") and "symbolic" in c.forms]
    for case in sample:  # a spread sample: each judged by the engine's own input checks
        assert list(case.forms)[0] == "common"
        for form in case.forms:
            onnx.checker.check_model(case.build(form))
        cells = evaluate(Subject.from_case(case, version), [INPUT])
        assert [f.message for c in cells for f in c.findings] == [], case.id


def test_tags_select_by_op_spelling_and_dtype(cases):
    c = next(c for c in cases if c.id.startswith("generated/reducemax-18.attr-to-input"))
    assert {"generated", "op:ReduceMax", "spelling:attr-to-input", "dtype:float", "since:18"} <= c.tags
    assert "attribute-opset17" in c.forms and "input-constant" in c.forms


def test_generation_is_deterministic(tmp_path, doc):
    from passcheck.generate.build import generate

    again = generate(tmp_path / "again", OPS)
    assert [(c["id"], {f: v["sha256"] for f, v in c["forms"].items()}) for c in again["cases"]] == [
        (c["id"], {f: v["sha256"] for f, v in c["forms"].items()}) for c in doc["cases"]
    ]
    assert again["stats"] == doc["stats"]


def test_second_call_reads_the_cache(doc, monkeypatch):
    import passcheck.generate.build as build
    from passcheck.generate import index

    def boom(*a, **k):
        raise AssertionError("regenerated although cached")

    monkeypatch.setattr(build, "generate", boom)
    assert index(ops=OPS) == json.loads(json.dumps(doc))


def test_default_selection_stays_hand_written():
    code = (
        "from passcheck.cases import registry; ids = [c.id for c in registry().select([])]; "
        "print(len(ids), any(i.startswith('generated/') for i in ids))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    n, has_generated = out.stdout.split()
    assert int(n) >= 100 and has_generated == "False"


# -- planted passes: each mishandles one spelling; the generated set catches it unnamed --------


def negative_axes_as_positive(model: onnx.ModelProto) -> onnx.ModelProto:
    """Reads a negative axis as if it were positive (abs), in attributes and axes initializers."""
    import numpy as np
    import onnx.numpy_helper

    for n in model.graph.node:
        for a in n.attribute:
            if a.name == "axis" and a.i < 0:
                a.i = -a.i
            if a.name == "axes":
                a.ints[:] = [abs(v) for v in a.ints]
    for t in model.graph.initializer:
        if t.name == "axes":
            t.CopyFrom(onnx.numpy_helper.from_array(np.abs(onnx.numpy_helper.to_array(t)), t.name))
    return model


def drop_valueless_attributes(model: onnx.ModelProto) -> onnx.ModelProto:
    """Drops attributes that carry no value field, as if absent (the schema default then applies)."""
    for n in model.graph.node:
        keep = [
            a
            for a in n.attribute
            if a.ListFields()
            != [
                (onnx.AttributeProto.DESCRIPTOR.fields_by_name["name"], a.name),
                (onnx.AttributeProto.DESCRIPTOR.fields_by_name["type"], a.type),
            ]
        ]
        del n.attribute[:]
        n.attribute.extend(keep)
    return model


def _findings(cases, fn):
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn))
    try:
        version = tool_version("onnx")
        return [
            (c.case, c.form, f.oracle, f.kind)
            for case in cases
            for c in evaluate(Subject.from_case(case, version), [pid])
            for f in c.findings
        ]
    finally:
        unregister_pass(pid)


def _select(cases, pattern):
    import fnmatch

    return [c for c in cases if any(fnmatch.fnmatchcase(t, pattern) for t in c.tags)]


def test_planted_negative_axis_bug_is_caught(cases):
    found = _findings(_select(cases, "op:Reduce*") + _select(cases, "op:Concat"), negative_axes_as_positive)
    assert found
    assert all(form != "common" for _case, form, _o, _k in found)  # only the spelling with the negative axis
    assert {o for _c, _f, o, _k in found} & {"numeric", "validity", "acceptance"}


def test_planted_valueless_attribute_bug_is_caught(cases):
    found = _findings(_select(cases, "op:ReduceMax"), drop_valueless_attributes)
    assert found
    assert {form for _c, form, _o, _k in found} == {"no-value-field"}


def test_planted_passes_are_clean_on_the_hand_written_default_spelling(cases):
    # a control: on forms without the mishandled spelling the planted passes change nothing
    plain = [c for c in _select(cases, "op:ReduceMax") if "spelling:shape" in c.tags]
    assert plain and _findings(plain, drop_valueless_attributes) == []


def test_static_vs_symbolic_pairs_do_not_compare_op_counts(cases):
    # a static Shape folds and a symbolic one cannot: parity of op counts would blame the pass wrongly
    shaped = [c for c in cases if "symbolic" in c.forms]
    assert shaped and all(c.parity == frozenset({"status"}) for c in shaped)
    moved = [c for c in cases if "spelling:attr-to-input" in c.tags]
    assert moved and all("ops" in c.parity for c in moved)


def test_table_variant_meets_a_zero_size_axis(cache):
    # Slice with a negative step (a domains.json variant) also over a zero-size axis, both kept by the gate
    from passcheck.generate import index

    ids = {c["id"] for c in index(ops=["Slice"], quiet=True)["cases"]}
    assert {"generated/slice-13.shape.negative-step", "generated/slice-13.zero-size.negative-step"} <= ids


def test_unknown_generated_id_gets_a_stub_for_shipped_bytes(monkeypatch):
    # a matrix worker under another onnx: the id was generated elsewhere, its forms are shipped bytes
    import passcheck.generate as gen
    from passcheck.cases._registry import CaseRegistry
    from passcheck.generate.source import SOURCE

    monkeypatch.setattr(gen, "register_all", lambda registry: None)
    registry = CaseRegistry()
    registry.add_source(SOURCE)
    case = registry.get("generated/newop-30.dtype.float16")
    assert case.rtol == 1e-2 and case.parity == frozenset({"status"}) and case.skip_reason("1.23.2") is None


def test_symbolic_form_holds_its_own_output_annotations(cache):
    # onnx's Slice-10 inference ties the sliced axis to the input's symbol (n3, though the run
    # gives 2): the form must not carry that, or the input cell's annotations oracle flags it
    from passcheck.generate import cases as to_cases
    from passcheck.generate import index

    case = next(c for c in to_cases(index(ops=["Slice"], quiet=True)) if c.id == "generated/slice-10.shape")
    cells = evaluate(Subject.from_case(case, tool_version("onnx")), [INPUT])
    assert [f.message for c in cells for f in c.findings] == []
    dims = case.build("symbolic").graph.output[0].type.tensor_type.shape.dim
    assert [d.dim_param for d in dims] == ["n2", "output_d1", "n4"]  # a fresh symbol for the sliced axis


def test_gate_drops_a_pair_whose_form_breaks_its_own_annotations():
    # planted: the symbolic form's output annotated as onnx's Slice-10 inference has it
    import onnx.defs

    from passcheck.engine import feeds_for
    from passcheck.generate import model as gen_model
    from passcheck.generate import recipe
    from passcheck.generate.gate import gate
    from passcheck.runtime.session import run_ort

    node = recipe.build_node(onnx.defs.get_schema("Slice", 10), 10)
    forms = {"common": gen_model.to_model(node, "static"), "symbolic": gen_model.to_model(node, "symbolic")}
    feeds = feeds_for(forms["common"], "generated/slice-10.shape", [{}, {}])
    assert gate(forms, feeds, run_ort).ok
    forms["symbolic"].graph.output[0].type.tensor_type.shape.dim[1].dim_param = "n3"
    v = gate(forms, feeds, run_ort)
    assert (v.ok, v.category, v.reason) == (False, "passcheck", "a form's own annotations do not hold on its run")
    assert "'n3'" in v.detail and v.detail.startswith("symbolic: ")


def _inference_that_segfaults(model):
    """onnx shape inference crashing its process, as onnx 1.18.0's does on Einsum-12."""
    import ctypes

    ctypes.string_at(0)


def test_a_form_whose_shape_inference_kills_the_worker_is_still_built():
    """The generator runs onnx shape inference in its isolation worker: a segfault there costs that form's output
    shape (the reference evaluator's rank is declared instead), not the generator's process."""
    import functools

    import onnx.defs

    from passcheck.generate import model as gen_model
    from passcheck.generate import recipe
    from passcheck.passes.isolation import IsolatedExecutor

    node = recipe.build_node(onnx.defs.get_schema("Relu", 14), 14)
    ex = IsolatedExecutor(timeout=60)
    try:
        model = gen_model.to_model(node, "static", functools.partial(ex.call, _inference_that_segfaults))
        again = gen_model.to_model(node, "static", functools.partial(ex.call, gen_model.infer_shapes))
    finally:
        ex.close()
    dims = model.graph.output[0].type.tensor_type.shape.dim
    assert len(dims) == len(node.inputs[0].shape) and not any(d.HasField("dim_value") for d in dims), dims
    assert (
        again.graph.output[0].type.tensor_type.shape
        == gen_model.to_model(node, "static").graph.output[0].type.tensor_type.shape
    )


def test_a_dtype_pair_is_built_only_for_a_type_its_model_has(tmp_path, monkeypatch):
    """MelWeightMatrix's table pins ``num_mel_bins`` to int64: binding T1 to int32 builds the int64 model
    again, which is no int32 pair (it was kept as a numbered duplicate, ``dtype.int64.1``)."""
    from passcheck.generate import index

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    ids = sorted(c["id"] for c in index(ops=["MelWeightMatrix"], quiet=True)["cases"] if ".dtype." in c["id"])
    assert ids and not [i for i in ids if i.rsplit(".", 1)[-1].isdigit()], ids
