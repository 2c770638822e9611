"""Which ops are onnxruntime's own: a behaviour a survivor of ``bench/mutation_score.py`` showed unguarded,
against the schemas the installed onnxruntime registers."""

from __future__ import annotations

from onnx import parser

from passcheck.oracles.ort_own_ops import ort_own


def test_an_op_onnxruntime_registers_only_in_its_own_domain_is_not_its_own_in_ai_onnx():
    """Mutant killed: ``s.domain or ""`` → ``and`` in ``_ort_schemas``: every schema onnxruntime lists was keyed
    under the ai.onnx domain, so FusedMatMul (com.microsoft only) written in ai.onnx, which no runtime
    defines, was excused as onnxruntime's own op; SimplifiedLayerNormalization (registered in ai.onnx) is."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] a, float[3, 2] b, float[3] w) => (float[2, 2] y, float[2, 3] n) {
  y = FusedMatMul (a, b)
  n = SimplifiedLayerNormalization (a, w)
}""")
    assert [node.op_type for node in ort_own(model)] == ["SimplifiedLayerNormalization"]


def test_without_an_ai_onnx_opset_import_no_ai_onnx_node_is_onnxruntimes_own():
    """Mutant killed: the opset of a model that imports no ai.onnx opset taken as 1, not 0, in ``_opset``:
    onnxruntime registers SimplifiedLayerNormalization in ai.onnx since version 1, so a node of it in a model
    that imports no ai.onnx version at all (IR.md §Operator sets: a node's domain must be imported) was
    excused as onnxruntime's own."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["com.microsoft" : 1]>
g (float[2, 3] a, float[3] w) => (float[2, 3] n) { n = SimplifiedLayerNormalization (a, w) }""")
    assert ort_own(model) == []
