"""The reducer's predicates refuse a cut the engine cannot judge (passcheck/reduce/predicates.py), where
mutation showed no test ran the line (bench/results/mutation.jsonl)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.passes import run_in_process
from passcheck.records import Finding
from passcheck.reduce.predicates import EngineCheck


def _relu(name: str) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", [name], ["y"])],
        "g",
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_cut_whose_forms_no_longer_share_an_interface_does_not_hold():
    # the engine refuses forms with different input names (a PasscheckError): not a candidate, no crash
    f = Finding(
        "less-precise", "shape", "c", "common", "onnx:infer-shapes", "y typed less precisely", {"other_form": "u"}
    )
    assert EngineCheck(f, run_in_process)(_relu("x"), _relu("x2")) is False


def _linear(fused: bool) -> onnx.ModelProto:
    """y = x @ w + b, as onnxruntime's basic level writes it (one Gemm) or as it fuses it (MatMul, Add)."""
    w = helper.make_tensor("w", TensorProto.FLOAT, [3, 4], [0.5] * 12)
    b = helper.make_tensor("b", TensorProto.FLOAT, [4], [1.0, 2.0, 3.0, 4.0])
    if fused:
        nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["y"])]
    else:
        nodes = [helper.make_node("MatMul", ["x", "w"], ["t"]), helper.make_node("Add", ["t", "b"], ["y"])]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        initializer=[w, b],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_an_ort_parity_pair_naming_no_kept_op_holds_when_the_level_writes_new_op_types_in_one_form_only():
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    matmul_add, gemm = _linear(False), _linear(True)
    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", [], ex)  # MatMulAddFusion writes a Gemm in the first form, nothing new in the other
        assert holds(matmul_add, gemm) and holds(gemm, matmul_add)
        assert not holds(matmul_add, matmul_add) and not holds(gemm, gemm)


def _ort_pair(tail: list[onnx.NodeProto], *, out: str = "y", out_shape=(2, 3), inits=()) -> onnx.ModelProto:
    """x (float [2, 3]) → ``tail`` → ``out``: one form of an :class:`OrtParity` pair."""
    g = helper.make_graph(
        tail,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, list(out_shape))],
        initializer=list(inits),
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _abs(out: str = "y", *, identity: bool, after: tuple[str, float] | None = None, **kw) -> onnx.ModelProto:
    """|x| (through an Identity onnxruntime's basic level removes when ``identity``), then ``after``:
    an (op, scalar) the result is combined with (``Add`` 0.5, ``Mul`` 1.5, …)."""
    nodes = [helper.make_node("Identity", ["x"], ["i"])] if identity else []
    nodes.append(helper.make_node("Abs", ["i" if identity else "x"], ["t" if after else out]))
    inits = []
    if after:
        nodes.append(helper.make_node(after[0], ["t", "c"], [out]))
        inits.append(helper.make_tensor("c", TensorProto.FLOAT, [], [after[1]]))
    return _ort_pair(nodes, out=out, inits=inits, **kw)


def test_an_ort_parity_pair_holds_only_when_its_first_form_loses_more_of_the_kept_op():
    """Mutant killed: ``>`` → ``!=`` in ``OrtParity``: the kept op removed from the finding's form more
    than from the other (the reverse of a missed optimization) counted as the finding."""
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", ["Identity"], ex)
        assert holds(_abs(identity=True), _abs(identity=False))  # onnxruntime removes the first form's Identity
        assert not holds(_abs(identity=False), _abs(identity=True))  # the finding's own form lost it


def test_an_ort_parity_pair_with_an_invalid_form_does_not_hold():
    """Mutants killed: each ``or`` → ``and`` of ``OrtParity``'s first test, which let a cut with one form
    the full onnx checker rejects (a graph output declared [5] that shape inference computes as [2, 3]:
    onnxruntime still runs it) or with one form missing go on to the comparison."""
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    a, b = _abs(identity=True), _abs(identity=False)
    bad_a, bad_b = _abs(identity=True, out_shape=(5,)), _abs(identity=False, out_shape=(5,))
    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", ["Identity"], ex)
        assert holds(a, b)
        assert holds.checker(bad_a) and holds.checker(bad_b)  # the full checker's verdict: the declared shape is wrong
        assert ex.run_model(bad_a, {"x": np.ones((2, 3), np.float32)}).error is None  # onnxruntime runs it
        assert not holds(bad_a, b) and not holds(a, bad_b)
        assert not holds(None, b) and not holds(a, None)


def test_an_ort_parity_pair_holds_only_when_its_forms_compute_equal_outputs():
    """Mutants killed in ``OrtParity._equal``: ``rtol=1e-3`` → 1.001 (|x| vs 1.5 |x| passed), ``atol=1e-4``
    → 1.0001 (|x| vs |x| + 0.5 passed), ``equal_nan=True`` → False (forms that both compute NaN did not
    hold), ``!=`` → ``>`` / ``<`` and ``or`` → ``and`` on the output names (forms whose graph outputs are
    named differently reached the comparison and raised KeyError instead of not holding)."""
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", ["Identity"], ex)
        assert holds(_abs(identity=True), _abs(identity=False))
        assert not holds(_abs(identity=True), _abs(identity=False, after=("Mul", 1.5)))
        assert not holds(_abs(identity=True), _abs(identity=False, after=("Add", 0.5)))
        nan = float("nan")
        assert holds(_abs(identity=True, after=("Add", nan)), _abs(identity=False, after=("Add", nan)))
        assert not holds(_abs("y", identity=True), _abs("z", identity=False))
        assert not holds(_abs("z", identity=True), _abs("y", identity=False))


def _reshapes(*targets: tuple[int, ...] | list[tuple[int, ...]]) -> onnx.ModelProto:
    """x (float [3, 4]) → one Relu(Reshape(x, target)) per graph output (``y``, ``z``, …; declared of
    unknown dims): a target given as a tuple is an initializer (shape inference knows the dims), as a
    list of tuples a Concat of them (it knows only the rank)."""
    nodes, inits, outs = [], [], []
    for i, target in enumerate(targets):
        out, shape = "yz"[i], f"shape{i}"
        parts = target if isinstance(target, list) else [target]
        names = [f"{shape}_{j}" for j in range(len(parts))] if isinstance(target, list) else [shape]
        inits += [helper.make_tensor(n, TensorProto.INT64, [len(p)], list(p)) for n, p in zip(names, parts)]
        if isinstance(target, list):
            nodes.append(helper.make_node("Concat", names, [shape], axis=0))
        nodes += [helper.make_node("Reshape", ["x", shape], [f"r{i}"]), helper.make_node("Relu", [f"r{i}"], [out])]
        outs.append(helper.make_tensor_value_info(out, TensorProto.FLOAT, [None, None]))
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])], outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _infer_shapes_command(tmp_path) -> str:
    """A ``cmd:`` pass running onnx shape inference: a pass id that sorts before ``input``."""
    import sys

    script = tmp_path / "infer.py"
    script.write_text(
        "import sys, onnx\nonnx.save(onnx.shape_inference.infer_shapes(onnx.load(sys.argv[1])), sys.argv[2])\n"
    )
    return f"cmd:{sys.executable} {script} {{in}} {{out}}"


@pytest.fixture(params=["onnx:infer-shapes", "cmd"])
def infer_pass(request, tmp_path) -> str:
    return request.param if request.param != "cmd" else _infer_shapes_command(tmp_path)


def _less_precise(pass_id: str, precise: onnx.ModelProto, computed: onnx.ModelProto) -> Finding:
    """The parity finding ``pass_id`` gives the pair: ``common`` (computed) typed less precisely than ``u``."""
    from passcheck.engine import Subject, evaluate
    from passcheck.runtime import default_bindings

    subject = Subject(id="reshape", forms={"common": computed, "u": precise}, bindings=default_bindings(computed))
    cells = evaluate(subject, [pass_id], executor=run_in_process)
    (f,) = [x for c in cells if c.pass_id == pass_id for x in c.findings]
    assert (f.form, f.oracle, f.kind, f.details["other_form"]) == ("common", "parity", "less-precise", "u")
    return f


def test_an_engine_check_refuses_a_cut_whose_forms_show_an_input_finding_the_unreduced_pair_did_not(infer_pass):
    """Mutants killed in ``EngineCheck``: the input findings taken from the other cells (``== INPUT`` →
    ``!=``), the expected ones instead of the unexpected (``not x.expected`` → ``x.expected``), and the
    refusal itself (``return False`` → ``True``): a cut whose forms no longer compute the same values
    (the shape [6, 2] instead of [2, 6]) still shows the pass's finding, and was kept."""
    precise, computed, swapped = _reshapes((2, 6)), _reshapes([(2,), (6,)]), _reshapes([(6,), (2,)])
    holds = EngineCheck(_less_precise(infer_pass, precise, computed), run_in_process)
    assert holds(precise, computed)  # the unreduced pair: no input finding
    assert _less_precise(infer_pass, precise, swapped)  # the pass still shows the finding on the cut, but
    assert not holds(precise, swapped)  # its forms now differ: the reduction would slide to another bug


def test_an_engine_check_keeps_a_cut_that_clears_an_input_finding_or_adds_a_pass_finding(infer_pass):
    """Mutants killed in ``EngineCheck``: ``inputs <= self.allowed`` → ``==`` (a cut whose forms agree,
    of an unreduced pair whose forms did not, was refused), and ``c.pass_id == INPUT`` → ``>=`` / ``<=``
    (the pass's own findings counted as input findings, for pass ids sorting after ``input`` or before
    it, ``cmd:``: a cut where the pass also types another output less precisely in the other form was
    refused; the predicate asks for the finding, not for the pass to show nothing else)."""
    precise, computed, swapped = _reshapes((2, 6)), _reshapes([(2,), (6,)]), _reshapes([(6,), (2,)])
    f = _less_precise(infer_pass, precise, computed)
    holds = EngineCheck(f, run_in_process)
    assert holds(precise, swapped)  # the unreduced pair: its forms already differ (allowed)
    assert holds(precise, computed)  # a cut where they agree again
    holds = EngineCheck(f, run_in_process)
    assert holds(_reshapes((2, 6), (4, 3)), _reshapes([(2,), (6,)], (4, 3)))  # the unreduced pair
    # the cut: z typed less precisely in ``u`` (a second parity finding, on the other form)
    assert holds(_reshapes((2, 6), [(4,), (3,)]), _reshapes([(2,), (6,)], (4, 3)))


def test_only_an_onnxruntime_level_missed_optimization_gets_the_ort_parity_predicate():
    """Mutants killed in ``predicate_for``: ``startswith("ort:")`` negated, ``oracle == "parity"`` or
    ``kind == "missed-optimization"`` → ``!=``: the documented choice (OrtParity for a missed
    optimization at an onnxruntime level, EngineCheck for any other finding) swapped."""
    from passcheck.reduce.predicates import OrtParity, predicate_for

    def finding(pass_id, oracle="parity", kind="missed-optimization"):
        return Finding(kind, oracle, "c", "u", pass_id, "m", {"other_form": "common", "kept_op_types": ["Identity"]})

    chosen = predicate_for(finding("ort:extended"), run_in_process)
    assert isinstance(chosen, OrtParity) and (chosen.level, chosen.kept) == ("extended", ["Identity"])
    for other in (
        finding("ort:extended", oracle="numeric", kind="wrong-result"),
        finding("ort:extended", kind="less-precise"),
        finding("ort:extended", oracle="numeric"),
        finding("onnxscript:optimize"),
        finding("ort:symbolic-shape-infer"),
    ):
        assert isinstance(predicate_for(other, run_in_process), EngineCheck), other.pass_id
