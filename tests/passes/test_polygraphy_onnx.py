"""``polygraphy:*`` (:mod:`passcheck.passes.polygraphy_onnx`): Polygraphy's loaders run for real on a tiny model pass
every oracle; a planted break of each kind (a wrong folded constant, a wrong inferred type on a marked output, a
float16 output left without its Cast back, a wrong inferred shape) is caught; the reproducer calls the loaders as the
adapter does; a missing package is ``unavailable``."""

from __future__ import annotations

import dataclasses

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import passcheck
from passcheck.passes import get_pass
from passcheck.passes.polygraphy_onnx import ADAPTERS, PolygraphyAdapter, Variant
from passcheck.repro.tools import package, tool_call
from tests.passes._helpers import cell_of, script_apply

pytest.importorskip("polygraphy")
pytest.importorskip("onnx_graphsurgeon")


def _model() -> onnx.ModelProto:
    """y = Relu(x * (c + c)) * 0.1: x [N, 3] float; c [3] an initializer, so ``c + c`` is a constant subgraph."""
    graph = helper.make_graph(
        [
            helper.make_node("Add", ["c", "c"], ["cc"]),
            helper.make_node("Mul", ["x", "cc"], ["t"]),
            helper.make_node("Relu", ["t"], ["r"]),
            helper.make_node("Mul", ["r", "s"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [
            numpy_helper.from_array(np.array([0.3, -1.7, 2.9], np.float32), "c"),
            numpy_helper.from_array(np.array(0.1, np.float32), "s"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


MODEL = _model()
IDS = [a.id for a in ADAPTERS]


@pytest.fixture(scope="module")
def real_cells():
    report = passcheck.check_model(MODEL, IDS, name="poly42")
    return {c.pass_id: c for c in report.cells}


@pytest.mark.parametrize("pass_id", IDS)
def test_each_loader_runs_and_passes_every_oracle(real_cells, pass_id):
    cell = real_cells[pass_id]
    assert cell.status in ("changed", "unchanged") and cell.findings == [], (cell.status, cell.error, cell.findings)


def test_what_each_loader_did(tmp_path):
    """Folding removes the constant Add; marking all outputs declares every intermediate, typed by the inference;
    fp16 casts; the capabilities say so (``folds_constants`` only where FoldConstants runs)."""
    for d in "fmh":
        (tmp_path / d).mkdir()
    fold = get_pass("polygraphy:sanitize-fold").run(MODEL, tmp_path / "f").model
    assert "Add" not in {n.op_type for n in fold.graph.node}
    marked = get_pass("polygraphy:mark-all-outputs").run(MODEL, tmp_path / "m").model
    assert [o.name for o in marked.graph.output] == ["cc", "t", "r", "y"]
    assert all(o.type.tensor_type.elem_type == TensorProto.FLOAT for o in marked.graph.output)
    half = get_pass("polygraphy:fp16").run(MODEL, tmp_path / "h").model
    assert "Cast" in {n.op_type for n in half.graph.node}
    caps = {a.id: a.capabilities for a in ADAPTERS}
    assert {i for i, c in caps.items() if c.folds_constants} == {
        "polygraphy:sanitize-fold",
        "polygraphy:sanitize-fold-no-shapes",
        "polygraphy:sanitize-fold-recursive",
    }
    assert caps["polygraphy:fp16"].precision == "float16" and caps["polygraphy:sanitize"].precision is None


class _Planted(PolygraphyAdapter):
    """A Polygraphy variant with a planted break applied to its real output."""

    def __init__(self, name: str, break_):
        base = next(v for v in ADAPTERS if v.id == f"polygraphy:{name}").variant
        super().__init__(dataclasses.replace(base, name=f"{name}-broken"))
        self.break_ = break_

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        self.break_(out)
        return out


def _wrong_fold(out):
    """The folded ``cc`` constant off by one in its last element (a fold computing the wrong value)."""
    (t,) = [t for t in out.graph.initializer if t.name == "cc"] or [
        a.t for n in out.graph.node if n.op_type == "Constant" and n.output[0] == "cc" for a in n.attribute
    ]
    a = numpy_helper.to_array(t).copy()
    a[-1] += 1.0
    t.CopyFrom(numpy_helper.from_array(a, t.name))


def _wrong_marked_type(out):
    """The marked intermediate ``t`` declared [N, 4] (the inference's type wrong in one dim)."""
    o = next(o for o in out.graph.output if o.name == "t")
    o.type.tensor_type.shape.dim[1].dim_value = 4


def _drop_output_cast(out):
    """The float16 conversion's Cast back to float before ``y`` removed (float16 under a float declaration)."""
    cast = next(n for n in out.graph.node if n.op_type == "Cast" and n.output[0] == "y")
    for n in out.graph.node:
        n.output[:] = ["y" if o == cast.input[0] else o for o in n.output]
    out.graph.node.remove(cast)


def _wrong_inferred_shape(out):
    """A value_info entry for ``r`` of shape [N, 2] (a wrong inferred shape)."""
    del out.graph.value_info[:]
    out.graph.value_info.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 2]))


@pytest.mark.parametrize(
    ("name", "break_", "kinds"),
    [
        ("sanitize-fold", _wrong_fold, {"wrong-result"}),
        ("mark-all-outputs", _wrong_marked_type, {"annotation-violated"}),
        ("fp16", _drop_output_cast, {"invalid-model", "rejected", "annotation-violated", "wrong-result"}),
        ("infer-shapes", _wrong_inferred_shape, {"annotation-violated"}),
    ],
)
def test_a_planted_break_of_each_loader_is_caught(name, break_, kinds):
    found = {f.kind for f in cell_of(_Planted(name, break_), MODEL, f"poly42/{name}").findings}
    assert found & kinds, found


@pytest.mark.parametrize(
    "pass_id", ["polygraphy:sanitize-fold-recursive", "polygraphy:fp16", "polygraphy:mark-all-outputs"]
)
def test_the_reproducer_calls_the_loaders_as_the_adapter_does(pass_id, tmp_path):
    call = tool_call(pass_id)
    ours = script_apply(call)(onnx.ModelProto.FromString(MODEL.SerializeToString()))
    theirs = get_pass(pass_id).apply(onnx.ModelProto.FromString(MODEL.SerializeToString()), tmp_path)
    assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
    assert package(pass_id) == "polygraphy" and tool_call("polygraphy:no-such") is None


def test_a_missing_package_is_unavailable(tmp_path):
    adapter = PolygraphyAdapter(Variant("sanitize", "planted: a package that is not installed"))
    adapter.tools = ("polygraphy-not-installed-poly42",)
    out = adapter.run(MODEL, tmp_path)
    assert out.status == "unavailable" and "not installed" in out.error


def test_an_already_float16_model_is_the_converters_stated_limit(tmp_path):
    """onnxconverter-common refuses a model holding float16 ("already converted"): ``unavailable`` with its words, not
    ``crashed`` (planted break: removing :data:`STATED`'s phrase makes it ``crashed``)."""
    half = onnx.ModelProto()
    half.CopyFrom(MODEL)
    half.graph.node.insert(0, helper.make_node("Cast", ["x"], ["x16"], to=TensorProto.FLOAT16))
    half.graph.node.insert(1, helper.make_node("Cast", ["x16"], ["x32"], to=TensorProto.FLOAT))
    half.graph.node[2].input[0] = "x32"
    out = get_pass("polygraphy:fp16").run(half, tmp_path)
    assert out.status == "unavailable" and "already converted to float16" in out.error, (out.status, out.error)


def test_no_fold_shapes_is_not_judged_for_the_shape_chains_it_was_told_to_leave():
    """``--no-fold-shapes`` leaves Shape chains by its own option: neither the folding oracle nor parity calls them
    missed (``folds_shapes`` False); declared True, the same run is a ``missed-optimization`` (the planted break)."""
    adapter = next(a for a in ADAPTERS if a.id == "polygraphy:sanitize-fold-no-shapes")
    assert adapter.folds_shapes is False and adapter.folds_constants
    report = passcheck.run(["count/constant-of-shape-static"], [adapter.id])
    missed = [f for c in report.cells for f in c.findings if f.kind == "missed-optimization"]
    assert report.cells and not missed, missed

    class _ClaimsShapes(PolygraphyAdapter):
        folds_shapes = True

    planted = _ClaimsShapes(dataclasses.replace(adapter.variant, name="no-shapes-claiming-shapes"))
    from passcheck.passes import register_pass, unregister_pass

    register_pass(planted)
    try:
        report = passcheck.run(["count/constant-of-shape-static"], [planted.id])
    finally:
        unregister_pass(planted.id)
    assert [f for c in report.cells for f in c.findings if f.kind == "missed-optimization"]
