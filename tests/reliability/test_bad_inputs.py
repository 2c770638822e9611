"""Bad input to the CLI: one meaningful stderr line, exit 2, never a traceback (issue 8.1).

Every input is generated here (nothing downloaded) and run through the CLI's entry in this process
(:mod:`tests._inproc`: stdout and stderr at the file-descriptor level too), and one of them through the real
console script.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests._inproc import cli

PASS = "onnx:infer-shapes"


def _model(nodes, inputs, outputs, inits=(), opset=18, domain_opsets=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset), *domain_opsets])
    m.ir_version = 8
    return m


def _x(name="X", shape=("N", 3)):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))


def good_model() -> onnx.ModelProto:
    return _model([helper.make_node("Relu", ["X"], ["Y"])], [_x()], [_x("Y")])


def _save(path: Path, model: onnx.ModelProto) -> Path:
    path.write_bytes(model.SerializeToString())
    return path


def _external(folder: Path, location: str, *, write: bool) -> Path:
    """``folder/ext.onnx`` whose initializer W lives in external data at ``location``."""
    folder.mkdir(parents=True, exist_ok=True)
    w = numpy_helper.from_array(np.ones((3,), np.float32), "W")
    w.data_location = TensorProto.EXTERNAL
    w.ClearField("raw_data")
    for k, v in (("location", location), ("offset", "0"), ("length", "12")):
        w.external_data.add(key=k, value=v)
    if write:
        target = folder / location
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(np.ones((3,), np.float32).tobytes())
    m = _model([helper.make_node("Add", ["X", "W"], ["Y"])], [_x()], [_x("Y")], inits=[w])
    return _save(folder / "ext.onnx", m)


def corpus(tmp: Path) -> dict[str, tuple[list[str], str]]:
    """name → (argv after ``passcheck``, a fragment the error line must contain)."""
    tmp.mkdir(parents=True, exist_ok=True)
    good = _save(tmp / "good.onnx", good_model())
    raw = good.read_bytes()
    c: dict[str, tuple[list[str], str]] = {}

    def check(name: str, path: Path, fragment: str, *extra: str):
        c[name] = (["check", str(path), "--pass", PASS, *extra], fragment)

    check("missing", tmp / "nope.onnx", "no such file")
    (tmp / "empty.onnx").write_bytes(b"")
    check("empty", tmp / "empty.onnx", "empty")
    (tmp / "trunc.onnx").write_bytes(raw[: len(raw) // 2])
    check("truncated", tmp / "trunc.onnx", "not an ONNX model")
    (tmp / "random.onnx").write_bytes(np.random.default_rng(0).bytes(512))
    check("random-bytes", tmp / "random.onnx", "not an ONNX model")
    (tmp / "tensor.onnx").write_bytes(numpy_helper.from_array(np.ones((2, 2), np.float32), "T").SerializeToString())
    check("tensorproto", tmp / "tensor.onnx", "not a ModelProto")
    (tmp / "graph.onnx").write_bytes(good_model().graph.SerializeToString())
    check("graphproto", tmp / "graph.onnx", "not a ModelProto")
    check("folder", tmp, "folder")

    cyc = _model(
        [
            helper.make_node("Relu", ["B"], ["A"]),
            helper.make_node("Relu", ["A"], ["B"]),
            helper.make_node("Add", ["X", "B"], ["Y"]),
        ],
        [_x()],
        [_x("Y")],
    )
    check("cycle", _save(tmp / "cycle.onnx", cyc), "checker")
    dangling = _model([helper.make_node("Add", ["X", "Z"], ["Y"])], [_x()], [_x("Y")])
    check("dangling-input", _save(tmp / "dangling.onnx", dangling), "'Z'")
    dup = _model([helper.make_node("Relu", ["X"], ["Y"]), helper.make_node("Neg", ["X"], ["Y"])], [_x()], [_x("Y")])
    check("duplicate-output", _save(tmp / "dup.onnx", dup), "'Y'")
    unknown_op = _model([helper.make_node("NoSuchOp", ["X"], ["Y"])], [_x()], [_x("Y")])
    check("unknown-op", _save(tmp / "unknown_op.onnx", unknown_op), "NoSuchOp")
    unknown_domain = _model(
        [helper.make_node("Foo", ["X"], ["Y"], domain="com.example.nowhere")],
        [_x()],
        [_x("Y")],
        domain_opsets=[helper.make_opsetid("com.example.nowhere", 1)],
    )
    check("unknown-domain", _save(tmp / "unknown_domain.onnx", unknown_domain), "com.example.nowhere")
    future = good_model()
    future.opset_import[0].version = 99
    check("opset-too-new", _save(tmp / "future.onnx", future), "99")

    check("external-dotdot", _external(tmp / "m1", "../outside/w.bin", write=True), "outside the model's folder")
    check(
        "external-absolute",
        _external(tmp / "m2", str(tmp / "outside" / "abs.bin"), write=True),
        "outside the model's folder",
    )
    check("external-missing", _external(tmp / "m3", "w_missing.bin", write=False), "missing")

    np.savez(tmp / "wrong_dtype.npz", X=np.ones((2, 3), np.int64))
    c["feeds-wrong-dtype"] = (["annotations", str(good), "--feeds", str(tmp / "wrong_dtype.npz")], "X")
    np.savez(tmp / "wrong_rank.npz", X=np.ones((2, 3, 4), np.float32))
    c["feeds-wrong-rank"] = (["annotations", str(good), "--feeds", str(tmp / "wrong_rank.npz")], "X")
    np.savez(tmp / "wrong_name.npz", Q=np.ones((2, 3), np.float32))
    c["feeds-wrong-name"] = (["annotations", str(good), "--feeds", str(tmp / "wrong_name.npz")], "Q")
    check("bind-unknown-symbol", good, "'M'", "--bind", "M=4")
    huge = _model([helper.make_node("Relu", ["X"], ["Y"])], [_x(shape=(10**12, 3))], [_x("Y", (10**12, 3))])
    check("huge-dim", _save(tmp / "huge.onnx", huge), "bytes")
    check("huge-bind", good, "bytes", "--bind", "N=1000000000000")
    c["unknown-case"] = (["run", "--case", "shape/no-such-case", "--pass", PASS], "unknown case")
    check("unknown-pass", good, "did you mean", "--pass", "ort:basik")
    return c


def _console_script(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "passcheck", *argv], capture_output=True, text=True, cwd=cwd, timeout=120
    )


@pytest.fixture(scope="module")
def bad_inputs(tmp_path_factory):
    return corpus(tmp_path_factory.mktemp("bad"))


NAMES = [
    "missing",
    "empty",
    "truncated",
    "random-bytes",
    "tensorproto",
    "graphproto",
    "folder",
    "cycle",
    "dangling-input",
    "duplicate-output",
    "unknown-op",
    "unknown-domain",
    "opset-too-new",
    "external-dotdot",
    "external-absolute",
    "external-missing",
    "feeds-wrong-dtype",
    "feeds-wrong-rank",
    "feeds-wrong-name",
    "bind-unknown-symbol",
    "huge-dim",
    "huge-bind",
    "unknown-case",
    "unknown-pass",
]


def test_corpus_names_are_all_tested(tmp_path):
    assert sorted(corpus(tmp_path)) == sorted(NAMES)


def _assert_one_line_exit_2(proc: subprocess.CompletedProcess, fragment: str, tmp_path: Path) -> None:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("passcheck: error: ")
    assert fragment in lines[0], lines[0]
    assert list(tmp_path.iterdir()) == []  # nothing written outside the output paths (none given)


@pytest.mark.parametrize("name", NAMES)
def test_bad_input_is_one_line_exit_2(bad_inputs, name, tmp_path):
    argv, fragment = bad_inputs[name]
    _assert_one_line_exit_2(cli(*argv, cwd=tmp_path), fragment, tmp_path)


@pytest.mark.parametrize("name", ["truncated", "unknown-pass"])
def test_bad_input_through_the_console_script(bad_inputs, name, tmp_path):
    argv, fragment = bad_inputs[name]
    _assert_one_line_exit_2(_console_script(argv, tmp_path), fragment, tmp_path)


def test_external_data_inside_the_folder_loads(tmp_path):
    from passcheck.modelio import load_model

    m = load_model(_external(tmp_path / "m", "sub/w.bin", write=True))
    assert numpy_helper.to_array(m.graph.initializer[0]).tolist() == [1.0, 1.0, 1.0]


def test_known_contrib_domain_and_local_function_are_accepted(tmp_path):
    from passcheck.modelio import check_runnable

    m = _model(
        [helper.make_node("Gelu", ["X"], ["Y"], domain="com.microsoft")],
        [_x()],
        [_x("Y")],
        domain_opsets=[helper.make_opsetid("com.microsoft", 1)],
    )
    check_runnable(m, "m.onnx")
    f = helper.make_function(
        "local", "F", ["a"], ["b"], [helper.make_node("Relu", ["a"], ["b"])], [helper.make_opsetid("", 18)]
    )
    m = _model(
        [helper.make_node("F", ["X"], ["Y"], domain="local")],
        [_x()],
        [_x("Y")],
        domain_opsets=[helper.make_opsetid("local", 1)],
    )
    m.functions.append(f)
    check_runnable(m, "m.onnx")
