"""The integer-constant neighbours (:mod:`passcheck.hunt.vary_int`): each kind writes the value its docs give,
the equivalent kinds compute what the base computes (both run under onnxruntime), and a planted pass that reads
an Unsqueeze's ``axes`` as an ordered, non-negative list is found by ``int-permute`` and ``int-negate`` only.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_int
from tests.hunt.planted_neighbours import found_by

MAX, MIN = np.iinfo(np.int64).max, np.iinfo(np.int64).min
PASS_ID = "planted:unsqueeze-as-reshape"


def _ints(**values) -> list[onnx.TensorProto]:
    return [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in values.items()]


def _model(nodes, inits, out_rank: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * out_rank)
    model = helper.make_model(
        helper.make_graph(nodes, "g", [x], [y], inits), opset_imports=[helper.make_opsetid("", 18)]
    )
    onnx.checker.check_model(model, full_check=True)
    return model


def _chain() -> onnx.ModelProto:
    """x [2, 3, 4] → Slice(starts [0, 1], ends [3, 4], axes [1, 2]) [2, 3, 3] → ReduceSum(axes [0, 2]) [1, 3, 1]
    → Gather(indices [2], axis 1) [1, 1, 1] → Squeeze(axes [0, 2]) [1] → y."""
    nodes = [
        helper.make_node("Slice", ["x", "st", "en", "ax"], ["s"], name="sl"),
        helper.make_node("ReduceSum", ["s", "rax"], ["r"], name="rs"),
        helper.make_node("Gather", ["r", "idx"], ["g"], name="ga", axis=1),
        helper.make_node("Squeeze", ["g", "sqax"], ["y"], name="sq"),
    ]
    inits = _ints(st=[0, 1], en=[3, 4], ax=[1, 2], rax=[0, 2], idx=[2], sqax=[0, 2])
    return _model(nodes, inits, 1)


def _value(model, name):
    return numpy_helper.to_array(next(t for t in model.graph.initializer if t.name == name)).tolist()


@pytest.mark.parametrize(
    ("form", "name", "want"),
    [
        ("vary:int-nudge@en", "en", [3, 5]),
        ("vary:int-zero@st", "st", None),  # already 0 somewhere, not everywhere: all 0
        ("vary:int-one@en", "en", [1, 1]),
        ("vary:int-negate@ax", "ax", [-2, -1]),  # axes of rank-3 data: a - 3
        ("vary:int-negate@idx", "idx", [-1]),  # index into dim 1 (size 3): i - 3
        ("vary:int-negate@sqax", "sqax", [-3, -1]),
        ("vary:int-negate@st", "st", [-3, -3]),  # Slice bounds on dims 3 and 4: v - n
        ("vary:int-sentinel@st", "st", [MIN, 1]),  # start 0 forward: INT_MIN clamps to 0 too
        ("vary:int-sentinel@en", "en", [MAX, MAX]),  # ends 3 and 4 are the dims: INT_MAX clamps there
        ("vary:int-permute@rax", "rax", [2, 0]),  # reduce over a set of axes
        ("vary:int-permute@sqax", "sqax", [2, 0]),
    ],
)
def test_each_kind_writes_its_value(form, name, want):
    out = variation.build(_chain(), form)
    assert out is not None and out[1] == [name]
    assert _value(out[0], name) == (want if want is not None else [0, 0])
    onnx.checker.check_model(out[0], full_check=True)


def test_kinds_that_do_not_apply_give_no_neighbour():
    base = _chain()
    assert variation.build(base, "vary:int-sentinel@ax") is None  # not a starts/ends input
    assert variation.build(base, "vary:int-permute@ax") is None  # Slice axes pair with starts: order is read
    assert variation.build(base, "vary:int-permute@idx") is None  # one element
    assert variation.build(base, "vary:int-one@x") is None  # no constant
    # an index out of its bound has no other spelling: plain negation is another value, kept; a uint has none
    forms = variation.neighbours(base, random.Random(0))
    split_only = {"int-repartition"}  # a Split's sizes only (no Split here: tests/hunt/test_vary_repartition.py)
    assert {f.split("@")[0] for f in forms} >= {f"vary:{k}" for k in vary_int.KINDS if k not in split_only}


def test_a_constant_node_of_value_ints_is_varied_too():
    nodes = [
        helper.make_node("Constant", [], ["rax"], value_ints=[0, 2]),
        helper.make_node("ReduceSum", ["x", "rax"], ["y"], name="rs", keepdims=0),
    ]
    base = _model(nodes, [], 1)
    out, _ = variation.build(base, "vary:int-negate@rax")
    assert numpy_helper.to_array(out.graph.node[0].attribute[0].t).tolist() == [-3, -1]


def _run(model, x):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})


def test_the_equivalent_kinds_compute_what_the_base_computes():
    base = _chain()
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    want = _run(base, x)
    forms = variation.neighbours(base, random.Random(0)) + [f"vary:int-negate@{n}" for n in ("ax", "idx", "sqax", "st")]
    equivalent = [f for f in forms if variation.family(f) == "int" and _equivalent(base, f)]
    assert {"vary:int-sentinel@en", "vary:int-sentinel@st", "vary:int-negate@idx", "vary:int-negate@st"} <= set(
        equivalent
    )
    for form in dict.fromkeys([*equivalent, "vary:int-permute@rax", "vary:int-permute@sqax", "vary:int-negate@ax"]):
        got = _run(variation.build(base, form)[0], x)
        np.testing.assert_array_equal(got[0], want[0], err_msg=form)


def _equivalent(base, form: str) -> bool:
    k, _, site = form.partition("@")
    shapes = variation._inferred(base)
    return vary_int.is_equivalent(k[len(variation.PREFIX) :], base, site, shapes, lambda n: variation._schema(base, n))


def test_a_non_equivalent_kind_is_said_so():
    assert not _equivalent(_chain(), "vary:int-nudge@en")
    nodes = [helper.make_node("Neg", ["x"], ["n"]), helper.make_node("Trilu", ["n", "k"], ["y"])]
    trilu = _model(nodes, [numpy_helper.from_array(np.array(1, np.int64), "k")], 3)  # k: no documented range
    assert not _equivalent(trilu, "vary:int-negate@k")
    assert numpy_helper.to_array(variation.build(trilu, "vary:int-negate@k")[0].graph.initializer[0]) == -1


def _unsqueeze_as_reshape(model: onnx.ModelProto) -> onnx.ModelProto:
    """``Unsqueeze(x, axes)`` (x of static shape, constant axes) → ``Reshape(x, shape)``, the 1s inserted in
    the order ``axes`` lists them and a negative axis normalized against x's rank: right for sorted
    non-negative axes only (Operators.md Unsqueeze: r is the rank of the expanded output, any order)."""
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    dims = {
        v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
        for v in [*model.graph.input, *onnx.shape_inference.infer_shapes(model).graph.value_info]
    }
    for n in model.graph.node:
        if n.op_type == "Unsqueeze" and n.input[1] in inits and n.input[0] in dims:
            shape = list(dims[n.input[0]])
            for a in inits[n.input[1]].tolist():
                shape.insert(a + len(dims[n.input[0]]) if a < 0 else a, 1)
            model.graph.initializer.append(numpy_helper.from_array(np.array(shape, np.int64), "planted_shape"))
            n.op_type, n.input[1] = "Reshape", "planted_shape"
    return model


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_a_pass_that_reads_axes_as_an_ordered_non_negative_list_is_found_by_permute_and_negate(ex):
    nodes = [
        helper.make_node("Unsqueeze", ["x", "axes"], ["u"], name="un"),
        helper.make_node("Relu", ["u"], ["y"], name="re"),
    ]
    base = _model(nodes, _ints(axes=[0, 3]), 5)
    found = found_by(base, "vary-test/unsqueeze", PASS_ID, _unsqueeze_as_reshape, ex)
    # the twins and the fanout copies meet the planted pass's other defect: its per-match initializer has one name,
    # two matches repeat it
    assert sorted(k for k in found if variation.family(k) not in ("twin", "fanout")) == [
        "vary:int-negate@axes",
        "vary:int-permute@axes",
    ]


def test_a_moved_axis_among_symbolic_dims_gets_the_inferred_annotation():
    # ReduceMean(axes [1]) of x [n2, n3, n4] is [n2, 1, n4]; axes [2] gives [n2, n3, 1]: the static 1 moves to
    # where the annotation has a symbol, and the symbol to where it has the 1 (both must be replaced)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n2", "n3", "n4"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n2", 1, "n4"])
    graph = helper.make_graph([helper.make_node("ReduceMean", ["x", "axes"], ["y"])], "g", [x], [y], _ints(axes=[1]))
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    out, _ = variation.build(base, "vary:int-nudge@axes")
    dims = out.graph.output[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["n2", "n3", 1]


def test_vary_kind_restricts_the_hunt_to_those_neighbours():
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    found = bases(["generated/reducemean-18.dtype.int64", "generated/slice-13.dtype.int8"], generated=True)

    def forms(**kw):
        s = Scheduler(found, ["ort:basic"], 17, variations=True, **kw)
        out = []
        for step in range(12):
            item = s.next(step)
            if item is None:
                break
            s.mark(item, s.triples(item))
            out.append(item.form)
        return out

    only = forms(vary_kinds=("int-*",))
    assert only and all(f.startswith("vary:int-") for f in only), only
    assert not all(f.startswith("vary:int-") for f in forms())


def test_a_neighbour_that_breaks_a_shape_constraint_only_at_the_fed_shapes_is_invalid(ex):
    # Concat(Slice(x, [0], [0], axes), x, axis=1), x [N, 3]: axes [1] gives [N, 0] (valid); int-zero makes axes
    # [0]: [0, 3] against [N, 3] off the concatenation axis, which the checker accepts (0 vs the symbol N) and
    # onnxruntime runs, writing columns it never fills (Operators.md Concat: the other dims must match)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])
    nodes = [
        helper.make_node("Slice", ["x", "zero", "zero", "axes"], ["e"], name="sl"),
        helper.make_node("Concat", ["e", "x"], ["y"], name="cat", axis=1),
    ]
    graph = helper.make_graph(nodes, "g", [x], [y], _ints(zero=[0], axes=[1]))
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    from passcheck.hunt import vary_probe
    from passcheck.hunt.probe import Setting

    out = vary_probe.judge(Setting("vary-test/concat"), base, "vary:int-zero@axes", "ort:disabled", ex)
    assert out.status == vary_probe.INVALID and "feeds' shapes" in out.reason, out
    assert vary_probe.judge(Setting("vary-test/concat"), base, "vary:int-one@zero", "ort:disabled", ex).status == "done"


def test_a_neighbour_whose_inferred_shape_has_a_negative_dim_is_invalid(ex):
    # CenterCropPad's shape [2, 2, 3] negated (no documented range: a plain negation) is a window of negative sizes:
    # inference at the fed shapes infers y [-2, -2, -3], which no tensor has; onnxruntime runs it as [0, 0, 0]
    from passcheck.hunt import vary_probe
    from passcheck.hunt.probe import Setting

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 3)  # rank only: no annotation shows it
    node = helper.make_node("CenterCropPad", ["x", "shape"], ["y"], name="crop")
    graph = helper.make_graph([node], "g", [x], [y], _ints(shape=[2, 2, 3]))
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    out = vary_probe.judge(Setting("vary-test/crop"), base, "vary:int-negate@shape", "ort:disabled", ex)
    assert out.status == vary_probe.INVALID and "negative dim" in out.reason, out
    assert vary_probe.judge(Setting("vary-test/crop"), base, "vary:int-one@shape", "ort:disabled", ex).status == "done"
