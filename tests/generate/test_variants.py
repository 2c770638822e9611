"""Recipe variants derived from the schema (passcheck.generate.variants): each kind appears for an op whose
schema qualifies and not for one whose schema does not; generation with them stays deterministic; the gate
still drops a variant that does not run; dtypes go to a schema onnxruntime's CPU provider runs them at."""

from __future__ import annotations

import onnx.defs
import pytest

from passcheck.generate import recipe, variants
from passcheck.generate.pair import Ctx


def _kinds(op: str, version: int | None = None) -> dict[str, object]:
    schema = onnx.defs.get_schema(op, version) if version else onnx.defs.get_schema(op)
    node = recipe.build_node(schema, max(schema.since_version, 7))
    return {p.detail: p for p in variants.pairs(node, Ctx(schema.since_version, None), f"t/{op}.shape")}


def test_const_operands_for_a_second_data_input_only():
    pair = _kinds("Add")["const-operands"]
    node = pair.forms["common"][0]
    assert node.inputs[0].value is None  # the first input stays fed
    assert node.inputs[1].value is not None and node.inputs[1].mode == "initializer"
    assert node.inputs[1].value.shape == (2, 3, 4)
    assert "const-operands" not in _kinds("Relu")  # one data input: nothing to make constant


def test_const_operands_values_are_the_feeds_of_the_recipe():
    a = _kinds("Add")["const-operands"].forms["common"][0].inputs[1].value
    b = _kinds("Add")["const-operands"].forms["common"][0].inputs[1].value
    assert (a == b).all() and a.std() > 0  # deterministic and not a constant fill


def test_default_values_written_and_omitted():
    pair = _kinds("QuantizeLinear", 19)["default-values"]
    written = pair.forms["common"][0]
    zp = next(i for i in written.inputs if i.name == "y_zero_point")
    assert zp.value == 0 and zp.elem == onnx.TensorProto.UINT8  # the spec's default: uint8 zero point 0
    omitted = pair.forms["omitted"][0]
    assert [i.name for i in omitted.inputs] == ["x", "y_scale"]
    assert "default-values" not in _kinds("Add")  # no optional input


def test_broadcast_follows_the_schema_doc():
    add = _kinds("Add")["broadcast"].forms["common"][0]
    assert [i.shape for i in add.inputs] == [(2, 1, 4), (1, 3, 1)]  # multidirectional: both sides
    gemm = _kinds("Gemm")["broadcast"].forms["common"][0]
    assert [i.shape for i in gemm.inputs] == [(3, 4), (4, 5), (1,)]  # unidirectional: C only
    assert "broadcast" not in _kinds("MatMul")  # its doc states no broadcasting of this kind
    assert "broadcast" not in _kinds("Add", 6)  # opset 6: the `broadcast` attribute, not implicit


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    from passcheck.generate.build import generate

    return generate(tmp_path_factory.mktemp("variants") / "a", ["Add", "QuantizeLinear"])


def test_generated_variants_are_cases_and_deterministic(generated, tmp_path):
    from passcheck.generate.build import generate

    ids = {c["id"] for c in generated["cases"]}
    assert {
        "generated/add-14.variant.const-operands",
        "generated/add-14.variant.broadcast",
        "generated/quantizelinear-19.variant.default-values",
    } <= ids
    case = next(c for c in generated["cases"] if c["id"] == "generated/add-14.variant.const-operands")
    assert {"variant:const-operands", "spelling:variant"} <= set(case["tags"])
    again = generate(tmp_path / "b", ["Add", "QuantizeLinear"])
    assert [(c["id"], {f: v["sha256"] for f, v in c["forms"].items()}) for c in again["cases"]] == [
        (c["id"], {f: v["sha256"] for f, v in c["forms"].items()}) for c in generated["cases"]
    ]


def test_gate_drops_a_variant_that_does_not_run(generated, tmp_path, monkeypatch):
    from passcheck.generate.build import generate

    # size-1 dims where broadcasting cannot meet them: (2, 3, 4) with (3, 1, 4)
    monkeypatch.setattr(variants, "_ones_at", lambda shape, parity: (3, 1, 4) if parity == 0 else shape)
    doc = generate(tmp_path / "broken", ["Add"])
    assert not [c for c in doc["cases"] if c["id"].endswith(".variant.broadcast")]

    def drops(d):
        return sum(d["stats"]["dropped"].get("Add", {}).values())

    assert drops(doc) == drops(generated) + 3  # add-7, add-13, add-14: each broken variant dropped and counted


def _dtype_ids(op: str) -> list[str]:
    from passcheck.generate.build import Stats, candidates, schema_history

    schemas = schema_history()[("", op)]
    top = onnx.defs.onnx_opset_version()
    return [
        cid for k in range(len(schemas)) for cid, *_ in candidates(schemas, k, top, Stats(), op) if ".dtype." in cid
    ]


def test_dtype_goes_where_the_cpu_provider_has_a_kernel():
    from passcheck.generate.build import _cpu_runs

    # Upsample-10 is the deprecated schema (no model may use it, no kernel): the int types Upsample-9
    # allows are generated there, not left to a schema that never runs them
    assert not _cpu_runs(onnx.defs.get_schema("Upsample", 10), onnx.TensorProto.INT8)
    assert {"generated/upsample-9.dtype.int8", "generated/upsample-9.dtype.int32"} <= set(_dtype_ids("Upsample"))
    # float16, which no Add schema has a CPU kernel for (onnxruntime runs it through inserted Casts), once
    assert [c for c in _dtype_ids("Add") if c.endswith(".float16")] == ["generated/add-14.dtype.float16"]


def test_dtype_pair_is_named_by_the_type_it_binds():
    # Range's inputs are all constants: no fed input to read the type from (it was named "float" for each)
    from passcheck.generate.spellings import dtype_pair

    schema = onnx.defs.get_schema("Range")
    node = recipe.build_node(schema, schema.since_version, onnx.TensorProto.INT32)
    [pair] = dtype_pair(node, Ctx(schema.since_version, None))
    assert pair.detail == "int32" and all(i.elem == onnx.TensorProto.INT32 for i in node.inputs)
