"""``ort-tools:fix-dim-param`` / ``ort-tools:fix-input-shape`` (:mod:`passcheck.passes.ort_dim_fix`, onnxruntime's
``make_dynamic_shape_fixed`` tool) judged by the ``fixed_dims`` oracle (:mod:`passcheck.oracles.fixed_dims`) and the
annotations oracle under the fixed binding; planted tools that fix only the graph inputs, fix to a wrong size or are
judged on every binding are caught."""

from __future__ import annotations

import onnx
from onnx import TensorProto as T
from onnx import helper as h

from passcheck.api import check_model
from passcheck.engine import Subject, evaluate
from passcheck.oracles.fixed_dims import changes
from passcheck.passes import get_pass, register_pass, unregister_pass
from passcheck.passes.ort_dim_fix import DimFixAdapter, resolve
from passcheck.runtime.plan import graph_scopes
from tests.passes._helpers import cell_of


def _tensor_model() -> onnx.ModelProto:
    """``y = Relu(x) + 1`` inside an If's branches, ``x: [N, 4]``, value_info ``r: [N, 4]`` in the main graph and
    ``t: [N, 4]`` in both branches, output ``y: [N, 4]``; a second input ``z: [M]`` whose symbol is not fixed."""
    vi = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)  # noqa: E731
    one = h.make_tensor("one", T.FLOAT, [], [1.0])
    branch = lambda tag: h.make_graph(  # noqa: E731
        [h.make_node("Add", ["r", "one"], [f"t{tag}"]), h.make_node("Identity", [f"t{tag}"], [f"o{tag}"])],
        f"b{tag}",
        [],
        [vi(f"o{tag}", ["N", 4])],
        value_info=[vi(f"t{tag}", ["N", 4])],
    )
    nodes = [
        h.make_node("Relu", ["x"], ["r"]),
        h.make_node("ReduceSum", ["z"], ["zs"], keepdims=0),
        h.make_node("Greater", ["zs", "zero"], ["c"]),
        h.make_node("If", ["c"], ["y"], then_branch=branch("a"), else_branch=branch("b")),
        h.make_node("Identity", ["z"], ["w"]),
    ]
    g = h.make_graph(
        nodes,
        "g",
        [vi("x", ["N", 4]), vi("z", ["M"])],
        [vi("y", ["N", 4]), vi("w", ["M"])],
        initializer=[one, h.make_tensor("zero", T.FLOAT, [], [0.0])],
        value_info=[vi("r", ["N", 4])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def _cells(model, passes, name):
    report = check_model(model, passes, name=name)
    return {c.pass_id: c for c in report.cells if c.pass_id in passes}


def test_the_real_tool_fixes_every_occurrence_and_is_judged_on_the_agreeing_run_only():
    passes = ["ort-tools:fix-dim-param", "ort-tools:fix-input-shape"]
    cells = _cells(_tensor_model(), passes, "dim-fix/tensor")
    for p in passes:
        assert cells[p].status == "changed", (p, cells[p].status, cells[p].error)
        assert cells[p].verdict == "ok", (p, cells[p].findings, cells[p].unchecked)
    a = get_pass("ort-tools:fix-dim-param").bound([{"x": _arr((2, 4)), "z": _arr((2,))}], _tensor_model())
    assert a[0].fixes == {"input": "x", "axis": 0, "size": 2, "shape": None} and a[1] == [0]


def _renamed(model: onnx.ModelProto, old: str, new: str) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for _scope, g in graph_scopes(out):
        for v in [*getattr(g, "input", ()), *getattr(g, "output", ()), *g.value_info]:
            for d in v.type.tensor_type.shape.dim:
                if d.dim_param == old:
                    d.dim_param = new
    return out


def test_a_form_that_names_the_symbol_otherwise_gets_the_same_fix():
    """The fix is a place of the shared interface (input x, axis 0), read in each form: a form spelling N as B
    (the rewrite ``rename-dim-params``) gets B fixed, not a no-op that leaves it less precise than ``common``."""
    forms = {"common": _tensor_model(), "renamed": _renamed(_tensor_model(), "N", "B")}
    subject = Subject("dim-fix/renamed", forms, [{"N": 2, "B": 2, "M": 2}, {"N": 3, "B": 3, "M": 3}])
    cells = {c.form: c for c in evaluate(subject, ["ort-tools:fix-dim-param"]) if c.pass_id != "input"}
    for form, cell in cells.items():
        assert cell.status == "changed" and cell.verdict == "ok", (form, cell.status, cell.findings)


def _arr(shape):
    import numpy as np

    return np.zeros(shape, np.float32)


def test_a_model_without_a_symbol_is_unchecked_not_ok():
    m = h.make_model(
        h.make_graph(
            [h.make_node("Relu", ["x"], ["y"])],
            "g",
            [h.make_tensor_value_info("x", T.FLOAT, [2, 4])],
            [h.make_tensor_value_info("y", T.FLOAT, [2, 4])],
        ),
        opset_imports=[h.make_opsetid("", 17)],
        ir_version=8,
    )
    cells = _cells(m, ["ort-tools:fix-dim-param"], "dim-fix/static")
    cell = cells["ort-tools:fix-dim-param"]
    assert cell.status == "unavailable" and "nothing to fix" in (cell.error or ""), (cell.status, cell.error)
    assert cell.verdict != "ok", cell.verdict


class _InputsOnly(DimFixAdapter):
    """Planted: fixes the symbol in the main graph's inputs only, every value_info and output left stale."""

    def __init__(self):
        super().__init__("param")
        self.id = "planted:fix-inputs-only"

    def apply(self, model, workdir):
        (symbol, size), *_ = resolve(self.fixes, model)["symbols"].items()
        for v in model.graph.input:
            for d in v.type.tensor_type.shape.dim:
                if d.dim_param == symbol:
                    d.Clear()
                    d.dim_value = size
        return model


class _WrongSize(DimFixAdapter):
    """Planted: the real tool, asked to fix the symbol one above the size the feeds bind."""

    def __init__(self):
        super().__init__("param")
        self.id = "planted:fix-wrong-size"

    def apply(self, model, workdir):
        from onnxruntime.tools import onnx_model_utils as utils

        (symbol, size), *_ = resolve(self.fixes, model)["symbols"].items()
        utils.make_dim_param_fixed(model.graph, symbol, size)
        for v in model.graph.value_info:
            for d in v.type.tensor_type.shape.dim:
                if d.HasField("dim_value") and d.dim_value == size:
                    d.dim_value = size + 1
        return model


def test_a_tool_that_fixes_only_the_graph_inputs_is_caught():
    cell = cell_of(_InputsOnly(), _tensor_model(), "dim-fix/inputs-only")
    kinds = {f.kind for f in cell.findings}
    assert "symbol-left" in kinds, cell.findings
    (f,) = [f for f in cell.findings if f.kind == "symbol-left"]
    sites = " ".join(f.details["sites"])
    assert "'r'" in sites and "'ta'" in sites and "'y'" in sites, sites


def test_a_tool_that_writes_a_wrong_size_is_caught_by_both_oracles():
    cell = cell_of(_WrongSize(), _tensor_model(), "dim-fix/wrong")
    kinds = {(f.oracle, f.kind) for f in cell.findings}
    assert ("fixed_dims", "fixed-wrong") in kinds, cell.findings
    assert any(o == "annotations" for o, _ in kinds), cell.findings


class _Unfiltered(DimFixAdapter):
    """Planted: the real tool bound to N = 2, but declared not to bind, so the engine judges it on every run (N = 3
    too) — the filter on agreeing runs is what keeps a correct fix from being blamed."""

    binds = False

    def __init__(self):
        super().__init__("param")
        self.id = "planted:fix-unfiltered"
        self.fixes = {"input": "x", "axis": 0, "size": 2, "shape": None}


def test_judging_a_fix_on_a_run_that_disagrees_with_it_would_blame_the_tool():
    adapter = _Unfiltered()
    register_pass(adapter)
    try:
        report = check_model(_tensor_model(), [adapter.id], name="dim-fix/unfiltered")
    finally:
        unregister_pass(adapter.id)
    (cell,) = [c for c in report.cells if c.pass_id == adapter.id]
    assert cell.verdict != "ok" and cell.findings, (cell.verdict, cell.findings)


def test_changes_reads_every_type_kind_and_function_bodies():
    vi = lambda n, t: h.make_value_info(n, t)  # noqa: E731
    ten = lambda s: h.make_tensor_type_proto(T.FLOAT, s)  # noqa: E731
    f = h.make_function(
        "pkg", "F", ["a"], ["b"], [h.make_node("Relu", ["a"], ["b"])], opset_imports=[h.make_opsetid("", 17)]
    )
    f.value_info.append(vi("b", ten(["N", 4])))
    g = h.make_graph(
        [h.make_node("F", ["x"], ["y"], domain="pkg")],
        "g",
        [vi("x", ten(["N", 4]))],
        [vi("y", ten(["N", 4]))],
        value_info=[
            vi("s", h.make_sequence_type_proto(ten(["N", 4]))),
            vi("o", h.make_optional_type_proto(ten(["N"]))),
            vi("p", h.make_sparse_tensor_type_proto(T.FLOAT, ["N", 4])),
            vi("k", h.make_map_type_proto(T.INT64, h.make_sequence_type_proto(ten(["N"])))),
            vi("q", ten(["M", 0])),
        ],
    )
    m = h.make_model(g, functions=[f], opset_imports=[h.make_opsetid("", 17), h.make_opsetid("pkg", 1)])
    after = onnx.ModelProto()
    after.CopyFrom(m)
    for v in [*after.graph.input, *after.graph.output]:
        v.type.tensor_type.shape.dim[0].dim_value = 3
    after.graph.value_info[-1].type.tensor_type.shape.dim[1].Clear()  # a dim_value 0 no fix covers, cleared
    got = list(changes(m, after, {"symbols": {"N": 3}, "input": None, "shape": None}))
    left = " ".join(line for k, line in got if k == "symbol-left")
    for name in ("'s' elem", "'o' elem", "'p'", "'k' elem/elem", "function pkg.F value 'b'"):
        assert name in left, (name, got)
    changed = [line for k, line in got if k == "dim-changed"]
    assert len(changed) == 1 and "'q' axis 1: 0 -> ?" in changed[0], got
