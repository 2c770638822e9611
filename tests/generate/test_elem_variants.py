"""Element-type variants of every type constraint (passcheck.generate.elem_variants): the secondary
constraints' types are in the set (Where's T, OneHot's T1/T2/T3, Gather's Tind), each variant is a valid
model onnxruntime runs with the output dtype the binding states, a kernel that is registered but throws at
run time never becomes a base (the gate drops it, the hunt counts it as a base that does not run), and
string outputs of onnxruntime and the reference evaluator compare equal."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.checker
import onnx.defs
import pytest

from passcheck.generate import elem_variants, recipe
from passcheck.generate.pair import Ctx


def _choices(op: str, version: int | None = None) -> set[tuple[str, str]]:
    schema = onnx.defs.get_schema(op, version) if version else onnx.defs.get_schema(op)
    return set(elem_variants.choices(recipe.build_node(schema, schema.since_version)))


def test_secondary_constraints_are_varied():
    # Where: the first input's constraint is B (bool only); T is the data's and the output's
    assert {("T", "int32"), ("T", "int64"), ("T", "double"), ("T", "string")} <= _choices("Where")
    # OneHot: depth T2 and values T3 (the table binds int64 / float); indices T1 is the first input's
    onehot = _choices("OneHot", 11)
    assert {p for p, _t in onehot} == {"T2", "T3"}
    assert {("T3", "string"), ("T3", "int64"), ("T2", "int32"), ("T2", "float")} <= onehot
    assert ("Tind", "int32") in _choices("Gather")
    assert ("T", "int16") in _choices("Range")  # int32 / int64 / double are the dtype pairs' (first input)


def test_kernel_combinations_reach_types_one_constraint_at_a_time_does_not():
    """OneHot's CPU kernels take int32 indices only with int32 or float depth: binding T1 alone (the recipe's
    depth is int64) has no kernel, the registered combination does."""
    from passcheck.runtime.kernels import has_cpu_kernel

    schema = onnx.defs.get_schema("OneHot")
    node = recipe.build_node(schema, schema.since_version)
    assert not has_cpu_kernel("", "OneHot", schema.since_version, {"T1": "tensor(int32)", "T2": "tensor(int64)"})
    assert (("T1", "int32"), ("T2", "int32")) in elem_variants.combos(node)
    details = {p.detail for p in elem_variants.pairs(node, Ctx(schema.since_version, None))}
    assert "elem.T1.int32.T2.int32" in details


def test_only_types_the_cpu_provider_has_a_kernel_for():
    from passcheck.runtime.kernels import has_cpu_kernel

    # Where has CPU kernels for string, float, double, int8, int32, int64, uint8, uint32 only; float16 runs through
    # the float kernel (onnxruntime's InsertCastTransformer: kernels.runs_on_cpu, tests/runtime/test_kernels_cast.py)
    where = _choices("Where")
    assert ("T", "int16") not in where and ("T", "bool") not in where and ("T", "float16") in where
    assert not has_cpu_kernel("", "Where", 16, {"T": "tensor(int16)"})
    assert all(t != "int64" for p, t in _choices("TopK") if p == "I")  # I is int64 only: nothing to vary


def test_an_output_only_constraint_goes_through_the_data_type_attribute():
    schema = onnx.defs.get_schema("Cast")
    node = recipe.build_node(schema, schema.since_version)
    v = elem_variants.retyped(node, "T2", onnx.TensorProto.INT16)
    assert v.attrs["to"] == onnx.TensorProto.INT16
    # the output's type follows the attribute, not the table's output_dtypes (int64, for the recipe's to=7):
    # a bfloat16 output is Cast back to float for the Python API, as every bfloat16 output of the set
    from passcheck.generate.model import to_model

    bf = to_model(elem_variants.retyped(node, "T2", onnx.TensorProto.BFLOAT16))
    assert [n.op_type for n in bf.graph.node] == ["Cast", "Cast"] and bf.graph.node[0].attribute[0].i == 16
    assert bf.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    # an output-only constraint without such an attribute cannot be bound: Shape's T1 is int64 by the op
    shape = onnx.defs.get_schema("Shape")
    assert elem_variants.retyped(recipe.build_node(shape, shape.since_version), "T1", onnx.TensorProto.INT32) is None


def test_constants_keep_values_the_type_holds():
    assert elem_variants.as_type([2, 0], onnx.TensorProto.INT32).dtype == np.int32
    assert elem_variants.as_type([-1, 2], onnx.TensorProto.UINT8) is None  # a negative index as unsigned
    assert elem_variants.as_type([0, 2], onnx.TensorProto.BOOL) is None
    assert elem_variants.as_type([0.0, 1.0], onnx.TensorProto.STRING).tolist() == ["0.0", "1.0"]


NAMED = [
    ("Where", None, "T", "int32", "output"),
    ("Where", None, "T", "string", "output"),
    ("Range", None, "T", "int16", "output"),
    ("OneHot", 11, "T3", "string", "output"),
    ("OneHot", 11, "T2", "int32", "output"),
    ("Gather", None, "Tind", "int32", "output"),
    ("OneHot", None, "T1", "int32.T2.int32", "output"),
]


@pytest.mark.parametrize(("op", "version", "param", "type_name", "output"), NAMED)
def test_variant_model_is_valid_and_runs_with_the_bound_dtype(op, version, param, type_name, output):
    import onnxruntime as ort

    from passcheck.generate.model import to_model
    from passcheck.runtime.feeds import synthesize

    schema = onnx.defs.get_schema(op, version) if version else onnx.defs.get_schema(op)
    node = recipe.build_node(schema, schema.since_version)
    pair = {p.detail: p for p in elem_variants.pairs(node, Ctx(schema.since_version, None))}[
        f"elem.{param}.{type_name}"
    ]
    feeds = synthesize(to_model(pair.forms["common"][0]), {}, 0)  # the static form's, as the engine feeds
    for form, (v, mode, _doc) in pair.forms.items():
        m = to_model(v, mode)
        onnx.checker.check_model(m, full_check=True)
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        outs = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds), strict=True))
        formal = next(o for o in schema.outputs if o.name == output).type_str
        expected = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(v.dtypes[formal]))
        assert outs[output].dtype == expected, (form, outs[output].dtype)
        typed = {i.type.tensor_type.elem_type for i in m.graph.input} | {t.data_type for t in m.graph.initializer}
        assert elem_variants.code(type_name.split(".")[0]) in typed  # an input of the bound type


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    from passcheck.generate.build import generate

    return generate(tmp_path_factory.mktemp("elem") / "a", ["Where", "Gather", "OneHot"])


def test_generated_set_holds_secondary_constraint_cases(generated):
    """Fails when the mechanism binds only the first input's constraint (the dtype pairs' own)."""
    ids = {c["id"] for c in generated["cases"]}
    assert {"generated/where-16.variant.elem.t.int32", "generated/gather-13.variant.elem.tind.int32"} <= ids
    assert any(".variant.elem.t3." in i for i in ids) and any(".variant.elem.t2." in i for i in ids)
    case = next(c for c in generated["cases"] if c["id"] == "generated/where-16.variant.elem.t.int32")
    assert {"variant:elem", "dtype:int32", "spelling:variant"} <= set(case["tags"])


def test_a_registered_kernel_that_throws_is_no_base():
    """GRU-22 float64: onnxruntime registers the kernel and throws at run time ("GRU operator does not
    support double yet"): the gate drops the pair as not applying, and the hunt's check of a base says it
    does not run (its items are ``base-fails``, never a finding against a pass)."""
    from passcheck.cases import Case, Form
    from passcheck.engine import feeds_for
    from passcheck.generate.gate import gate
    from passcheck.generate.model import to_model
    from passcheck.hunt.search import base_runs
    from passcheck.hunt.space import Base
    from passcheck.runtime.kernels import has_cpu_kernel
    from passcheck.runtime.session import run_ort

    schema = onnx.defs.get_schema("GRU", 22)
    assert has_cpu_kernel("", "GRU", 22, {"T": "tensor(double)"}) is True
    node = recipe.build_node(schema, 22, onnx.TensorProto.DOUBLE)
    forms = {"common": to_model(node, "static"), "symbolic": to_model(node, "symbolic")}
    feeds = feeds_for(forms["common"], "t/gru", [{}, {}])
    v = gate(forms, feeds, run_ort)
    assert not v.ok and v.category == "n/a" and "does not support double" in v.detail
    case = Case(
        id="t/gru-double",
        forms={k: Form(lambda m=m: m) for k, m in forms.items()},
        doc="GRU float64",
        opset=22,
    )
    assert base_runs(Base(case, "common"), None) is None


def test_string_outputs_of_both_runtimes_compare_equal():
    from passcheck.oracles.numeric import compare

    ort_like = np.array(["a", "bc"], dtype=object)
    assert compare(ort_like, np.array(["a", "bc"])).ok  # the reference evaluator's fixed-width <U2
    assert compare(ort_like, np.array([b"a", b"bc"])).ok
    assert not compare(ort_like, np.array(["a", ""])).ok


@pytest.mark.parametrize("op", ["Cast", "CastLike"])
def test_a_string_target_is_also_built_from_an_integer_source_which_the_gate_keeps(op):
    """Float → string text is the implementation's (onnxruntime: 8 significant digits; the reference evaluator:
    the shortest repr), so the gate drops that variant; int64 → string has one spelling, and that one is a base."""
    from passcheck.engine import feeds_for
    from passcheck.generate.gate import gate
    from passcheck.generate.model import to_model
    from passcheck.runtime.session import run_ort

    schema = onnx.defs.get_schema(op)
    node = recipe.build_node(schema, schema.since_version)
    pairs = {p.detail: p for p in elem_variants.pairs(node, Ctx(schema.since_version, None))}
    assert "elem.T1.int64.T2.string" in pairs, sorted(pairs)
    verdicts = {}
    for detail in ("elem.T2.string", "elem.T1.int64.T2.string"):
        forms = {k: to_model(v, mode) for k, (v, mode, _doc) in pairs[detail].forms.items()}
        for m in forms.values():
            onnx.checker.check_model(m, full_check=True)
        verdicts[detail] = gate(forms, feeds_for(forms["common"], f"t/{op}", [{}, {}]), run_ort)
    assert verdicts["elem.T1.int64.T2.string"].ok, verdicts
    assert not verdicts["elem.T2.string"].ok, verdicts  # the float text differs between the runtimes
    model = to_model(pairs["elem.T1.int64.T2.string"].forms["common"][0], "static")
    assert model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.INT64
    assert model.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.STRING


def test_the_integer_source_variant_is_also_built_at_the_newest_portable_schema():
    """Built at the newest schema and at the newest one at or below opset 21, which every pinned environment
    loads (onnx 1.16.2 knows opset 21: a Cast-28 base is n/a there); not at the schemas between."""
    from passcheck.cases.opsets import NEWEST_PORTABLE

    versions = sorted({s.since_version for s in onnx.defs.get_all_schemas_with_history() if s.name == "Cast"})
    built = []
    for v in versions:
        later = [onnx.defs.get_schema("Cast", w) for w in versions if w > v]
        if elem_variants.text_sources(recipe.build_node(onnx.defs.get_schema("Cast", v), v), later):
            built.append(v)
    portable = max(v for v in versions if v <= NEWEST_PORTABLE)
    assert built == sorted({portable, versions[-1]}), built
