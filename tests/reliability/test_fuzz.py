"""Fuzzing the loaders and the model-reading commands: mutated bytes of real models and random
small valid models never make passcheck fail with an internal error (issue 8.1).

Bounded for CI; ``PASSCHECK_FUZZ_EXAMPLES=N`` scales every property to N inputs (docs/fuzzing.md
records a long run).
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import onnx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper

from passcheck.cli import main

N = int(os.environ.get("PASSCHECK_FUZZ_EXAMPLES", "0"))
COMMANDS = (
    ["check", "{m}", "--pass", "onnx:infer-shapes", "--no-isolation", "-q"],
    ["show", "{m}"],
    ["annotations", "{m}", "--no-isolation"],
)
FUZZ = settings(max_examples=N or 40, deadline=None, derandomize=not N, suppress_health_check=list(HealthCheck))


def _seeds() -> list[bytes]:
    """Real models: a few forms of the built-in case library, external-data-free."""
    from passcheck.cases import registry

    out = []
    for case in registry().select(["constant/*", "optional*", "shape/*"])[:6]:
        for form in list(case.forms)[:2]:
            if case.skip_reason(onnx.__version__) is None:
                out.append(case.build(form).SerializeToString())
    return out


SEEDS = _seeds()


def _cli(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, err.getvalue()


def _assert_no_internal_error(path: Path) -> None:
    for template in COMMANDS:
        argv = [a.replace("{m}", str(path)) for a in template]
        rc, err = _cli(argv)
        assert rc in (0, 1, 2) and "Traceback" not in err and "internal error" not in err, (argv, rc, err[-3000:])
        if rc == 2:
            assert len(err.strip().splitlines()) == 1, err


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "truncate", "insert", "delete", "overwrite"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "flip" and data:
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            del data[i:]
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[i : i + draw(st.integers(1, 16))]
        elif op == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=8))
            data[i : i + len(chunk)] = chunk
    return bytes(data)


DIM = st.one_of(st.integers(0, 4), st.sampled_from(["N", "M", "batch", ""]))
UNARY = ("Relu", "Neg", "Abs", "Sigmoid", "Identity", "Tanh", "Exp")


@st.composite
def small_models(draw) -> onnx.ModelProto:
    """A chain of unary/binary ops on one or two inputs, with random (possibly wrong) annotations."""
    rank = draw(st.integers(0, 3))
    shape = [draw(DIM) for _ in range(rank)]
    elem = draw(st.sampled_from([TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16]))
    inputs = [helper.make_tensor_value_info("x", elem, shape)]
    nodes, last = [], "x"
    for i in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            nodes.append(helper.make_node(draw(st.sampled_from(UNARY)), [last], [f"v{i}"], name=f"n{i}"))
        else:
            nodes.append(
                helper.make_node(draw(st.sampled_from(["Add", "Mul", "Max"])), [last, "x"], [f"v{i}"], name=f"n{i}")
            )
        last = f"v{i}"
    value_info = [
        helper.make_tensor_value_info(n.output[0], elem, [draw(DIM) for _ in range(draw(st.integers(0, 3)))])
        for n in nodes[:-1]
        if draw(st.booleans())
    ]
    out_shape = draw(st.one_of(st.just(shape), st.lists(DIM, max_size=3)))
    graph = helper.make_graph(
        nodes, "fuzz", inputs, [helper.make_tensor_value_info(last, elem, out_shape)], value_info=value_info
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", draw(st.integers(13, 21)))])
    model.ir_version = 8
    return model


@FUZZ
@given(data=mutated())
def test_mutated_real_models(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fz") / "m.onnx"
    path.write_bytes(data)
    _assert_no_internal_error(path)


@FUZZ
@given(model=small_models())
def test_random_small_valid_models(tmp_path_factory, model):
    path = tmp_path_factory.mktemp("fz") / "m.onnx"
    path.write_bytes(model.SerializeToString())
    _assert_no_internal_error(path)


@FUZZ
@given(data=st.binary(max_size=256))
def test_loader_on_arbitrary_bytes(data):
    from passcheck.errors import ModelLoadError
    from passcheck.modelio import check_runnable, model_from_bytes

    try:
        check_runnable(model_from_bytes(data), "<fuzz>")
    except ModelLoadError as exc:
        assert "\n" not in str(exc)


def test_seeds_are_real_models():
    assert len(SEEDS) >= 4
    for s in SEEDS:
        onnx.checker.check_model(onnx.ModelProto.FromString(s))
