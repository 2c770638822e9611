"""onnx_ir's common passes as ``onnx-ir:*`` ids (:mod:`passcheck.passes.onnx_ir_common`): the list is read
from the installed module, each id runs isolated on a real model, and a broken variant is caught."""

from __future__ import annotations

import inspect

import onnx_ir
import onnx_ir.passes.common as common
from onnx import parser

from passcheck.api import check_model
from passcheck.passes import get_pass, known_pass_ids
from passcheck.passes.onnx_ir_common import OnnxIrPassAdapter, pass_classes, pass_id
from tests.passes._helpers import cell_of

# Two equal Adds (CSE merges them), an Identity, and two initializers of one shape with different values.
MODEL = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 4] x) => (float[N, 4] y) <float[4] a = {1, 2, 3, 4}, float[4] b = {5, 6, 7, 8}> {
  p = Add (x, a)
  q = Add (x, a)
  r = Mul (p, b)
  i = Identity (q)
  y = Add (r, i)
}""")


def test_every_class_constructible_without_arguments_has_an_id():
    expected = [
        n
        for n in common.__all__
        if issubclass(getattr(common, n), onnx_ir.passes.PassBase)
        and all(
            p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            for p in list(inspect.signature(getattr(common, n).__init__).parameters.values())[1:]
        )
    ]
    assert pass_classes() == expected and "CommonSubexpressionEliminationPass" in expected
    ids = known_pass_ids()
    for name in expected:
        assert pass_id(name) in ids and get_pass(pass_id(name)).class_name == name
    assert pass_id("CommonSubexpressionEliminationPass") == "onnx-ir:common-subexpression-elimination"


def test_a_pass_runs_isolated_and_does_what_it_declares():
    report = check_model(MODEL, ["onnx-ir:common-subexpression-elimination"], name="onnx-ir/cse")
    (cell,) = [c for c in report.cells if c.pass_id == "onnx-ir:common-subexpression-elimination"]
    assert cell.status == "changed", (cell.status, cell.error)
    assert cell.versions.get("onnx-ir") == onnx_ir.__version__
    assert cell.ops_after.get("Add") == 2 and not cell.findings, cell.findings  # one of the equal Adds went
    assert get_pass("onnx-ir:common-subexpression-elimination").optimizes
    assert not get_pass("onnx-ir:topological-sort").optimizes


class _ContentBlindDedup(OnnxIrPassAdapter):
    """A broken deduplication: merges initializers by dtype and shape, not content."""

    def __init__(self):
        super().__init__("DeduplicateInitializersPass")
        self.id = "onnx-ir:broken-dedup"

    def apply(self, model, workdir):
        m = onnx_ir.serde.deserialize_model(model)
        first: dict = {}
        for init in list(m.graph.initializers.values()):
            key = (init.dtype, tuple(init.shape))
            if key in first:
                for use in list(init.uses()):
                    use.node.replace_input_with(use.idx, first[key])
                m.graph.initializers.pop(init.name)
            else:
                first[key] = init
        return onnx_ir.serde.serialize_model(m)


def test_a_content_blind_deduplication_is_a_wrong_result_and_the_real_one_is_not():
    broken = cell_of(_ContentBlindDedup(), MODEL, "onnx-ir/broken-dedup")
    assert "wrong-result" in {f.kind for f in broken.findings}, broken.findings
    report = check_model(MODEL, ["onnx-ir:deduplicate-initializers"], name="onnx-ir/dedup")
    assert not [f for c in report.cells for f in c.findings]
