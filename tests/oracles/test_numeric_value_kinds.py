"""``passcheck.oracles.numeric.compare`` on the values onnxruntime really returns: a sequence (list of
arrays), a map (ZipMap's list of dicts), tensors of two dtypes; and :func:`leaf_dtype` on an element
type numpy has no dtype for. Each case pins a mismatch a surviving mutant let through."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles.numeric import _same_kind, compare, leaf_dtype, unchecked
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort


def _outputs(text: str, feeds: dict) -> list:
    result = run_ort(parser.parse_model(text), feeds)
    assert not result.error, result.error
    return list(result.outputs.values())


X = np.arange(6, dtype=np.float32).reshape(2, 3)


def _sequence() -> list:
    (seq,) = _outputs(
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[2,3] x) => (seq(float[2,3]) s) { s = SequenceConstruct (x, x) }""",
        {"x": X},
    )
    assert isinstance(seq, list) and len(seq) == 2
    return seq


def _maps(labels: list[int]) -> list[dict]:
    scores = np.arange(len(labels), dtype=np.float32).reshape(1, -1)
    (maps,) = _outputs(
        f"""<ir_version: 8, opset_import: ["" : 18, "ai.onnx.ml" : 3]>
g (float[1,{len(labels)}] x) => (seq(map(int64, float)) m) {{
  m = ai.onnx.ml.ZipMap <classlabels_int64s = {labels}> (x)
}}""",
        {"x": scores},
    )
    assert isinstance(maps[0], dict) and len(maps[0]) == len(labels)
    return maps


def test_a_sequence_against_a_tensor_or_of_another_length_differs():
    seq = _sequence()
    assert compare(seq, [a.copy() for a in seq]).ok
    for actual, expected in ((seq, seq[0]), (seq[0], seq), (seq, seq[:1]), (seq + [seq[0]], seq)):
        c = compare(actual, expected)
        assert not c.ok and c.message.startswith("sequence length/kind differs"), c


def test_a_map_against_a_tensor_differs_and_differing_keys_are_shown_five_a_side_actual_first():
    (m,) = _maps([1, 2, 3, 4, 5, 6, 7])
    assert compare(m, dict(m)).ok
    for actual, expected in ((m, X), (X, m)):  # the message describes the side that is not a map
        c = compare(actual, expected)
        assert not c.ok and c.message == "map vs float32[2, 3]", c
    (other,) = _maps([11, 12, 13, 14, 15, 16, 17])
    c = compare(m, other)
    assert not c.ok
    assert c.message == "map keys differ: ['1', '2', '3', '4', '5'] vs expected ['11', '12', '13', '14', '15']"


def test_the_same_values_in_another_dtype_differ():
    (f32, f64) = _outputs(
        """<ir_version: 8, opset_import: ["" : 18]>
g (float[2,3] x) => (float[2,3] a, double[2,3] b) { a = Identity (x)  b = Cast <to = 11> (x) }""",
        {"x": X},
    )
    c = compare(f32, f64)
    assert not c.ok and c.message == "dtype float32 vs expected float64", c


def test_an_undefined_element_type_has_no_dtype():
    t = onnx.TypeProto()
    t.tensor_type.elem_type = onnx.TensorProto.UNDEFINED
    assert leaf_dtype(t) is None
    assert leaf_dtype(onnx.helper.make_tensor_type_proto(onnx.TensorProto.FLOAT, [2])) == np.float32


def test_two_random_draws_of_another_dtype_either_way_are_told_apart():
    text = """<ir_version: 8, opset_import: ["" : 18]>
g () => (float[2,3] a, double[2,3] b) {
  a = RandomUniform <dtype = 1, shape = [2, 3], seed = 1.0> ()
  b = RandomUniform <dtype = 11, shape = [2, 3], seed = 1.0> ()
}"""
    f32, f64 = _outputs(text, {})
    assert _same_kind(f32, f32.copy()) is None
    assert _same_kind(f32, f64) == "a random draw changed dtype or shape: float32[2, 3] vs float64[2, 3]"
    assert _same_kind(f64, f32) == "a random draw changed dtype or shape: float64[2, 3] vs float32[2, 3]"


def test_outputs_not_compared_name_whose_failing_baseline_it_was():
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x, int64[2] shape) => (float[?, ?] y) { y = Reshape (x, shape) }""")
    feeds = {"x": np.ones(6, np.float32), "shape": np.array([4, 4], np.int64)}  # 16 elements from 6
    baseline = run_ort(model, feeds)
    assert baseline.error
    run = FormRun(
        "c", "rare", "ort:basic", model, PassOutcome("ort:basic", "unchanged", model), [feeds], [baseline], []
    )
    (own,) = unchecked(run).values()
    assert own.startswith("not compared: the unoptimized run of form 'rare' fails (binding 0): ")
    (other,) = unchecked(run, against="form 'common'").values()
    assert other.startswith("not compared: the unoptimized run of form 'common' fails (binding 0): ")
