"""Attribute-typed element types (passcheck.generate.attr_elems): the typed sibling groups read off the schemas,
the type variables that move with them read off the schemas' own inference functions, every variant a valid
model onnxruntime runs with the element types inference states, and a planted pass that handles only the
integer side of LabelEncoder's ``values_*`` caught on the string variant and on no integer case."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.checker
import onnx.defs
import pytest

from passcheck.generate import attr_elems, recipe
from passcheck.generate.pair import Ctx

ML = "ai.onnx.ml"


def _node(op: str, version: int, domain: str = "") -> recipe.Node:
    schema = onnx.defs.get_schema(op, version, domain)
    return recipe.build_node(schema, 17 if domain else max(schema.since_version, 7))


def _moves(node: recipe.Node) -> dict[str, recipe.Node]:
    return dict(attr_elems.group_moves(node) + attr_elems.tensor_moves(node) + attr_elems.dtype_attr_moves(node))


def test_typed_sibling_groups_are_read_off_the_schemas():
    le = attr_elems.groups(onnx.defs.get_schema("LabelEncoder", 4, ML))
    assert le[("keys", True)] == {
        "string": "keys_strings",
        "int64": "keys_int64s",
        "float": "keys_floats",
        "tensor": "keys_tensor",
    }
    assert le[("default", False)]["string"] == "default_string" and ("values", True) in le
    assert attr_elems.groups(onnx.defs.get_schema("TreeEnsembleClassifier", 3, ML)) == {
        ("classlabels", True): {"string": "classlabels_strings", "int64": "classlabels_int64s"}
    }
    assert ("classlabels", True) in attr_elems.groups(onnx.defs.get_schema("SVMClassifier", 1, ML))  # *_ints
    # nodes_values (FLOATS), nodes_modes (STRINGS), nodes_treeids (INTS): one stem, but no suffix names a type
    assert attr_elems.groups(onnx.defs.get_schema("TreeEnsembleRegressor", 3, ML)) == {}
    assert attr_elems.groups(onnx.defs.get_schema("Add", 14)) == {}


def test_the_type_variables_that_move_are_the_ones_inference_ties_to_the_attribute():
    moves = _moves(_node("LabelEncoder", 4, ML))  # recipe: int64 keys → int64 values, default_int64
    values = moves["attr.values.string"]
    assert "values_strings" in values.attrs and "default_string" in values.attrs  # the default moved along
    assert "default_int64" not in values.attrs and values.inputs[0].elem == onnx.TensorProto.INT64
    assert values.out_elems == {"Y": onnx.TensorProto.STRING}
    keys = moves["attr.keys.string"]
    assert keys.attrs["keys_strings"] == ["a", "b", "c"]  # the feeds' alphabet: fed strings meet the keys
    assert keys.inputs[0].elem == onnx.TensorProto.STRING and keys.out_elems == {"Y": onnx.TensorProto.INT64}
    assert "attr.values.double" in moves  # values_tensor: a type no list attribute holds
    tree = _moves(_node("TreeEnsembleClassifier", 3, ML))["attr.classlabels.string"]
    assert tree.out_elems["Y"] == onnx.TensorProto.STRING and tree.inputs[0].elem == onnx.TensorProto.FLOAT


def test_a_move_the_schema_rejects_is_not_built():
    node = _node("LabelEncoder", 4, ML)
    moved = node.copy()
    moved.attrs["keys_strings"] = attr_elems.convert(moved.attrs.pop("keys_int64s"), "string")
    assert attr_elems.inferred(moved) is None  # "Input type is not string tensor but key_strings is set"
    assert attr_elems.convert([0.5, 2.0, 1.0], "string") == ["a", "c", "b"]
    assert attr_elems.convert(["b", "a"], "int64") == [1, 0]


CASES = [
    ("LabelEncoder", 4, ML, "attr.values.string"),
    ("LabelEncoder", 4, ML, "attr.keys.string"),
    ("LabelEncoder", 4, ML, "attr.values.double"),
    ("TreeEnsembleClassifier", 3, ML, "attr.classlabels.string"),
    ("ConstantOfShape", 21, "", "attr.value.int8"),
    ("ConstantOfShape", 21, "", "attr.value.bool"),
    ("Constant", 21, "", "attr.value.string"),
    ("Constant", 21, "", "attr.value.bfloat16"),
    ("QuantizeLinear", 21, "", "attr.output_dtype.int8"),
]


@pytest.mark.parametrize(("op", "version", "domain", "detail"), CASES)
def test_each_variant_is_valid_and_runs_with_the_types_inference_states(op, version, domain, detail):
    import onnxruntime as ort

    from passcheck.generate.model import to_model
    from passcheck.runtime.feeds import synthesize

    node = _node(op, version, domain)
    pair = {p.detail: p for p in attr_elems.pairs(node, Ctx(node.opset, None))}[detail]
    feeds = synthesize(to_model(pair.forms["common"][0]), {}, 0)
    for form, (v, mode, _doc) in pair.forms.items():
        m = to_model(v, mode)
        onnx.checker.check_model(m, full_check=True)
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        got = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds), strict=True))
        for out, elem in v.out_elems.items():
            want = onnx.TensorProto.FLOAT if elem == onnx.TensorProto.BFLOAT16 else elem  # read back as float
            assert got[out].dtype == np.dtype(onnx.helper.tensor_dtype_to_np_dtype(want)), (form, out)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    from passcheck.generate import index

    mp = pytest.MonkeyPatch()
    mp.setenv("PASSCHECK_CACHE", str(tmp_path_factory.mktemp("attr-cache")))
    yield index(ops=["LabelEncoder", "CategoryMapper"], quiet=True)
    mp.undo()


def test_the_generated_set_holds_the_string_and_float_sides(generated):
    ids = {c["id"] for c in generated["cases"]}
    assert {
        "generated/ml.labelencoder-4.variant.attr.values.string",
        "generated/ml.labelencoder-4.variant.attr.keys.string",
        "generated/ml.labelencoder-2.variant.attr.keys.float",
    } <= ids
    case = next(c for c in generated["cases"] if c["id"] == "generated/ml.labelencoder-4.variant.attr.keys.string")
    assert {"variant:attr-elem", "dtype:string", "spelling:variant"} <= set(case["tags"])


def _int_only(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted pass: LabelEncoder-4's ``values_*`` rewritten to ``values_tensor`` read as int64 only (a pass
    that knows the integer side): right on integer values, it empties string or float values."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for n in out.graph.node:
        if n.op_type != "LabelEncoder":
            continue
        ints = [a for a in n.attribute if a.name == "values_int64s"]
        keep = [a for a in n.attribute if not a.name.startswith("values_")]
        vals = np.asarray(list(ints[0].ints) if ints else [], dtype=np.int64)
        del n.attribute[:]
        n.attribute.extend(keep)
        n.attribute.append(onnx.helper.make_attribute("values_tensor", onnx.numpy_helper.from_array(vals)))
    return out


def test_a_planted_integer_only_pass_is_caught_on_the_attribute_typed_variant_only(generated, tmp_path):
    from passcheck.engine import Subject, evaluate
    from passcheck.generate import cases as to_cases
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    le4 = [c for c in to_cases(generated) if c.id.startswith("generated/ml.labelencoder-4.")]
    typed = [c for c in le4 if c.id.endswith((".attr.values.string", ".attr.values.float"))]
    ints = [c for c in le4 if "variant:attr-elem" not in c.tags and "string" not in c.id]
    assert typed and ints
    pid = "planted:label-encoder-int-only"
    register_pass(FunctionAdapter(pid, _int_only))
    try:

        def found(cs):
            return {
                c.id for c in cs for cell in evaluate(Subject.from_case(c, onnx.__version__), [pid]) if cell.findings
            }

        assert found(typed) == {c.id for c in typed}
        assert found(ints) == set()
    finally:
        unregister_pass(pid)
