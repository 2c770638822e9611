"""One axis of a fed input declared 1 with every constant broadcast along it sliced to its first element
(:mod:`passcheck.hunt.vary_axis_one`, ``input-axis-one``; Broadcasting.md: a constant of size d on an axis meets the
input's d there), and a declared input's chain taking a second link the base's strict inference refuses
(:func:`passcheck.hunt.chain._refused_alone`, its base's half asked once per base); the ops reading an operand along
the channel axis by their own definition (Conv, ConvTranspose, Gemm, GroupNormalization) and a second fed input
meeting the axis. Judged with real onnx shape inference and onnxruntime sessions."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import registry
from passcheck.hunt import chain, variation, vary_axis_one, vary_inputs
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
from conftest import declared_dims  # noqa: E402
from conftest import run_unoptimized as _run  # noqa: E402

VI = helper.make_tensor_value_info
F = TensorProto.FLOAT


def _model(nodes, inits, x_dims, y_dims, opset=17):
    graph = helper.make_graph(nodes, "g", [VI("x", F, x_dims)], [VI("y", F, y_dims)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _arr(name, values):
    return numpy_helper.from_array(np.asarray(values, np.float32), name)


def _chain_model():
    """``y = Relu(x · s + c) − x``, ``x: float[N, 3, 4]``, ``s: [4]``, ``c: [3, 1]``: two constants broadcast
    along different axes."""
    nodes = [
        helper.make_node("Mul", ["x", "s"], ["m"]),
        helper.make_node("Add", ["m", "c"], ["a"]),
        helper.make_node("Relu", ["a"], ["r"]),
        helper.make_node("Sub", ["r", "x"], ["y"]),
    ]
    inits = [_arr("s", [1.0, -2.0, 3.0, 0.5]), _arr("c", [[0.5], [-1.0], [2.0]])]
    return _model(nodes, inits, ["N", 3, 4], ["N", 3, 4])


def _layernorm():
    """A decomposed LayerNorm over the last axis of ``x: float[N, 4, 8]`` (ReduceMean-18 axes inputs), scale ``g``
    and bias ``b`` ``[8]``, epsilon ``eps`` a scalar: the pattern onnxruntime's LayerNormFusion matches."""
    nodes = [
        helper.make_node("ReduceMean", ["x", "ax"], ["mu"]),
        helper.make_node("Sub", ["x", "mu"], ["d"]),
        helper.make_node("Mul", ["d", "d"], ["p"]),
        helper.make_node("ReduceMean", ["p", "ax"], ["var"]),
        helper.make_node("Add", ["var", "eps"], ["ve"]),
        helper.make_node("Sqrt", ["ve"], ["sd"]),
        helper.make_node("Div", ["d", "sd"], ["n"]),
        helper.make_node("Mul", ["n", "g"], ["t"]),
        helper.make_node("Add", ["t", "b"], ["y"]),
    ]
    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(np.array([-1], np.int64), "ax"),
        _arr("eps", 1e-5),
        _arr("g", rng.uniform(0.5, 2, 8)),
        _arr("b", rng.uniform(-1, 1, 8)),
    ]
    return _model(nodes, inits, ["N", 4, 8], ["N", 4, 8], opset=18)


def _batchnorm():
    """``y = BatchNormalization(x: float[2, 3, 5], scale, B, mean, var)`` (3 channels on axis 1)."""
    node = helper.make_node("BatchNormalization", ["x", "sc", "bb", "mu", "va"], ["y"])
    inits = [_arr("sc", [1.0, 2.0, 3.0]), _arr("bb", [0.1, 0.2, 0.3]), _arr("mu", [0, 1, 2]), _arr("va", [1, 2, 4])]
    return _model([node], inits, [2, 3, 5], [2, 3, 5], opset=15)


def _sites(model):
    return sorted(s for k, s in variation._candidates(chain.variation_named(model)) if k == vary_axis_one.KIND)


def test_the_sites_are_the_axes_a_constant_broadcasts_along():
    assert _sites(_chain_model()) == ["x=1", "x=2"]  # N is symbolic: no constant holds it
    assert _sites(_layernorm()) == ["x=2"]  # axis 1 meets no constant (the reductions keep it)
    assert _sites(_batchnorm()) == ["x=1"]  # the channel axis only
    shared = _chain_model()
    shared.graph.node.append(helper.make_node("Add", ["s", "s"], ["s2"]))
    shared.graph.output.append(VI("s2", F, [4]))
    assert _sites(shared) == ["x=1"]  # s is also read as itself: slicing it would change another computation
    matmul = _model(
        [helper.make_node("MatMul", ["x", "w"], ["h"]), helper.make_node("Add", ["h", "c"], ["y"])],
        [_arr("w", np.ones((4, 2))), _arr("c", [1.0, 2.0])],
        ["N", 4],
        ["N", 2],
    )
    assert _sites(matmul) == ["x=1"]  # the contracted axis: w's rows sliced with it
    neighbour, _ = variation.build(matmul, "vary:input-axis-one@x=1")
    x = np.arange(3, dtype=np.float32).reshape(3, 1)
    (y,) = _run(neighbour, {"x": x})
    np.testing.assert_allclose(y, x @ np.ones((1, 2), np.float32) + [1.0, 2.0])
    assert declared_dims(neighbour.graph.output[0]) == ["N", 2]  # no axis of the output holds it
    assert "vary:input-axis-one@x=2" in variation.offered(
        next(c for c in registry() if c.id == "fusion-norm/layernorm-r3").build("common")
    )


def test_the_neighbour_computes_the_base_on_the_first_slice():
    for model, site, axis in ((_chain_model(), "x=2", 2), (_chain_model(), "x=1", 1), (_batchnorm(), "x=1", 1)):
        neighbour, labels = variation.build(model, f"vary:input-axis-one@{site}")
        assert labels == ["x"]
        onnx.checker.check_model(neighbour, full_check=True)
        assert declared_dims(neighbour.graph.input[0])[axis] == 1
        assert declared_dims(neighbour.graph.output[0])[axis] == 1  # the annotation follows
        x = np.random.default_rng(1).standard_normal((2, 3, 4 if model.graph.node[0].op_type == "Mul" else 5))
        x = x.astype(np.float32)
        (whole,) = _run(model, {"x": x})
        (first,) = _run(neighbour, {"x": np.take(x, [0], axis=axis)})
        np.testing.assert_allclose(first, np.take(whole, [0], axis=axis), rtol=1e-6)
        assert declared_dims(model.graph.input[0])[axis] != 1  # the base is never modified


def test_a_layernorm_over_an_axis_of_one_and_its_feeds():
    neighbour, _ = variation.build(_layernorm(), "vary:input-axis-one@x=2")
    sliced = {t.name: numpy_helper.to_array(t) for t in neighbour.graph.initializer}
    assert sliced["g"].shape == sliced["b"].shape == (1,) and sliced["eps"].shape == ()
    x = np.random.default_rng(2).standard_normal((2, 4, 1)).astype(np.float32)
    (y,) = _run(neighbour, {"x": x})
    np.testing.assert_allclose(y, np.broadcast_to(sliced["b"], (2, 4, 1)), atol=1e-6)  # (x - x) / √eps · g + b

    def own(binding, seed):
        return {"x": np.arange(24, dtype=np.float32).reshape(1, 3, 8)}

    feeds = vary_inputs.setting(Setting("t", feeds=own), vary_axis_one.KIND, "x=2").feeds({}, 0)
    np.testing.assert_array_equal(feeds["x"], [[[0.0], [8.0], [16.0]]])


def test_a_chain_takes_the_second_link_the_declaration_makes_valid():
    base = _layernorm()
    first = "vary:input-axis-one@x=2"
    neighbour, _ = variation.build(base, first)
    assert "vary:shape-empty@eps" in variation.offered(base)  # offered, but 0 meets the normalized 8 further on
    assert chain._refused_alone(base, neighbour, "vary:shape-empty@eps")
    assert not chain._refused_alone(base, neighbour, "vary:shape-empty@g")  # the base never offered it
    drawn = {f for s in range(6) for f in chain.seconds(base, first, random.Random(s), k=8)}
    assert f"{first}+shape-empty@eps" in drawn
    both, _ = variation.build(base, f"{first}+shape-empty@eps")
    onnx.checker.check_model(both, full_check=True)
    (y,) = _run(both, {"x": np.ones((2, 4, 1), np.float32)})
    assert y.shape == (2, 4, 0)  # an epsilon of no element stretches the 1 to 0 (Broadcasting.md)


def _reader(op, weights, x_dims, y_dims, opset=21, **attrs):
    """``y = op(x, *weights)`` (weights: name → array, in input order)."""
    node = helper.make_node(op, ["x", *weights], ["y"], **attrs)
    return _model([node], [_arr(k, v) for k, v in weights.items()], x_dims, y_dims, opset=opset)


def _channel_readers():
    """(model, its axis-one sites): each op reading its operands along the channel / feature axis by its own
    definition (Operators.md Conv, ConvTranspose, Gemm, GroupNormalization), grouped ones where 1 channel can and
    cannot carry the groups."""
    r = np.random.default_rng(3)
    w = lambda *s: r.standard_normal(s)  # noqa: E731
    return [
        (_reader("Conv", {"w": w(4, 3, 3, 3), "b": w(4)}, [2, 3, 5, 5], [2, 4, 5, 5], pads=[1, 1, 1, 1]), ["x=1"]),
        # depthwise: group 1, W and B sliced on the filters
        (_reader("Conv", {"w": w(3, 1, 3, 3), "b": w(3)}, [2, 3, 5, 5], [2, 3, 3, 3], group=3), ["x=1"]),
        # two channels a group, two filters a channel: one channel carries neither
        (_reader("Conv", {"w": w(4, 2, 3, 3)}, [2, 4, 5, 5], [2, 4, 3, 3], group=2), []),
        (_reader("Conv", {"w": w(6, 1, 3, 3)}, [2, 3, 5, 5], [2, 6, 3, 3], group=3), []),
        (_reader("ConvTranspose", {"w": w(3, 2, 3, 3), "b": w(2)}, [2, 3, 5, 5], [2, 2, 7, 7]), ["x=1"]),
        (_reader("ConvTranspose", {"w": w(3, 1, 3, 3), "b": w(3)}, [2, 3, 5, 5], [2, 3, 7, 7], group=3), ["x=1"]),
        # M with C, K with B; under transA K is x's axis 0 and C holds no M
        (_reader("Gemm", {"w": w(2, 4), "c": w(3, 1)}, [3, 4], [3, 2], transB=1), ["x=0", "x=1"]),
        (_reader("Gemm", {"w": w(3, 2), "c": w(2)}, [3, 4], [4, 2], transA=1), ["x=0"]),
        # each channel its own group, then two pooled groups
        (_reader("GroupNormalization", {"s": w(3), "b": w(3)}, [2, 3, 4, 4], [2, 3, 4, 4], num_groups=3), ["x=1"]),
        (_reader("GroupNormalization", {"s": w(4), "b": w(4)}, [2, 4, 4, 4], [2, 4, 4, 4], num_groups=2), []),
    ]


def test_the_channel_readers_carry_the_axis():
    """Each site's neighbour passes the full checker, and onnxruntime runs it on the first slice to what the base
    computes on the input with every other slice zeroed (its first slice where the output holds the axis: a
    depthwise node, a GroupNormalization, Gemm's ``M``; the whole output where the node contracts it), the output's
    annotation the run's shape."""
    rng = np.random.default_rng(4)
    for model, sites in _channel_readers():
        op = model.graph.node[0].op_type
        assert _sites(model) == sites, (op, sites)
        for site in sites:
            neighbour, _ = variation.build(model, f"vary:input-axis-one@{site}")
            onnx.checker.check_model(neighbour, full_check=True)
            axis = int(site.split("=")[1])
            x = rng.standard_normal(declared_dims(model.graph.input[0])).astype(np.float32)
            zeroed = x.copy()
            np.moveaxis(zeroed, axis, 0)[1:] = 0
            (whole,) = _run(model, {"x": zeroed})
            (first,) = _run(neighbour, {"x": np.take(x, [0], axis=axis)})
            want = whole if first.shape == whole.shape else np.take(whole, [0], axis=axis)
            np.testing.assert_allclose(first, want, rtol=1e-4, atol=1e-5, err_msg=f"{op} {site}")
            assert declared_dims(neighbour.graph.output[0]) == list(first.shape), (op, site)


def test_the_base_side_of_a_refused_second_link_is_asked_once_per_base(monkeypatch):
    """M271: :func:`chain._refused_alone` builds and infers the second link on the base once, whichever first link
    asks; its answer is unchanged."""
    base = _layernorm()
    firsts = ["vary:input-axis-one@x=2", "vary:input-rank-up@x"]
    built: list[str] = []
    real = variation.build

    def counting(model, form):
        if model is base:
            built.append(form)
        return real(model, form)

    monkeypatch.setattr(variation, "build", counting)
    answers = [chain._refused_alone(base, real(base, f)[0], "vary:shape-empty@eps") for f in firsts * 2]
    assert answers == [True, False, True, False]  # the leading 1 leaves the normalized 8 against the empty eps
    assert built == ["vary:shape-empty@eps"]


def test_a_second_fed_input_holding_the_axis_is_declared_with_it():
    """M272: ``x + skip`` (both fed, Broadcasting.md: the two d meet) declares both 1 from one site, the constant
    after them sliced; the feeds follow both declarations (:func:`.vary_probe.setting_for`), and onnxruntime computes
    the base's first slice. A skip-connection LayerNorm offers its normalized axis once, not once per input."""
    from passcheck.hunt import vary_probe

    def skip_model(tail):
        graph = helper.make_graph(
            [helper.make_node("Add", ["x", "skip"], ["a"]), *tail],
            "g",
            [VI("x", F, ["N", 4, 8]), VI("skip", F, ["N", 4, 8])],
            [VI("y", F, ["N", 4, 8])],
            [_arr("c", np.linspace(-1, 1, 8))],
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)

    norm = skip_model([helper.make_node("LayerNormalization", ["a", "c"], ["y"], axis=-1)])
    assert _sites(norm) == ["x=2"]
    model = skip_model([helper.make_node("Mul", ["a", "c"], ["m"]), helper.make_node("Relu", ["m"], ["y"])])
    assert _sites(model) == ["x=2"]
    form = "vary:input-axis-one@x=2"
    neighbour, _ = variation.build(model, form)
    onnx.checker.check_model(neighbour, full_check=True)
    assert [declared_dims(vi) for vi in neighbour.graph.input] == [["N", 4, 1], ["N", 4, 1]]
    rng = np.random.default_rng(5)
    whole = {k: rng.standard_normal((2, 4, 8)).astype(np.float32) for k in ("x", "skip")}
    feeds = vary_probe.setting_for(Setting("t", feeds=lambda binding, seed: dict(whole)), form, neighbour).feeds({}, 0)
    assert {k: v.shape for k, v in feeds.items()} == {"x": (2, 4, 1), "skip": (2, 4, 1)}
    (y,) = _run(neighbour, feeds)
    np.testing.assert_allclose(y, _run(model, whole)[0][:, :, :1], rtol=1e-6)
