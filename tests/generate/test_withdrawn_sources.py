"""Withdrawn schemas as version-converter sources (:mod:`passcheck.generate.deprecated`,
:func:`passcheck.generate.build.adapter_bases`), with real onnx schemas, the real converter and onnxruntime runs.

GroupNormalization-18 is deprecated by onnx 1.18 in favour of GroupNormalization-21 (per-group ``scale`` / ``bias``
became per-channel); onnx 1.16 / 1.17 accept it and onnxruntime runs it, so models hold it, and the converter's
20 -> 21 step is the pass defined on them. The generator left every deprecated schema out, so no base held it.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import pytest

from passcheck.case_model import DECLARED_ONLY
from passcheck.engine import Subject, evaluate
from passcheck.generate import deprecated
from passcheck.oracles import withdrawn
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import generated_cases

CID = "generated/groupnormalization-18.adapter.opset-20"


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "withdrawn-sources-cache", ["GroupNormalization"])


def test_withdrawn_tells_a_superseded_version_from_a_removal_marker():
    gn18 = onnx.defs.get_schema("GroupNormalization", 20, "")
    assert gn18.since_version == 18 and gn18.deprecated and withdrawn.withdrawn(gn18)
    assert not withdrawn.withdrawn(onnx.defs.get_schema("GroupNormalization", 21, ""))  # current
    deprecated_last = [
        s for s in onnx.defs.get_all_schemas_with_history() if s.deprecated and s.name in ("Upsample", "Scatter")
    ]
    assert deprecated_last and not any(withdrawn.withdrawn(s) for s in deprecated_last)  # removal markers
    with pytest.raises(ValueError, match="not a withdrawn schema"):
        deprecated.forgiving(lambda m: None, deprecated_last[0])


def test_the_checker_refusal_forgiven_is_the_deprecation_only(cases):
    from passcheck.generate.gate import checker_error

    gn18 = onnx.defs.get_schema("GroupNormalization", 20, "")
    model = cases[CID].build("common")
    err = checker_error(model)
    assert err and withdrawn.refusal(gn18) in err  # this onnx refuses it for the deprecation
    assert deprecated.forgiving(checker_error, gn18)(model) is None
    broken = onnx.ModelProto()
    broken.CopyFrom(model)
    broken.graph.output[0].type.tensor_type.ClearField("shape")  # a refusal of another kind is kept
    assert deprecated.forgiving(checker_error, gn18)(broken)


def test_the_withdrawn_source_is_a_converter_base(cases):
    case = cases[CID]
    assert {"adapter-source", "withdrawn", DECLARED_ONLY} <= case.tags and case.opset == 20
    assert set(case.passes) == {
        "onnx:convert-opset-up",
        "onnx:convert-opset-down",
        "onnxscript:convert-opset-up",
        "onnxscript:convert-opset-up-ir",
    }
    common = case.build("common")
    node = common.graph.node[0]
    groups = next(a.i for a in node.attribute if a.name == "num_groups")
    channels = common.graph.input[0].type.tensor_type.shape.dim[1].dim_value
    assert 1 < groups < channels  # per group and per channel differ: a relabelled node cannot run
    import onnxruntime as ort

    x = np.random.default_rng(0).standard_normal((2, channels, 3)).astype(np.float32)
    feeds = {"X": x, "scale": np.ones(groups, np.float32), "bias": np.zeros(groups, np.float32)}
    sess = ort.InferenceSession(common.SerializeToString(), providers=["CPUExecutionProvider"])
    assert sess.run(None, feeds)[0].shape == x.shape


def _per_channel(model: onnx.ModelProto) -> onnx.ModelProto:
    """The converter to opset 21, then each GroupNormalization's ``scale`` / ``bias`` repeated per channel of
    its group (Operators.md GroupNormalization-21: shape ``(C)``), as the 20 -> 21 step must."""
    import onnx.helper as h

    out = onnx.version_converter.convert_version(model, 21)
    g = out.graph
    for node in [n for n in g.node if n.op_type == "GroupNormalization"]:
        groups = next(a.i for a in node.attribute if a.name == "num_groups")
        channels = g.input[0].type.tensor_type.shape.dim[1].dim_value
        reps = h.make_tensor(f"{node.name}_reps", onnx.TensorProto.INT64, [2], [1, channels // groups])
        g.initializer.append(reps)
        at = list(g.node).index(node)
        for k in (1, 2):
            src = node.input[k]
            new = [
                h.make_node("Unsqueeze", [src, f"{src}_axes"], [f"{src}_u"]),
                h.make_node("Tile", [f"{src}_u", reps.name], [f"{src}_t"]),
                h.make_node("Reshape", [f"{src}_t", f"{src}_flat"], [f"{src}_c"]),
            ]
            g.initializer.extend(
                [
                    h.make_tensor(f"{src}_axes", onnx.TensorProto.INT64, [1], [1]),
                    h.make_tensor(f"{src}_flat", onnx.TensorProto.INT64, [1], [-1]),
                ]
            )
            for j, n in enumerate(new):
                g.node.insert(at + j, n)
            at += len(new)
            node.input[k] = f"{src}_c"
    return out


def _findings(case, fn) -> set[tuple[str, str, str]]:
    pid = "planted:withdrawn-convert"
    register_pass(FunctionAdapter(pid, fn))
    try:
        cells = [c for c in evaluate(Subject.from_case(case, onnx.__version__), [pid]) if c.pass_id != "input"]
        return {(f.form, f.oracle, f.kind) for cell in cells for f in cell.findings}
    finally:
        unregister_pass(pid)


def test_the_real_converter_is_judged_on_the_base_and_a_per_channel_step_is_not_flagged(cases):
    case = cases[CID]
    wrong = _findings(case, lambda m: onnx.version_converter.convert_version(m, 21))
    assert ("common", "numeric", "wrong-result") in wrong  # docs/found.md row 780: relabelled, fails to run
    right = _findings(case, _per_channel)  # sized from the static form's channel dim: common only
    assert not {f for f in right if f[0] == "common"}, right


def test_the_input_refusal_is_an_expected_disagreement_for_a_withdrawn_schema_only(cases):
    gn = "Op registered for GroupNormalization is deprecated in domain_version of 20"
    assert "GroupNormalization-18 is withdrawn" in withdrawn.expected_refusal(f"{gn} ==> Context: Bad node spec")
    assert not withdrawn.expected_refusal("Op registered for Upsample is deprecated in domain_version of 10")
    assert not withdrawn.expected_refusal("Op registered for NoSuchOp is deprecated in domain_version of 20")
    assert not withdrawn.expected_refusal("Field 'shape' of 'type' is required but missing.")
    cells = evaluate(Subject.from_case(cases[CID], onnx.__version__), ["onnx:convert-opset-up"])
    inputs = [f for c in cells if c.pass_id == "input" for f in c.findings]
    assert inputs and all(f.kind == "validity-disagreement" and f.expected and "withdrawn" in f.reason for f in inputs)
    assert all(c.verdict != "findings" for c in cells if c.pass_id == "input")


def _renamed(model: onnx.ModelProto) -> onnx.ModelProto:
    """The model as it came, its nodes named (the checker's refusal then names the node)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for k, n in enumerate(out.graph.node):
        n.name = f"renamed_{k}"
    return out


def test_a_pass_that_keeps_the_withdrawn_node_is_not_blamed_for_the_refusal(cases):
    from passcheck.generate.gate import checker_error

    model = cases[CID].build("common")
    assert checker_error(model) != checker_error(_renamed(model))  # the message names the node
    found = _findings(cases[CID], _renamed)
    assert not {f for f in found if f[1] == "validity"}, found


def test_the_equivalence_gate_judges_a_rewrite_of_a_withdrawn_base_by_its_runs(cases):
    from passcheck.errors import PasscheckInternalError
    from passcheck.mutations.equivalence import verify_equivalent
    from passcheck.runtime import synthesize

    base = cases[CID].build("common")
    feeds = [synthesize(base, {}, seed) for seed in (0, 1)]
    described = _renamed(base)
    described.graph.doc_string = "the same computation"
    verify_equivalent(base, described, feeds, "planted:described")  # refused for the deprecation alike: runs judge
    changed = _renamed(base)
    changed.graph.initializer.add().CopyFrom(onnx.numpy_helper.from_array(np.float32([2.0]), "two"))
    changed.graph.node.add().CopyFrom(onnx.helper.make_node("Mul", ["Y", "two"], ["Y2"]))
    changed.graph.node[0].output[0] = "Y_inner"
    changed.graph.node[1].input[0] = "Y_inner"
    changed.graph.node[1].output[0] = "Y"
    with pytest.raises(PasscheckInternalError, match="not equivalent"):
        verify_equivalent(base, changed, feeds, "planted:doubled")  # and a different computation is still refused
