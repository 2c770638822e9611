"""``onnxoptimizer:pass-NAME`` and ``onnxoptimizer:opt-in`` (:mod:`passcheck.passes.onnxoptimizer_passes`): the
passes the installed onnxoptimizer lists, one at a time or the ones its default leaves out, on a library case;
a broken adapter's output is caught."""

from __future__ import annotations

import onnx
import pytest

from passcheck.api import check_model
from passcheck.cases import load_builtin
from passcheck.errors import PasscheckError
from passcheck.passes import get_pass
from passcheck.passes import onnxoptimizer_passes as oxo
from tests.passes._helpers import cell_of, script_apply

pytest.importorskip("onnxoptimizer")

CONV_BN = load_builtin().get("pattern-ort/conv-bn").build("common")


def _cell(model, pass_id):
    (cell,) = [c for c in check_model(model, [pass_id], name="onnxoptimizer/conv-bn").cells if c.pass_id == pass_id]
    return cell


def test_every_available_pass_but_the_interface_changing_ones_has_an_id():
    import onnxoptimizer

    ids = oxo.pass_ids()
    assert "onnxoptimizer:pass-fuse-bn-into-conv" in ids and "onnxoptimizer:pass-rename-input-output" not in ids
    assert len(ids) == len(onnxoptimizer.get_available_passes()) - len(oxo.NOT_COMPUTATION_PRESERVING)
    assert (
        not get_pass("onnxoptimizer:pass-nop").optimizes and get_pass("onnxoptimizer:pass-fuse-bn-into-conv").optimizes
    )
    with pytest.raises(PasscheckError, match="left out: renames the graph inputs"):
        get_pass("onnxoptimizer:pass-rename-input-output")
    with pytest.raises(PasscheckError, match="no such pass; known: .*fuse-bn-into-conv"):
        get_pass("onnxoptimizer:pass-no-such")


def test_one_pass_on_a_library_case_applies_only_itself_and_keeps_the_values():
    fused = _cell(CONV_BN, "onnxoptimizer:pass-fuse-bn-into-conv")
    assert fused.status == "changed" and "BatchNormalization" not in fused.ops_after, (fused.error, fused.ops_after)
    assert fused.verdict == "ok", fused.findings
    other = _cell(CONV_BN, "onnxoptimizer:pass-fuse-consecutive-transposes")
    assert other.ops_after.get("BatchNormalization") == 1 and other.verdict == "ok", (other.ops_after, other.findings)


def test_opt_in_runs_the_passes_the_default_leaves_out():
    import onnxoptimizer

    names = oxo.opt_in()
    assert "replace_einsum_with_matmul" in names and not set(names) & set(
        onnxoptimizer.get_fuse_and_elimination_passes()
    )
    assert _cell(CONV_BN, oxo.OPT_IN).verdict == "ok"


class _DropsBN(oxo.OnnxoptimizerPassAdapter):
    """A broken pass: removes the BatchNormalization without folding it into the Conv."""

    def __init__(self):
        super().__init__("onnxoptimizer:pass-fuse-bn-into-conv")
        self.id = "onnxoptimizer:broken-drops-bn"

    def apply(self, model, workdir):
        out = onnx.ModelProto()
        out.CopyFrom(model)
        (bn,) = [n for n in out.graph.node if n.op_type == "BatchNormalization"]
        for n in out.graph.node:
            n.input[:] = [bn.input[0] if i == bn.output[0] else i for i in n.input]
        out.graph.node.remove(bn)
        return out


def test_a_pass_that_drops_the_batchnorm_is_a_wrong_result():
    cell = cell_of(_DropsBN(), CONV_BN, "onnxoptimizer/broken")
    assert "wrong-result" in {f.kind for f in cell.findings}, cell.findings


def test_a_reproducer_calls_the_pass_list_its_adapter_does(tmp_path):
    from passcheck.repro.tools import package, tool_call

    for pid in ("onnxoptimizer:pass-fuse-bn-into-conv", oxo.OPT_IN):
        call = tool_call(pid)
        assert call is not None and call.needs == ("onnxoptimizer",) and package(pid) == "onnxoptimizer", call
        ours = script_apply(call)(onnx.ModelProto.FromString(CONV_BN.SerializeToString()))
        theirs = get_pass(pid).apply(onnx.ModelProto.FromString(CONV_BN.SerializeToString()), tmp_path)
        assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
