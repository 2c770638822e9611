"""Benchmark: passcheck's ORT-backed annotation check vs onnx's reference check vs a plain ORT run.

Models: ResNet-50, DenseNet-121 and Inception v2 shipped in onnx/backend/test/data/light, with
every intermediate annotated by onnx shape inference (so every node output is checked). Prints,
per model, the seconds of:

- passcheck: :func:`passcheck.runtime.observe.observe` (engine ``ort``) + ``shape_annotations.check``;
- reference: ``ReferenceEvaluator(model, check_shape_annotations=True).run`` (onnx >= 1.23);
- plain: one unoptimized onnxruntime run (:func:`passcheck.runtime.run_ort`, nothing exposed);

and the ratios reference/passcheck (target >= 20) and passcheck/plain (target <= 1.5). Then the
growth with model size: a chain of N and 10·N annotated nodes.

Run: ``python bench/annotations.py [--repeat K] [--skip-reference]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, shape_inference

from passcheck.oracles.shape_annotations import check
from passcheck.runtime import run_ort, synthesize
from passcheck.runtime.observe import observe

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"
MODELS = {"ResNet-50": "light_resnet50.onnx", "DenseNet-121": "light_densenet121.onnx", "Inception v2": "light_inception_v2.onnx"}


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def ours(model, feeds) -> None:
    observed, unobservable = observe(model, feeds, "ort")
    rep = check(model, observed, unobservable=unobservable)
    assert rep.ok, rep.violations[:1]


def reference(model, feeds) -> None:
    from onnx.reference import ReferenceEvaluator

    ReferenceEvaluator(model, check_shape_annotations=True).run(None, feeds)


def chain(n: int) -> onnx.ModelProto:
    nodes = [helper.make_node("Relu" if i % 2 else "Neg", [f"v{i}"], [f"v{i + 1}"]) for i in range(n)]
    vis = [helper.make_tensor_value_info(f"v{i}", onnx.TensorProto.FLOAT, ["N", 64]) for i in range(1, n)]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("v0", onnx.TensorProto.FLOAT, ["N", 64])],
                          [helper.make_tensor_value_info(f"v{n}", onnx.TensorProto.FLOAT, ["N", 64])], value_info=vis)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    return m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-reference", action="store_true")
    args = ap.parse_args()
    print(f"onnx {onnx.__version__}; times are the best of {args.repeat} (reference: 1 run)")
    print(f"{'model':<14}{'nodes':>7}{'annotated':>10}{'passcheck s':>13}{'reference s':>13}{'plain ORT s':>13}{'ref/ours':>10}{'ours/plain':>11}")
    for label, fname in MODELS.items():
        model = shape_inference.infer_shapes(onnx.load(LIGHT / fname))
        feeds = synthesize(model, {}, 0)
        annotated = len(model.graph.value_info) + len(model.graph.input) + len(model.graph.output)
        t_ours = best(lambda: ours(model, feeds), args.repeat)
        t_plain = best(lambda: run_ort(model, feeds), args.repeat)
        t_ref = float("nan") if args.skip_reference else best(lambda: reference(model, feeds), 1)
        print(f"{label:<14}{len(model.graph.node):>7}{annotated:>10}{t_ours:>13.3f}{t_ref:>13.2f}{t_plain:>13.3f}{t_ref / t_ours:>10.1f}{t_ours / t_plain:>11.2f}")
    print("\ngrowth with model size (chain of annotated Neg/Relu nodes, [N=256, 64] float):")
    print(f"{'nodes':>7}{'passcheck s':>13}{'plain ORT s':>13}{'ours/plain':>11}")
    prev = None
    for n in (100, 1000):
        m = chain(n)
        feeds = {"v0": np.random.default_rng(0).standard_normal((256, 64)).astype(np.float32)}
        t_ours, t_plain = best(lambda: ours(m, feeds), args.repeat), best(lambda: run_ort(m, feeds), args.repeat)
        grow = f"  (x{t_ours / prev:.1f} for 10x nodes)" if prev else ""
        print(f"{n:>7}{t_ours:>13.3f}{t_plain:>13.3f}{t_ours / t_plain:>11.2f}{grow}")
        prev = t_ours


if __name__ == "__main__":
    main()
