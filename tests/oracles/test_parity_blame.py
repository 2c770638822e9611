"""Issue 11 item 4 (and 7): parity blames a form only after verifying the claim about the other
form at run time; precision parity itself is proven able to fail."""

from __future__ import annotations

import onnx
import pytest
from onnx import parser

from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

#: Two forms of y = -(-x): ``common`` as two Negs; ``detour`` with an Identity in between.
COMMON = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3, 4] x) => (float y_unused_name) { t = Neg(x)  y = Neg(t) }"""
DETOUR = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3, 4] x) => (float y_unused_name) { t = Neg(x)  u = Identity(t)  y = Neg(u) }"""


def _model(text: str) -> onnx.ModelProto:
    return parser.parse_model(text.replace("float y_unused_name", "float[2, 3, 4] y"))


def _is_common(model: onnx.ModelProto) -> bool:
    return len(model.graph.node) == 2


def _set_output_shape(model: onnx.ModelProto, dims) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(model)
    tt = out.graph.output[0].type.tensor_type
    if dims is None:
        tt.ClearField("shape")
        return out
    tt.shape.ClearField("dim")
    tt.shape.SetInParent()
    for d in dims:
        tt.shape.dim.add(**({"dim_value": d} if isinstance(d, int) else {"dim_param": d}))
    return out


def _evaluate(fn, forms=None, **adapter):
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn, **adapter))
    try:
        subject = Subject("parity/blame", forms or {"common": _model(COMMON), "detour": _model(DETOUR)}, [{}, {}])
        cells = evaluate(subject, [pid], check_input=False)
    finally:
        unregister_pass(pid)
    return {c.form: c for c in cells}


def _kinds(cell):
    return sorted((f.oracle, f.kind) for f in cell.findings)


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ([2, 3, 5], [2, 3, 4]),  # a wrong static shape is not "more precise" than a right one
        ([2, 3, 4, 1, 1], ["A", "B", 4]),  # a rank-5 annotation of a rank-3 value
        ([4, 3, 2], ["A", "B", "C"]),  # nor than named dims
    ],
)
def test_a_wrong_precise_annotation_blames_its_own_form_only(wrong, right):
    def annotate_by_form(model):
        """Planted bug: a wrong output shape on ``common``, a correct (less specific) one on ``detour``."""
        return _set_output_shape(model, wrong if _is_common(model) else right)

    cells = _evaluate(annotate_by_form)
    assert ("annotations", "annotation-violated") in _kinds(cells["common"])
    assert _kinds(cells["detour"]) == [], cells["detour"].findings


def test_a_less_precise_annotation_is_found_when_the_precise_one_holds():
    """Item 7: precision parity can fail (disabling it fails this test)."""

    def lose_dims_on_detour(model):
        """Planted bug: the output's static dims become named on ``detour`` only."""
        return _set_output_shape(model, [2, 3, 4] if _is_common(model) else ["A", 3, 4])

    cells = _evaluate(lose_dims_on_detour)
    assert _kinds(cells["detour"]) == [("parity", "less-precise")]
    assert "holds at run time" in cells["detour"].findings[0].message
    assert _kinds(cells["common"]) == []


def test_a_wrong_fusion_is_wrong_result_not_a_missed_optimization_elsewhere():
    def drop_second_neg_on_common(model):
        """Planted bug: on ``common`` the second Neg is removed without rewiring its meaning
        (y = t, i.e. -x); ``detour`` is left alone (and stays right)."""
        if not _is_common(model):
            return model
        out = onnx.ModelProto()
        out.CopyFrom(model)
        second = out.graph.node[1]
        out.graph.node.remove(second)
        out.graph.node[0].output[0] = "y"
        return out

    cells = _evaluate(drop_second_neg_on_common)
    assert ("numeric", "wrong-result") in _kinds(cells["common"])
    assert _kinds(cells["detour"]) == [], cells["detour"].findings


def test_a_right_fusion_on_one_form_is_still_a_missed_optimization_on_the_other():
    def drop_double_neg_on_common(model):
        """Planted bug: -(-x) → x on ``common`` only (right there); ``detour`` keeps both Negs."""
        if not _is_common(model):
            return model
        out = onnx.ModelProto()
        out.CopyFrom(model)
        del out.graph.node[:]
        out.graph.node.add(op_type="Identity", input=["x"], output=["y"])
        return out

    cells = _evaluate(drop_double_neg_on_common)
    assert _kinds(cells["detour"]) == [("parity", "missed-optimization")]
    assert _kinds(cells["common"]) == []
    # a pass that does not claim to optimize (optimizes=False) is not held to op-type parity
    cells = _evaluate(drop_double_neg_on_common, optimizes=False)
    assert _kinds(cells["detour"]) == [] and _kinds(cells["common"]) == []


def test_a_missed_optimization_names_new_op_types_only_when_the_forms_differ_in_them():
    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3, 4] x) => (float[2, 3, 4] y) '
    forms = {
        "common": onnx.parser.parse_model(head + "{ t = Neg(x)  u = Neg(t)  y = Relu(u) }"),
        "detour": onnx.parser.parse_model(head + "{ t = Neg(x)  v = Identity(t)  u = Neg(v)  y = Relu(u) }"),
    }

    def drop_neg_pair_on_common(model):
        """Planted: -(-x) removed on ``common`` only (right there), no new op type anywhere."""
        if len(model.graph.node) != 3:
            return model
        return onnx.parser.parse_model(head + "{ y = Relu(x) }")

    cells = _evaluate(drop_neg_pair_on_common, forms)
    [f] = cells["detour"].findings
    assert f.kind == "missed-optimization"
    assert "removed Neg 2→0 in 'common' but 2→2 in 'detour'" in f.message
    assert "new op types" not in f.message  # neither form got one: nothing to tell apart
    assert f.message.endswith("; kept in 'detour': #0, #2 after Identity #1")  # two kept nodes, no "… (n in all)"

    def drop_neg_pair_via_identity_on_common(model):
        """Planted: as above, but leaving an Identity (a new op type) on ``common``."""
        return (
            onnx.parser.parse_model(head + "{ z = Relu(x)  y = Identity(z) }") if len(model.graph.node) == 3 else model
        )

    cells = _evaluate(drop_neg_pair_via_identity_on_common, forms)
    assert "new op types: common ['Identity'], detour none" in cells["detour"].findings[0].message


def test_a_fusion_that_removes_fewer_nodes_on_one_form_is_a_missed_optimization():
    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3, 4] x) => (float[2, 3, 4] y) '
    negs = "a = Neg(x)  b = Neg(a)  c = Neg(b)  y = Neg(c)"
    forms = {
        "common": onnx.parser.parse_model(head + "{ " + negs + " }"),
        "detour": onnx.parser.parse_model(
            head + "{ " + negs.replace("b = Neg(a)", "i = Identity(a)  b = Neg(i)") + " }"
        ),
    }

    def cancel_one_neg_pair_on_common(model):
        """Planted: one pair of Negs cancelled on ``common`` only (4 → 2, still right); none on ``detour``."""
        return onnx.parser.parse_model(head + "{ a = Neg(x)  y = Neg(a) }") if len(model.graph.node) == 4 else model

    cells = _evaluate(cancel_one_neg_pair_on_common, forms)
    [f] = cells["detour"].findings
    assert f.kind == "missed-optimization" and "removed Neg 4→2 in 'common' but 4→4 in 'detour'" in f.message
    assert f.message.endswith(
        "; kept in 'detour': #0, #2 after Identity #1, #3 after Neg #2, #4 after Neg #3"
    )  # four: all shown
    assert cells["common"].findings == []

    def cancel_one_neg_pair_on_both(model):
        """Planted: one pair of Negs cancelled on each form (4 → 2 on both): treated alike."""
        body = "a = Neg(x)  y = Neg(a)" if len(model.graph.node) == 4 else "a = Neg(x)  i = Identity(a)  y = Neg(i)"
        return onnx.parser.parse_model(head + "{ " + body + " }")

    cells = _evaluate(cancel_one_neg_pair_on_both, forms)
    assert cells["common"].findings == [] and cells["detour"].findings == []

    # forms with different numbers of Negs to begin with: fewer removed on the smaller one is no finding
    two = {
        "common": forms["common"],
        "detour": onnx.parser.parse_model(head + "{ a = Neg(x)  i = Identity(a)  y = Neg(i) }"),
    }
    cells = _evaluate(cancel_one_neg_pair_on_common, two)
    assert cells["common"].findings == [] and cells["detour"].findings == []


def test_an_output_whose_rank_is_lost_on_one_form_is_less_precise():
    def drop_rank_on_detour(model):
        """Planted bug: the output's shape field is cleared on ``detour`` only (rank unknown)."""
        return model if _is_common(model) else _set_output_shape(model, None)

    cells = _evaluate(drop_rank_on_detour)
    [f] = [
        f for f in cells["detour"].findings if f.oracle == "parity"
    ]  # (the checker also rejects an output without shape)
    assert f.kind == "less-precise" and "rank unknown in 'detour' vs [2, 3, 4] in 'common'" in f.message
    assert _kinds(cells["common"]) == []


@pytest.mark.parametrize(
    ("common", "detour", "blamed"),
    [
        (["A", 3, 4], ["", 3, 4], "detour"),  # as many dim_value, one named dim fewer (an unknown dim)
        (["A", "B", 4], ["", 3, 4], "common"),  # named dims do not make up for a dim_value
        (["A", 3, 4], ["B", 3, 4], None),  # other names, as precise
    ],
)
def test_named_dims_count_only_between_annotations_with_as_many_dim_values(common, detour, blamed):
    def annotate_by_form(model):
        """Planted: a different (each correct) output annotation per form."""
        return _set_output_shape(model, common if _is_common(model) else detour)

    cells = _evaluate(annotate_by_form)
    for form in ("common", "detour"):
        want = [("parity", "less-precise")] if form == blamed else []
        assert [k for k in _kinds(cells[form]) if k[0] == "parity"] == want, (form, cells[form].findings)


def test_outputs_without_a_type_are_not_compared_for_precision():
    def untype_output(model):
        """Planted: the graph output keeps only its name (no type) on both forms."""
        out = onnx.ModelProto()
        out.CopyFrom(model)
        out.graph.output[0].ClearField("type")
        return out

    cells = _evaluate(untype_output)
    assert all(f.oracle != "parity" for c in cells.values() for f in c.findings), [c.findings for c in cells.values()]


def test_nodes_added_on_one_form_are_not_a_removal_on_the_other():
    def add_neg_pair_on_detour(model):
        """Planted: two more Negs on ``detour`` (still right); ``common`` is left alone."""
        if _is_common(model):
            return model
        return _model(DETOUR.replace("y = Neg(u)", "v = Neg(u)  w = Neg(v)  y = Neg(w)"))

    cells = _evaluate(add_neg_pair_on_detour)
    assert [k for c in cells.values() for k in _kinds(c) if k[0] == "parity"] == []


def test_a_type_removed_from_one_form_and_kept_in_another_with_more_of_it_is_a_missed_optimization():
    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3, 4] x) => (float[2, 3, 4] y) '
    forms = {
        "common": onnx.parser.parse_model(head + "{ t = Neg(x)  y = Neg(t) }"),
        "detour": onnx.parser.parse_model(head + "{ a = Neg(x)  b = Neg(a)  c = Neg(b)  y = Neg(c) }"),
    }

    def fold_negs_on_common(model):
        """Planted: -(-x) → x on ``common`` only; ``detour`` (four Negs) is left alone."""
        return onnx.parser.parse_model(head + "{ y = Identity(x) }") if len(model.graph.node) == 2 else model

    cells = _evaluate(fold_negs_on_common, forms)
    [f] = cells["detour"].findings
    assert f.kind == "missed-optimization" and "removed Neg 2→0 in 'common' but 4→4 in 'detour'" in f.message


#: y = x through an Identity: at the graph boundary (nothing to merge with) and between two Casts.
BOUNDARY = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y) { y = Identity(x) }"""
BETWEEN_CASTS = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y) { d = Cast<to = 11>(x)  e = Identity(d)  y = Cast<to = 1>(e) }"""


def test_an_identity_from_input_to_output_is_no_missed_optimization():
    """ort:basic removes the Identity between the Casts but cannot remove the one joining a graph
    input to a graph output (an output equal to an input needs a node): not a missed optimization.
    An Identity with a node to merge with is still one (the DETOUR form above)."""
    forms = {"common": parser.parse_model(BOUNDARY), "casts": parser.parse_model(BETWEEN_CASTS)}
    cells = evaluate(Subject("parity/boundary", forms, [{}, {}]), ["ort:basic"], check_input=False)
    assert [f.id for c in cells for f in c.findings if f.oracle == "parity"] == []
    assert {c.form: c.ops_after for c in cells}["casts"].get("Identity", 0) == 0  # the pass did remove the other one


#: y = log(sum(x, axis 1)): ReduceLogSum at opset 18 (axes input) and at 17 (axes attribute).
LOGSUM18 = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 1] y) { a = Constant<value = int64[1] {1}>()  y = ReduceLogSum(x, a) }"""
LOGSUM17 = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 3] x) => (float[2, 1] y) { y = ReduceLogSum<axes = [1]>(x) }"""


def _inline_logsum(model):
    """Inline ReduceLogSum-18 as its function body (ReduceSum then Log), as a runtime without its kernel does."""
    if model.opset_import[0].version < 18:
        return model
    n = next(n for n in model.graph.node if n.op_type == "ReduceLogSum")
    i = list(model.graph.node).index(n)
    model.graph.node.remove(n)
    model.graph.node.insert(i, onnx.helper.make_node("Log", ["s"], [n.output[0]]))
    model.graph.node.insert(i, onnx.helper.make_node("ReduceSum", list(n.input), ["s"]))
    return model


def _rewrite_logsum(model):
    """ReduceLogSum-18 → Log(ReduceSum(Mul(x, 1))): the same numbers through an op (Mul) that is not
    in the body, so no expansion (a planted rewrite form 17 does not get)."""
    model = _inline_logsum(model)
    for n in model.graph.node:
        if n.op_type == "ReduceSum":
            model.graph.node.insert(
                0, onnx.helper.make_node("Constant", [], ["one"], value=onnx.helper.make_tensor("v", 1, [], [1.0]))
            )
            model.graph.node.insert(1, onnx.helper.make_node("Mul", [n.input[0], "one"], ["x1"]))
            n.input[0] = "x1"
            break
    return model


def test_a_function_op_expanded_into_its_body_is_no_missed_optimization():
    forms = {"common": parser.parse_model(LOGSUM18), "attr": parser.parse_model(LOGSUM17)}
    cells = _evaluate(_inline_logsum, forms)
    assert [f for c in cells.values() for f in c.findings if f.oracle == "parity"] == []
    # the rule can fail: a rewrite into an op outside the body is an optimization the other form missed
    cells = _evaluate(_rewrite_logsum, {"common": parser.parse_model(LOGSUM18), "attr": parser.parse_model(LOGSUM17)})
    missed = [f for c in cells.values() for f in c.findings if f.kind == "missed-optimization"]
    assert [(f.form, f.details["kept_op_types"]) for f in missed] == [("attr", ["ReduceLogSum"])]


#: The LOGSUM pair in float16: onnxruntime (1.32) has no float16 kernel for either, so it computes
#: both in float between Casts it inserts (and inlines ReduceLogSum-18 as its body).
LOGSUM18_F16 = LOGSUM18.replace("ir_version: 8", "ir_version: 10").replace("float[", "float16[")
LOGSUM17_F16 = LOGSUM17.replace("ir_version: 8", "ir_version: 10").replace("float[", "float16[")


def _cast_around(name: str):
    """A planted pass wrapping the opset-17 form's input in float Casts named ``name``_<i>."""

    def cast_around(model):
        if model.opset_import[0].version != 17:
            return model
        n = model.graph.node[0]
        model.graph.node.insert(0, onnx.helper.make_node("Cast", [n.input[0]], ["xf"], name=f"{name}0", to=1))
        model.graph.node.insert(1, onnx.helper.make_node("Cast", ["xf"], ["xh"], name=f"{name}1", to=10))
        n.input[0] = "xh"
        return model

    return cast_around


def test_casts_onnxruntime_inserts_for_a_kernel_it_lacks_are_no_rewrite():
    forms = {"common": parser.parse_model(LOGSUM18_F16), "attr": parser.parse_model(LOGSUM17_F16)}
    cells = evaluate(Subject("parity/inserted-casts", forms, [{}, {}]), ["ort:basic"], check_input=False)
    assert {c.form: c.ops_after.get("Cast", 0) for c in cells} == {
        "common": 2,
        "attr": 2,
    }  # onnxruntime did insert them
    assert [f.id for c in cells for f in c.findings if f.oracle == "parity"] == []
    # the rule is the name onnxruntime gives them: the same Casts named otherwise are a rewrite of one form only
    forms = {
        "common": parser.parse_model(LOGSUM18.replace("float[", "float16[")),
        "attr": parser.parse_model(LOGSUM17.replace("float[", "float16[")),
    }
    assert [
        f
        for c in _evaluate(_cast_around("InsertedPrecisionFreeCast_x"), forms).values()
        for f in c.findings
        if f.oracle == "parity"
    ] == []
    forms = {
        "common": parser.parse_model(LOGSUM18.replace("float[", "float16[")),
        "attr": parser.parse_model(LOGSUM17.replace("float[", "float16[")),
    }
    missed = [
        f for c in _evaluate(_cast_around("planted_cast_"), forms).values() for f in c.findings if f.oracle == "parity"
    ]
    assert [(f.form, f.kind) for f in missed] == [("attr", "missed-optimization")]


#: y = CastLike(x, int64 target): directly, and after a Cast to double (a float64-compute spelling).
CASTLIKE = """<ir_version: 10, opset_import: ["" : 21]>
g (float[2, 3] x) => (int64[2, 3] y) { t = Constant<value = int64[1] {0}>()  y = CastLike(x, t) }"""
CASTLIKE_F64 = """<ir_version: 10, opset_import: ["" : 21]>
g (float[2, 3] x) => (int64[2, 3] y) {
  t = Constant<value = int64[1] {0}>()  d = Cast<to = 11>(x)  y = CastLike(d, t)
}"""


def _castlike_to_cast(only_first: bool):
    def castlike_to_cast(model):
        if only_first and any(n.op_type == "Cast" for n in model.graph.node):
            return model
        for i, n in enumerate(model.graph.node):
            if n.op_type == "CastLike":
                model.graph.node[i].CopyFrom(onnx.helper.make_node("Cast", [n.input[0]], list(n.output), to=7))
        return model

    return castlike_to_cast


def test_the_same_rewrite_of_both_forms_is_no_missed_optimization():
    """onnxscript's optimizer turns CastLike into Cast in both forms; one form had a Cast already, so
    only the other shows Cast as a *new* op type: the same rewrite (one CastLike for one Cast) all the same."""
    forms = {"common": parser.parse_model(CASTLIKE), "f64": parser.parse_model(CASTLIKE_F64)}
    cells = evaluate(Subject("parity/same-rewrite", forms, [{}, {}]), ["onnxscript:optimize"], check_input=False)
    assert {c.form: c.ops_after.get("CastLike", 0) for c in cells} == {"common": 0, "f64": 0}
    assert [f.id for c in cells for f in c.findings if f.oracle == "parity"] == []
    for only_first, found in ((False, []), (True, [("f64", "missed-optimization")])):  # the rule can fail
        forms = {"common": parser.parse_model(CASTLIKE), "f64": parser.parse_model(CASTLIKE_F64)}
        cells = _evaluate(_castlike_to_cast(only_first), forms)
        assert [(f.form, f.kind) for c in cells.values() for f in c.findings if f.oracle == "parity"] == found


def test_a_crash_on_several_forms_is_not_said_to_be_on_one_form_only():
    def crash_on_detour(model):
        if len(model.graph.node) != 2:
            raise RuntimeError("planted crash")
        return model

    three = {"common": _model(COMMON), "detour": _model(DETOUR), "detour2": _model(DETOUR)}
    cells = _evaluate(crash_on_detour, three)
    messages = [f.message for c in cells.values() for f in c.findings if f.oracle == "acceptance"]
    assert len(messages) == 2 and all("crashed on 2 of 3 forms (accepted: common)" in m for m in messages), messages
    cells = _evaluate(crash_on_detour)
    (only,) = [f.message for c in cells.values() for f in c.findings if f.oracle == "acceptance"]
    assert "crashed on this form only (accepted: common)" in only


def test_a_gap_the_forms_declare_and_the_pass_keeps_is_not_the_pass_s():
    """docs/found.md row 25 (a false finding, fixed in session 19): ``detour`` declares its output without a
    shape (IR.md "Static tensor shapes": left unspecified), and onnxruntime saves each form's declared output
    type as given, so it treats both alike: no ``less-precise``. A pass that gives a shape to one form and not
    to the other still makes the gap (control: found)."""
    forms = {"common": _model(COMMON), "detour": _set_output_shape(_model(DETOUR), None)}
    subject = Subject("parity/declared", forms, [{}, {}])
    cells = {c.form: c for c in evaluate(subject, ["ort:disabled"], check_input=False)}
    assert cells["detour"].status in ("changed", "unchanged"), cells["detour"]
    assert [k for c in cells.values() for k in _kinds(c) if k[0] == "parity"] == []

    def shape_common_only(model):
        """Planted: the output's shape is written on ``common`` only (both forms declare none)."""
        return _set_output_shape(model, [2, 3, 4] if _is_common(model) else None)

    bare = {f: _set_output_shape(m, None) for f, m in forms.items()}
    cells = _evaluate(shape_common_only, bare)
    assert [k for k in _kinds(cells["detour"]) if k[0] == "parity"] == [("parity", "less-precise")]
