"""Runtime behaviours a survivor of ``bench/mutation_score.py`` showed unguarded, each pinned with the real tools."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.runtime.completion import initializer_observations
from passcheck.runtime.feed_files import read_feeds, write_data_set
from passcheck.runtime.reference import run_reference


def _neg_with_weights():
    """y = Neg(x) + w, with a second initializer ``v`` nothing reads."""
    g = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["n"]), helper.make_node("Add", ["n", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.ones(2, np.float32), "w"), numpy_helper.from_array(np.ones(3, np.float32), "v")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def test_only_the_annotated_initializers_a_feed_does_not_override_are_observed():
    """Mutant killed: ``name in keys and name not in feeds`` → ``or`` in ``completion._initializer_values``:
    every initializer no feed overrides was observed, annotated or not."""
    model = _neg_with_weights()
    got = initializer_observations(model, {"x": np.ones(2, np.float32)}, (), ["w"])
    assert list(got) == ["w"] and got["w"].shape == (2,)
    assert initializer_observations(model, {"w": np.ones(2, np.float32)}, (), ["w"]) == {}


def test_a_folder_beside_the_data_sets_is_not_a_data_set(tmp_path):
    """Mutant killed: ``p.is_dir() and _SET.search(p.name)`` → ``or`` in ``feed_files._data_sets``: any other
    folder (or file) beside the ``test_data_set_K`` folders was taken for one (and its K read from no match)."""
    model = _neg_with_weights()
    write_data_set(tmp_path, 0, model, {"x": np.array([1, 2], np.float32)})
    (tmp_path / "notes").mkdir()
    (tmp_path / "README.txt").write_text("not a data set")
    (feeds,) = read_feeds(tmp_path, model)
    assert feeds["x"].tolist() == [1, 2]


def test_an_output_declared_a_tensor_that_is_an_empty_sequence_is_a_result_not_a_crash():
    """Mutant killed: ``len(outputs[name]) == 1`` → ``<= 1`` in ``reference.run_reference``: a graph output
    declared a tensor whose value is an empty list (a pass can write such a declaration) raised IndexError
    outside the run's error handling; it is returned as it is, for the oracles to judge."""
    g = helper.make_graph(
        [helper.make_node("SequenceEmpty", [], ["y"], dtype=TensorProto.FLOAT)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    run = run_reference(model, {"x": np.ones(2, np.float32)})
    assert run.error is None and run.outputs == {"y": []}


def test_reference_unwraps_an_optional_read_twice():
    """onnx.reference holds an optional's value as ``[x]`` and OptionalGetElement passes the list on, so
    ``Optional(OptionalGetElement(Optional(x)))`` is ``[[x]]``: a value declared a tensor (the graph output,
    and an If branch's output) arrives as an array, as onnxruntime gives it (a hunt's optimize-for-ort
    output was flagged "annotated as a tensor but the run produced a list" for this)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper

    from passcheck.runtime.reference import run_reference

    branch = helper.make_graph(
        [helper.make_node("OptionalGetElement", ["o2"], ["b"])],
        "br",
        [],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [3])],
    )
    g = helper.make_graph(
        [
            helper.make_node("Optional", ["x"], ["o1"]),
            helper.make_node("OptionalGetElement", ["o1"], ["g1"]),
            helper.make_node("Optional", ["g1"], ["o2"]),
            helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch),
        ],
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(m, full_check=True)
    r = run_reference(m, {"x": np.arange(3, dtype=np.float32), "c": np.array(True)})
    assert not r.error
    assert isinstance(r.outputs["y"], np.ndarray) and r.outputs["y"].tolist() == [0.0, 1.0, 2.0]
    inside = [v for k, v in r.observed.items() if k.endswith("::b")]
    assert inside and all(isinstance(e, np.ndarray) for v in inside for e in v)
