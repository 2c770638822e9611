"""A planted data-propagation bug (a symbol carried through an integer Cast comes out as 1) is
caught through the data-prop/* cases by the annotations oracle at run time, and the library
before them gives it nothing to act on. Real onnx shape inference and onnxruntime sessions."""

from __future__ import annotations

from passcheck._versions import tool_version
from passcheck.cases import registry
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

from . import planted_dataprop as planted


def _run(case_id: str):
    pid = "planted:cast-data-prop"
    register_pass(FunctionAdapter(pid, planted.cast_data_prop_pins_symbols, optimizes=False))
    try:
        return evaluate(Subject.from_case(registry().get(case_id), tool_version("onnx")), [pid], check_input=False)
    finally:
        unregister_pass(pid)


def test_a_symbol_pinned_by_cast_data_propagation_is_caught_on_the_casting_forms():
    cells = _run("data-prop/reshape-heads-int32")
    hits = {c.form for c in cells for f in c.findings if f.oracle == "annotations"}
    assert hits == {"common", "cast-same"}
    others = {(c.form, f.oracle, f.kind) for c in cells for f in c.findings if f.oracle != "annotations"}
    assert others <= {("identity", "parity", "less-precise")}  # int64, gather-*, … : the right shapes
    msg = next(f.message for c in cells for f in c.findings if f.form == "common" and f.oracle == "annotations")
    assert "y: axis 1 annotated 1" in msg  # T pinned to 1; the run bound it to 2


def test_the_right_data_propagation_passes_the_same_forms():
    pid = "planted:right-data-prop"
    register_pass(FunctionAdapter(pid, lambda m: planted._infer(m, True), optimizes=False))
    try:
        cells = evaluate(
            Subject.from_case(registry().get("data-prop/reshape-heads-int32"), tool_version("onnx")),
            [pid],
            check_input=False,
        )
    finally:
        unregister_pass(pid)
    # onnx propagates no data through Identity: that form is less precise, never wrong
    assert {(c.form, f.oracle, f.kind) for c in cells for f in c.findings} <= {("identity", "parity", "less-precise")}


def test_the_older_library_gives_the_planted_bug_nothing_to_act_on():
    # on every form of every other hand-written case the planted pass writes what the right one does,
    # so no oracle can tell them apart there
    for case in registry():
        if case.id.startswith(("data-prop/", "generated/")):
            continue
        for form in case.forms:
            model = case.build(form)
            assert planted.cast_data_prop_pins_symbols(model) == planted._infer(model, True), (case.id, form)
