"""Bases for the version converter's adapter sources (:mod:`passcheck.generate.adapters`,
:func:`passcheck.generate.build.adapter_bases`), with real onnx schemas, the real converter and onnxruntime runs.

The generated set builds a schema at ``max(since_version, 7)`` and keeps a pair as a case only when onnxruntime
and the reference evaluator agree on it, so BatchNormalization-7 at opset 8 (the source of its 8 → 9 adapter) and
Scan-8 (``Scan_8_9``) were in no form of a hunt base. A planted converter whose BatchNormalization 8 → 9 step
swaps the mean and variance inputs is caught on the new base, and on no other BatchNormalization case.
"""

from __future__ import annotations

import onnx
import pytest

from passcheck.case_model import DECLARED_ONLY
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import generated_cases

OPS = ["BatchNormalization", "Scan"]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "adapter-bases-cache", OPS)


def test_the_registry_holds_the_oldest_adapters():
    from passcheck.generate import adapters

    found = set(adapters.adapters())
    assert {("Scan", 8, 9), ("Upsample", 6, 7), ("BatchNormalization", 8, 9), ("BatchNormalization", 6, 7)} <= found
    assert ("Softmax", 13, 12) in found and ("ScatterND", 18, 17) in found  # the per-op adapter classes too
    # a source is unreached when no case builds its schema: Scan-8 is, Scan-9 is not
    assert ("Scan", 8, 8) in adapters.unreached({("Scan", 9), ("Scan", 11), ("Scan", 16)})
    every = {(s.name, s.since_version) for s in onnx.defs.get_all_schemas_with_history() if s.name == "Scan"}
    assert all(op != "Scan" for op, _a, _s in adapters.unreached(every))


def test_adapter_sources_get_bases_valid_at_their_opset(cases):
    for cid, opset in (("generated/batchnormalization-7.adapter.opset-8", 8), ("generated/scan-8.adapter.opset-8", 8)):
        case = cases[cid]
        assert case.opset == opset and "adapter-source" in case.tags
        for form in case.forms:
            model = case.build(form)
            assert [(o.domain, o.version) for o in model.opset_import] == [("", opset)]
            onnx.checker.check_model(model, full_check=True)
    # onnxruntime runs them, the reference evaluator does not: searched under the converters only
    up = cases["generated/batchnormalization-7.adapter.opset-8"]
    assert DECLARED_ONLY in up.tags and "onnx:convert-opset-up" in up.passes


def test_a_converter_run_happens_on_the_new_base(cases, tmp_path):
    from passcheck.passes.version_converter import OpsetBoundaryAdapter

    case = cases["generated/batchnormalization-7.adapter.opset-8"]
    assert [n.op_type for n in case.build("common").graph.node] == ["BatchNormalization"]
    converted = OpsetBoundaryAdapter("up").apply(case.build("common"), tmp_path)
    assert converted.opset_import[0].version == 9  # the 8 -> 9 adapter ran
    assert [n.op_type for n in converted.graph.node] == ["BatchNormalization"]
    cells = [
        c
        for c in evaluate(Subject.from_case(case, onnx.__version__), ["onnx:convert-opset-up"])
        if c.pass_id != "input"
    ]
    assert {c.form for c in cells} == set(case.forms)
    assert all(c.status in ("changed", "unchanged") and not c.findings for c in cells), cells


def _converter(model: onnx.ModelProto, broken: bool = True) -> onnx.ModelProto:
    """The converter to the next opset boundary; ``broken``: BatchNormalization 8 → 9 swaps mean and variance."""
    from passcheck.passes.version_converter import opset_boundary

    start = model.opset_import[0].version
    target, _why = opset_boundary(model, "up")
    out = onnx.version_converter.convert_version(model, target)
    if start != 8 or not broken:
        return out
    for n in out.graph.node:
        if n.op_type == "BatchNormalization":
            n.input[3], n.input[4] = n.input[4], n.input[3]
    return out


def _findings(cases, broken: bool) -> set[tuple[str, str, str, str]]:
    """(case, form, oracle, kind) of every finding of the converter (``broken`` or not) on ``cases``."""
    pid = f"planted:convert-up-{'broken' if broken else 'clean'}"
    register_pass(FunctionAdapter(pid, lambda m: _converter(m, broken)))
    try:
        cells = [cell for c in cases for cell in evaluate(Subject.from_case(c, onnx.__version__), [pid])]
        return {(f.case, f.form, f.oracle, f.kind) for cell in cells for f in cell.findings}
    finally:
        unregister_pass(pid)


def test_a_planted_adapter_break_is_caught_on_the_new_base_only(cases):
    new = [cases["generated/batchnormalization-7.adapter.opset-8"]]
    assert _findings(new, broken=True) and not _findings(new, broken=False)
    others = [c for c in cases.values() if "op:BatchNormalization" in c.tags and "adapter-source" not in c.tags]
    assert others and all(c.opset != 8 for c in others)
    assert _findings(others, broken=True) == _findings(others, broken=False)


def test_a_base_searched_under_the_converters_draws_no_other_pass_but_those_treating_its_op_by_type(cases):
    from passcheck.hunt import passes as hpasses
    from passcheck.hunt.space import Base

    only = cases["generated/batchnormalization-7.adapter.opset-8"]
    plain = next(c for c in cases.values() if DECLARED_ONLY not in c.tags)
    bases = [Base(only, "common"), Base(plain, "common")]
    plan = hpasses.explicit(["ort:basic", "onnx:convert-opset-up"], bases)
    assert plan.of(f"{only.id}:common") == ("onnx:convert-opset-up",)
    assert plan.of(f"{plain.id}:common") == ("ort:basic", "onnx:convert-opset-up")
    assert hpasses.passes_of(plan) is not None and hpasses.passes_of(hpasses.explicit(["ort:basic"])) is None
    relevant = hpasses.relevant(bases, None)
    by_type = {p for p in hpasses.registered() if hpasses.treats_op(p, only)}  # M465: the quantizers' BatchNorm
    assert set(relevant.of(f"{only.id}:common")) == (set(only.passes) | by_type) - set(relevant.unavailable)
    assert not set(relevant.of(f"{only.id}:common")) & {"ort:basic", "onnx:infer-shapes"}


def _model(nodes, opset: int, inputs, output: str = "y") -> onnx.ModelProto:
    import onnx.helper as h

    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info(n, onnx.TensorProto.FLOAT, s) for n, s in inputs],
        [h.make_tensor_value_info(output, onnx.TensorProto.FLOAT, None)],
    )
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


def test_a_boundary_side_counts_only_when_a_converter_pass_crosses_it():
    """Conv-11 with a BatchNormalization reading its output (a channel reader) holds BatchNormalization-9, but the
    down pass stops at opset 10 (Conv's boundary) and the up pass at 14: the BatchNormalization 9 → 8 adapter
    runs on no such form. Schema presence called it reached; the crossing does not."""
    import onnx.helper as h

    from passcheck.generate import adapters

    conv = _model(
        [
            h.make_node("Conv", ["x", "w"], ["c"]),
            h.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["y"]),
        ],
        11,
        [("x", [1, 2, 5, 5]), ("w", [3, 2, 3, 3]), ("s", [3]), ("b", [3]), ("m", [3]), ("v", [3])],
    )
    bn = _model([h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])], 9, [("x", [2, 3, 2])])
    assert ("BatchNormalization", 9) in adapters.reach(conv)
    assert ("BatchNormalization", 9, 8) not in adapters.crossed(conv)
    assert {("BatchNormalization", 9, 8), ("BatchNormalization", 13, 14)} <= adapters.crossed(bn)
    assert ("BatchNormalization", 9, 9) in adapters.uncrossed(adapters.crossed(conv))
    assert ("BatchNormalization", 9, 9) not in adapters.unreached(adapters.reach(conv))
    assert ("BatchNormalization", 9, 9) not in adapters.uncrossed(adapters.crossed(bn))


def test_both_sides_of_a_one_way_adapter_are_boundary_sides():
    from passcheck.generate import adapters

    assert ("Add", 13, 14) in set(adapters.adapters()) and ("Add", 14, 13) not in set(adapters.adapters())
    assert {("Add", 13, 14), ("Add", 14, 13)} <= adapters.sides()
