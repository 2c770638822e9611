"""A planted fusion pass and a base where its pattern is a small part of the model, loaded with
--cases-from by tests/hunt/test_guide.py (tests only).

``planted:divmul`` fuses ``Mul(Div(a, c), c)`` (either operand order, ``c`` the same value) into
``Identity(a)``, matching the Div's output as the Mul's own operand: a value inside the pattern
spelled through a neutral op (``t → Identity → Mul``, ``Add(t, 0)``) or the shared ``c`` read through
one leaves the pattern unfused, which the parity oracle reports as an optimization one form missed.

Base ``hunt-test/divmul``: eight element-wise ops, then ``Div(·, c)`` and ``Mul(·, c)``: most of a
rewrite's sites lie outside the pattern.
"""

import runpy
from pathlib import Path

from onnx import helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


def _divmul(model):
    g = model.graph
    producer = {o: n for n in g.node for o in n.output}
    for mul in list(g.node):
        if mul.op_type != "Mul" or len(mul.input) != 2:
            continue
        for t, c in (tuple(mul.input), tuple(reversed(mul.input))):
            div = producer.get(t)
            if div is None or div.op_type != "Div" or div.input[1] != c:
                continue
            readers = [n for n in g.node if t in n.input]
            fused = helper.make_node("Identity", [div.input[0]], list(mul.output), name=mul.name)
            at = list(g.node).index(mul)
            g.node.remove(mul)
            g.node.insert(at, fused)
            if len(readers) == 1:
                g.node.remove(div)
            break
    return model


if "planted:divmul" not in known_pass_ids():
    register_pass(FunctionAdapter("planted:divmul", _divmul, doc="test pass: fuses Mul(Div(a, c), c) into Identity(a)"))


def _model():
    return runpy.run_path(str(Path(__file__).with_name("divmul_model.py")))["model"]()


register(
    Case(
        id="hunt-test/divmul",
        forms={"common": Form(_model), "same": Form(_model, "the same model")},
        doc="Eight element-wise ops, then x / c * c (tests only).",
        opset=17,
    )
)
