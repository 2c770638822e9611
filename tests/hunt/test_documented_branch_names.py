"""Round 23g: the findings the ``scope-names/if-constant-condition`` base met through onnx-graphsurgeon's importer
meet rows 1435 / 1446 (not row 93), and a quantizer's dropped dim denotation meets row 711 through the onnx shape
inference the quantizer runs first (``OrtQuantizeAdapter.steps``).

The words are those ``passcheck run --case scope-names/if-constant-condition`` wrote with onnx-graphsurgeon 0.6.1,
Polygraphy 0.53.6, onnxslim 0.1.98 (round 23g), and those ``ort-quant:quantize-static`` wrote on opts44's hunt pair
``hunt_64b5d8e4`` with onnxruntime 1.32.0."""

from __future__ import annotations

import pytest

from passcheck.hunt import documented
from passcheck.signature import Signature

RECURSION = "onnxslim:slim crashed on this form only (accepted: common): RecursionError: maximum recursion depth"
DROPPED = (
    "{p} dropped what its input says of the graph's interface (dim-denotation): output 'Y': dim-denotation (dim 0) "
    "'DATA_FEATURE' -> ''"
)


def _row(pass_id: str, oracle: str, kind: str, message: str, error: str = "") -> str | None:
    sig = Signature(pass_id, oracle, kind, (), "", error)
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    return entry and entry["row"]


@pytest.mark.parametrize(
    ("error", "row"),
    [
        ("RecursionError: maximum recursion depth exceeded in comparison @ onnxslim:Tensor.is_empty", "1446"),
        ("RecursionError: maximum recursion depth @ onnxslim:Graph.toposort.<locals>.get_hierarchy_level", "1446"),
        ("RecursionError: maximum recursion depth exceeded @ onnxslim:Node.subgraphs", "93"),  # get_used_funcs' loop
        ("", "93"),  # no frame recorded: the row the rule named before
    ],
)
def test_an_onnxslim_recursion_meets_the_row_of_its_loop(error, row):
    assert _row("onnxslim:slim", "acceptance", "rejected", RECURSION, error) == row


@pytest.mark.parametrize(
    ("pass_id", "oracle", "kind", "message"),
    [
        (
            "onnx-gs:toposort",
            "acceptance",
            "rejected",
            "onnx-gs:toposort declined on this form only (accepted: common): onnx_graphsurgeon: Cycle detected in "
            "graph! Are there tensors with duplicate names in the graph?",
        ),
        (
            "polygraphy:sanitize-fold",
            "validity",
            "invalid-model",
            "the checker rejects the output of polygraphy:sanitize-fold: ValidationError: Nodes in a graph must be "
            "topologically sorted, however input 't' of node: name: OpType: Add is not output of any previous nodes.",
        ),
        (
            "polygraphy:sanitize-fold",
            "numeric",
            "wrong-result",
            "the output of polygraphy:sanitize-fold fails to run (binding 0): Fail: [ONNXRuntimeError] : 1 : FAIL : "
            "This is an invalid model. Error: the graph is not acyclic.",
        ),
    ],
)
def test_a_graphsurgeon_import_finding_meets_row_1435(pass_id, oracle, kind, message):
    assert _row(pass_id, oracle, kind, message) == "1435"


@pytest.mark.parametrize(
    "pass_id",
    ["ort-quant:quantize-static", "ort-quant:quantize-dynamic", "ort-quant:quantize-static+ActivationSymmetric"],
)
def test_a_quantizers_dropped_dim_denotation_meets_row_711_through_its_first_step(pass_id):
    assert "onnx:infer-shapes" in documented.pass_steps(pass_id)
    assert _row(pass_id, "pass-contract", "description-dropped", DROPPED.format(p=pass_id)) == "711"


@pytest.mark.parametrize(
    ("value", "row"),
    [
        ("[[[-6. -5. -4. -3. -3.]]]", "1447"),  # 1-D: the reference evaluator's MaxPool raised
        ("[[[[[1. 2.]\n   [3. 4.]]]]]", "1447"),  # 3-D
        ("[[[[ 1.  2.]\n   [ 3.  4.]]]]", None),  # 2-D: the reference pads it; another cause
    ],
)
def test_an_unfolded_constant_maxpool_meets_row_1447_by_its_rank(value, row):
    message = f"MaxPool node 'node' reads only constants and always yields {value} (same for every binding) but "
    message += "onnxscript:optimize did not fold it"
    sig = Signature("onnxscript:optimize", "folding", "missed-optimization", ("Add", "MaxPool"), "", "")
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    assert (entry and entry["row"]) == row


@pytest.mark.parametrize(
    ("op", "row"),
    [("Compress", "360"), ("NonZero", "360"), ("StringSplit", "360"), ("Greater", None), ("Unique", None)],
)
def test_an_unfolded_value_sized_node_meets_the_output_size_guards_row(op, row):
    message = f"{op} node '#0' reads only constants and always yields [[1. 2.]] (same for every binding) but "
    message += "ort:basic did not fold it"
    sig = Signature("ort:basic", "folding", "missed-optimization", (op,), "", "")
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    assert (entry and entry["row"]) == row


def test_a_qlinearmul_refused_for_a_non_scalar_scale_meets_f19():
    # round 24e: the words `passcheck matrix --env onnx-1.21` wrote for recall44a's signature 10 (onnxruntime 1.25.1)
    message = (
        "ort:all declined: Fail: [ONNXRuntimeError] : 1 : FAIL : Node () Op (QLinearMul) [TypeInferenceError] Scale "
        "and Zero-point must be a scalar"
    )
    assert _row("ort:all", "acceptance", "rejected", message) == "F19"
    assert _row("ort:extended", "acceptance", "rejected", message) == "F19"
    assert _row("ort:all", "acceptance", "rejected", "ort:all declined: Fail: another refusal") is None
