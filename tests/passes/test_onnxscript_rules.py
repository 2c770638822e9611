"""``onnxscript:rule-NAME`` and ``onnxscript:rewrite-opt-in`` run the rules the installed onnxscript
exports (``onnxscript.rewriter.rules.common``), one at a time or the opt-in ones together, on real
models: each applies its rule and only its rule, its output runs in onnxruntime, and the coverage
catalogue traces the opt-in rules a base triggers (so the hunt reaches them)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.errors import PasscheckError
from passcheck.passes import get_pass
from passcheck.passes import onnxscript_rules as rules


def _matmul_add(swapped: bool = False) -> onnx.ModelProto:
    add = ["b", "mm"] if swapped else ["mm", "b"]
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["mm"]), helper.make_node("Add", add, ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 5])],
        initializer=[
            numpy_helper.from_array(np.arange(20, dtype=np.float32).reshape(4, 5) / 7, "w"),
            numpy_helper.from_array(np.linspace(-1, 1, 5, dtype=np.float32), "b"),
        ],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=9)


def _cell(model, pass_id):
    cells = [c for c in check_model(model, [pass_id]).cells if c.pass_id == pass_id]
    assert len(cells) == 1, cells
    return cells[0]


def test_every_exported_rule_has_a_pass_id_that_resolves():
    ids = rules.pass_ids()
    assert "onnxscript:rule-matmul-add-to-gemm" in ids and "onnxscript:rule-transpose-transpose" in ids
    for pid in ids:
        a = get_pass(pid)
        assert a.id == pid and a.unavailable_reason() is None and a.capabilities.optimizes


def test_an_unknown_rule_is_a_one_line_error_naming_the_closest_ones():
    # was: every exported rule listed (1,227 characters with onnxscript 0.7.2)
    with pytest.raises(PasscheckError, match="did you mean 'onnxscript:rule-matmul-add-to-gemm'") as err:
        get_pass("onnxscript:rule-matmul-add-gemm")
    assert len(str(err.value)) < 300, str(err.value)
    with pytest.raises(
        PasscheckError, match=r"known: onnxscript:rule-.* \(\d+ in all: passcheck list --passes\)$"
    ) as err:
        get_pass("onnxscript:rule-" + "q" * 40)
    assert len(str(err.value)) < 700, str(err.value)


def test_one_rule_applies_its_pattern_and_keeps_the_values():
    cell = _cell(_matmul_add(), "onnxscript:rule-matmul-add-to-gemm")
    assert cell.status == "changed" and cell.ops_after == {"Gemm": 1}, (cell.status, cell.error, cell.ops_after)
    assert cell.verdict == "ok", cell.findings


def test_a_rule_applies_only_its_own_pattern():
    # the Transpose-pair rule does not touch a MatMul + Add
    cell = _cell(_matmul_add(), "onnxscript:rule-transpose-transpose")
    assert cell.ops_after == {"Add": 1, "MatMul": 1} and cell.verdict == "ok", (cell.ops_after, cell.findings)


def test_opt_in_applies_the_rules_the_default_rewrite_leaves_out():
    opted = _cell(_matmul_add(), "onnxscript:rewrite-opt-in")
    default = _cell(_matmul_add(), "onnxscript:rewrite")
    assert opted.ops_after == {"Gemm": 1} and default.ops_after == {"Add": 1, "MatMul": 1}, (
        opted.ops_after,
        default.ops_after,
    )
    names = rules.opt_in()
    assert "matmul_add_to_gemm_rule" in names and "transpose_transpose_rule" not in names, names


def test_the_coverage_catalogue_traces_an_opt_in_rule_to_its_pass():
    from passcheck.coverage import onnxscript as cov

    entries = {e.name: e for e in cov.catalogue([]) if e.kind == "rule"}
    assert "onnxscript:rewrite-opt-in" in entries["MatMulAddToGemm"].passes
    hit = {k: v for k, v in cov.triggers(_matmul_add()).items() if "MatMulAddToGemm" in k}
    assert hit and all(v.startswith("onnxscript:rewrite-opt-in:") for v in hit.values()), hit


def test_opt_in_without_a_rule_to_run_is_unavailable_not_ok(monkeypatch):
    # onnxscript < 0.5 read only through rules.common ran an empty rule list, and every cell was `ok`
    # (docs/recall.md R64): a pass with nothing to run says why instead
    assert get_pass("onnxscript:rewrite-opt-in").unavailable_reason() is None
    monkeypatch.setattr(rules, "opt_in", lambda: [])
    assert "no rule" in (get_pass("onnxscript:rewrite-opt-in").unavailable_reason() or "")
