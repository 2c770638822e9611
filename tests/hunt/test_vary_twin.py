"""The twin neighbour (:mod:`passcheck.hunt.vary_twin`): the base's computation again on an input with one dim
doubled, every constant shared, judged with real passes and real onnxruntime runs.

A planted pass resolves a Reshape's ``-1`` from its data input's inferred shape and writes the resolved shape
into the shape initializer under its own name (the first reader's answer for every reader). On the base, where
the initializer has one reader, that is right; only the twin gives it a second reader of another size. The same
pass writing a new initializer per node gives no finding.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe, vary_twin
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _base(dim0: int | str = 1) -> onnx.ModelProto:
    """``Reshape(Reshape(x, s1), sh)`` with ``s1 = [1, -1]``, ``sh = [2, -1]``; ``x: [dim0, 8]``."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [dim0, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4] if dim0 == 1 else [2, None])
    inits = [
        numpy_helper.from_array(np.array([1, -1], np.int64), "s1"),
        numpy_helper.from_array(np.array([2, -1], np.int64), "sh"),
    ]
    nodes = [
        helper.make_node("Reshape", ["x", "s1"], ["t"], name="flat"),
        helper.make_node("Reshape", ["t", "sh"], ["y"], name="split"),
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "chain", [x], [y], inits), opset_imports=[helper.make_opsetid("", 18)]
    )
    model.ir_version = 8
    return model


def _resolve_reshape(shared: bool):
    """The first Reshape whose shape is an initializer holding a -1 and whose data input onnx infers fully static:
    the -1 resolved; ``shared``: written into that initializer in place, else into a new one that node alone reads."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        inferred = onnx.shape_inference.infer_shapes(model)
        types = {v.name: v.type for v in [*inferred.graph.input, *inferred.graph.value_info]}
        inits = {t.name: t for t in g.initializer}
        for n in g.node:
            if n.op_type != "Reshape" or n.input[1] not in inits:
                continue
            shape = numpy_helper.to_array(inits[n.input[1]])
            dims = [d.dim_value if d.HasField("dim_value") else 0 for d in types[n.input[0]].tensor_type.shape.dim]
            if -1 not in shape.tolist() or 0 in dims:
                continue
            known = int(np.prod([s for s in shape if s != -1]))
            resolved = np.where(shape == -1, int(np.prod(dims)) // known, shape).astype(np.int64)
            if shared:
                inits[n.input[1]].CopyFrom(numpy_helper.from_array(resolved, n.input[1]))
            else:
                name = f"{n.input[1]}_{n.name}"
                g.initializer.append(numpy_helper.from_array(resolved, name))
                n.input[1] = name
            break
        return model

    return rewrite


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _judge(form: str, shared: bool, ex, base=None):
    pid = f"planted:resolve-reshape-{'shared' if shared else 'own'}"
    register_pass(FunctionAdapter(pid, _resolve_reshape(shared)))
    try:
        return vary_probe.judge(Setting("vary-test/twin"), base or _base(), form, pid, ex)
    finally:
        unregister_pass(pid)


def test_the_twin_is_valid_shares_every_initializer_and_appends_the_copys_outputs():
    base = _base()
    forms = [f for f in variation.neighbours(base, random.Random(0)) if variation.kind(f) == "vary:twin"]
    assert forms == ["vary:twin@x=0", "vary:twin@x=1"]
    twin, labels = variation.build(base, "vary:twin@x=1")
    onnx.checker.check_model(twin, full_check=True)
    assert labels == ["x"]
    assert [i.name for i in twin.graph.input] == ["x"]
    assert [o.name for o in twin.graph.output] == ["y", "y__twin"]
    assert [t.name for t in twin.graph.initializer] == ["s1", "sh"]  # no constant copied
    readers = {v: [n.name for n in twin.graph.node if v in n.input] for v in ("s1", "sh")}
    assert readers == {"s1": ["flat", "flat__twin"], "sh": ["split", "split__twin"]}
    concat = twin.graph.node[0]
    assert (concat.op_type, list(concat.input), concat.attribute[0].i) == ("Concat", ["x", "x"], 1)
    assert vary_twin.added(base, "x=1") == 1
    assert [o.name for o in base.graph.output] == ["y"]  # the base is never modified


def test_a_shared_symbol_is_doubled_in_every_input_and_both_forms_get_the_same_twin():
    x2 = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 8])
    sym = _base("N")
    sym.graph.input.append(x2)
    sym.graph.node.append(helper.make_node("Add", ["x", "z"], ["w"], name="add"))
    sym.graph.output.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, ["N", 8]))
    assert vary_twin.doubled(sym, "x=0") == {"x": [0], "z": [0]}
    twin, _ = variation.build(sym, "vary:twin@x=0")
    onnx.checker.check_model(twin, full_check=True)
    assert [o.name for o in twin.graph.output] == ["y", "w", "y__twin", "w__twin"]
    # the static form of the same case: the same form id names the same input and axis
    static, _ = variation.build(_base(), "vary:twin@x=0")
    assert [o.name for o in static.graph.output] == ["y", "y__twin"]


def test_an_input_read_by_no_computed_output_or_a_body_gives_no_site():
    base = _base()
    base.graph.node[0].attribute.append(helper.make_attribute("g", helper.make_graph([], "b", [], [])))
    assert list(vary_twin.candidates(base)) == []


def test_a_pass_writing_one_readers_constant_under_the_shared_name_is_found_through_the_twin(ex):
    out = _judge("vary:twin@x=1", shared=True, ex=ex)
    assert out.status == "done", out
    assert out.findings, out


def test_the_same_pass_on_the_base_alone_gives_no_finding(ex):
    from passcheck.engine import Subject, evaluate

    pid = "planted:resolve-reshape-shared"
    register_pass(FunctionAdapter(pid, _resolve_reshape(True)))
    try:
        subject = Subject(id="vary-test/twin", forms={"common": _base()}, bindings=({}, {}))
        cells = evaluate(subject, [pid], executor=ex)
    finally:
        unregister_pass(pid)
    assert cells and all(not c.findings for c in cells), cells


def test_the_pass_writing_a_new_constant_per_reader_gives_no_finding_on_the_twin(ex):
    out = _judge("vary:twin@x=1", shared=False, ex=ex)
    assert out.status == "done" and out.findings == [], out


def test_vary_kind_twin_is_accepted_and_a_typo_refused():
    from passcheck.cli.hunt import _check_vary_kinds
    from passcheck.errors import PasscheckError

    _check_vary_kinds(["twin"])
    with pytest.raises(PasscheckError):
        _check_vary_kinds(["twins"])


def test_an_environment_hunt_takes_the_appended_outputs_for_the_twins_interface():
    from passcheck.cases import Case, Form
    from passcheck.hunt import env_vary
    from passcheck.hunt.space import Base, Item

    case = Case(
        id="vary-test/twin",
        forms={"common": Form(_base, ""), "other": Form(_base, "")},
        doc="Reshape(Reshape(x, [1, -1]), [2, -1]).",
        opset=18,
    )
    base = Base(case, "common")
    rec: dict = {}
    with pytest.raises(AttributeError):  # no store: it stops where the environments would be asked
        env_vary.run(None, rec, base, Item(base.id, "vary:twin@x=1", "planted:none"), None, None)
    assert rec.get("status") != vary_probe.INVALID, rec
    env_vary.run(None, rec, base, Item(base.id, "vary:twin@x=9", "planted:none"), None, None)
    assert "not in this model" in rec["reason"]
