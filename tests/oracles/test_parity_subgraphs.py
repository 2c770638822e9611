"""Parity counts the ops a pass leaves inside If/Loop/Scan bodies too: onnxruntime optimizes bodies, so a
Conv + BatchNormalization computed inside both branches of an If whose condition no pass folds
(``chain-in-if-opaque``) is fused there, and that form is not blamed for a missed fusion. Counting the
main graph only would see the two BatchNormalization nodes vanish nowhere and call it a miss. Real
onnxruntime (``ort:basic``)."""

from __future__ import annotations

import onnx
from onnx import helper

from passcheck.api import check_model
from passcheck.mutations import build_form
from passcheck.oracles import op_counts
from tests.oracles.test_parity_defaults import _conv_bn


def _opaque_if() -> onnx.ModelProto:
    built = build_form(_conv_bn(False), "chain-in-if-opaque")
    assert built is not None
    return built[0]


def test_op_counts_walk_every_body():
    m = _opaque_if()
    counts = op_counts(m)
    assert counts["If"] == 1 and counts["Conv"] == 2 and counts["BatchNormalization"] == 2, counts
    assert sum(1 for n in m.graph.node if n.op_type == "Conv") == 0  # the chain is in the bodies only


def _conv_relu() -> onnx.ModelProto:
    m = _conv_bn(False)
    bn = m.graph.node[1]
    m.graph.node[1].CopyFrom(helper.make_node("Relu", [bn.input[0]], [bn.output[0]], name="relu"))
    del m.graph.initializer[1:]
    return m


def test_a_fusion_made_inside_both_branches_is_no_missed_optimization():
    """ort:extended fuses Conv + Relu into com.microsoft::FusedConv in the main graph and in each branch."""
    built = build_form(_conv_relu(), "chain-in-if-opaque")
    assert built is not None
    report = check_model(_conv_relu(), ["ort:extended"], forms={"in-if": built[0]}, name="parity/subgraphs")
    ran = {c.form: c.status for c in report.cells if c.pass_id == "ort:extended"}
    assert ran == {"common": "changed", "in-if": "changed"}, ran
    found = [f for c in report.cells for f in c.findings if f.oracle == "parity"]
    assert found == [], [f.message for f in found]


def test_a_fusion_missed_inside_a_body_is_still_a_finding():
    """Control: a no-op ReduceSum between Conv and BatchNormalization inside the branches (onnxruntime
    leaves it, so it cannot fuse) is judged a missed fusion, in the body as in the main graph."""
    m = _opaque_if()
    for n in m.graph.node:
        if n.op_type != "If":
            continue
        for a in n.attribute:
            body = a.g
            bn = next(x for x in body.node if x.op_type == "BatchNormalization")
            conv = next(x for x in body.node if x.op_type == "Conv")
            detour = conv.output[0] + "_noop"
            i = list(body.node).index(bn)
            bn.input[0] = detour
            body.node.insert(
                i, helper.make_node("ReduceSum", [conv.output[0]], [detour], noop_with_empty_axes=1, name=detour)
            )
    report = check_model(_conv_bn(False), ["ort:basic"], forms={"in-if": m}, name="parity/subgraphs")
    found = [(f.form, f.kind) for c in report.cells for f in c.findings if f.oracle == "parity"]
    assert ("in-if", "missed-optimization") in found, found


def test_ops_a_pass_inlined_from_a_local_function_are_not_new_ops():
    """onnxscript's optimizer inlines model-local functions: the Conv + Relu of a ``region-as-local-function``
    call come back as the ops they were, which the form computed before too (no parity finding)."""
    built = build_form(_conv_relu(), "region-as-local-function")
    assert built is not None and built[0].functions
    counts = op_counts(built[0])
    assert counts["Conv"] == 1 and counts["Relu"] == 1 and len(built[0].graph.node) == 1, counts
    report = check_model(_conv_relu(), ["onnxscript:optimize"], forms={"region": built[0]}, name="parity/functions")
    assert {c.form for c in report.cells if c.status in ("changed", "unchanged")} == {"common", "region"}, [
        (c.form, c.status) for c in report.cells
    ]
    found = [f for c in report.cells for f in c.findings if f.oracle == "parity"]
    assert found == [], [f.message for f in found]
