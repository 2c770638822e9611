"""The checker probes (M284): each form the checker accepts, broken in one IR rule, must be refused."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import INPUT, Subject, evaluate
from passcheck.oracles import checker_probes, registry
from passcheck.oracles._context import FormRun
from passcheck.oracles.validity import plain_checker_error
from passcheck.passes._base import PassOutcome


def _model() -> onnx.ModelProto:
    """``y = Add(Cast(h), w)``: ``h`` float16 [4] in ``int32_data`` (one bit pattern a slot), ``w`` float [4] raw."""
    h = TensorProto(name="h", data_type=TensorProto.FLOAT16, dims=[4])
    h.int32_data.extend(int(v) for v in np.array([1, 2, 3, 4], np.float16).view(np.uint16))
    w = numpy_helper.from_array(np.arange(4, dtype=np.float32), "w")
    nodes = [helper.make_node("Cast", ["h"], ["hf"], to=TensorProto.FLOAT), helper.make_node("Add", ["hf", "w"], ["y"])]
    out = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])]
    g = helper.make_graph(nodes, "g", [], out, [h, w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _run(model, checker) -> FormRun:
    return FormRun("c", "typed", INPUT, model, PassOutcome(INPUT, "unchanged", model), [{}], [], [], checker=checker)


def test_every_probe_is_broken_and_the_engine_reports_those_the_installed_checker_accepts():
    m = _model()
    assert plain_checker_error(m) is None
    ps = checker_probes.probes(m)
    assert [(p.kind, p.site) for p in ps] == [
        ("undefined-output", "y__undefined"),
        ("short-payload", "h"),
        ("long-payload", "h"),
        ("short-payload", "w"),
        ("long-payload", "w"),
    ]
    h = [p.model.graph.initializer[0].int32_data for p in ps[1:3]]
    w = [p.model.graph.initializer[1].raw_data for p in ps[3:]]
    assert [len(x) for x in h] == [3, 5] and [len(x) for x in w] == [12, 20]
    assert m.graph.output[0].name == "y" and len(m.graph.initializer[0].int32_data) == 4  # the form untouched
    for p in ps:  # the claim verified by the other readers: onnxruntime refuses each copy at load
        with pytest.raises(Exception):  # noqa: B017 - InvalidGraph / Fail / InvalidArgument, by field
            ort.InferenceSession(p.model.SerializeToString(), providers=["CPUExecutionProvider"])
    accepted = {(p.kind, p.site) for p in ps if plain_checker_error(p.model) is None}
    # onnx 1.23.2: the undefined output and the short payloads refused (onnx/onnx#6083, #8211, #8319), the long
    # ones accepted (docs/found.md row 998)
    assert {k for k, _ in accepted} <= {"long-payload"}
    with registry.registered(checker_probes.ORACLE):  # opt-in: not among the built-in oracles
        cells = {c.form: c for c in evaluate(Subject("probes/typed", {"common": m}, [{}]), [INPUT])}
    assert "checker_probes" not in registry.BUILTIN
    found = {(f.details["probe"], f.details["site"]) for f in cells["common"].findings if f.oracle == "checker_probes"}
    assert found == accepted


def test_a_checker_that_accepts_a_broken_copy_is_a_disagreement_naming_the_rule():
    m = _model()

    def lax(model, full_check=False):  # onnx 1.16's checker: neither rule (onnx/onnx#6083, #8211)
        return None

    found = checker_probes.check(_run(m, lax))
    assert [(f.kind, f.details["probe"], f.details["site"]) for f in found] == [
        ("validity-disagreement", "undefined-output", "y__undefined"),
        ("validity-disagreement", "short-payload", "h"),
        ("validity-disagreement", "long-payload", "h"),
        ("validity-disagreement", "short-payload", "w"),
        ("validity-disagreement", "long-payload", "w"),
    ]
    assert "IR.md" in found[0].message and "FLOAT16 [4] holds 4 elements; its int32_data" in found[1].details["rule"]

    def lax_payload(model, full_check=False):  # enforces every rule but the payload's count
        if model.graph.output[0].name != "y":
            return plain_checker_error(model)
        return None

    assert [f.details["probe"] for f in checker_probes.check(_run(m, lax_payload))] == [
        "short-payload",
        "long-payload",
    ] * 2


def test_no_probe_where_no_claim_is_verified():
    one = helper.make_model(
        helper.make_graph(
            [helper.make_node("Identity", ["s"], ["y"])],
            "g",
            [],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])],
            [numpy_helper.from_array(np.array(1.0, np.float32), "s")],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    assert [p.kind for p in checker_probes.probes(one)] == ["undefined-output"]  # one element: nothing to shorten
    assert [p.kind for p in checker_probes.probes(_model(), limit=2)] == ["undefined-output", "short-payload"]

    def refuses_the_form(model, full_check=False):  # accepts only the broken copies
        return "refused" if model.graph.output[0].name == "y" else None

    assert checker_probes.check(_run(one, refuses_the_form)) == []  # the form itself refused: no probe asked about


def test_a_form_above_the_size_cap_is_not_probed(monkeypatch):
    monkeypatch.setattr(checker_probes, "MAX_BYTES", _model().ByteSize() - 1)
    assert checker_probes.check(_run(_model(), lambda model, full_check=False: None)) == []
