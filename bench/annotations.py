"""Benchmark: passcheck's ORT-backed annotation check vs onnx's reference check vs a plain ORT run.

Models: ResNet-50, DenseNet-121 and Inception v2 shipped in onnx/backend/test/data/light, with
every intermediate annotated by onnx shape inference (so every node output is checked). Prints,
per model, the seconds of:

- passcheck: :func:`passcheck.runtime.observe.observe` (engine ``ort``) + ``shape_annotations.check``;
- reference: ``ReferenceEvaluator(model, check_shape_annotations=True).run`` (onnx >= 1.23);
- plain: one unoptimized onnxruntime run (:func:`passcheck.runtime.run_ort`, nothing exposed);

and the ratios reference/passcheck (target >= 20) and passcheck/plain (target <= 1.5). Then the
growth with model size: a chain of N and 10·N annotated nodes.

Fairness: the three get the same model and the same feeds; each includes what its user pays
(build the session or evaluator, run, read the result); the ORT sessions share
:func:`passcheck.runtime.session.session_options`. One warm-up call of each is excluded and the
median is reported. The two ORT-backed calls are interleaved, in an order rotating every round,
so load on the machine hits both alike; the reference evaluator is timed in its own block right
after (its numpy work leaves caches and the allocator cold for whatever runs next).

Run: ``python bench/annotations.py [--repeat K] [--ref-repeat R] [--skip-reference]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, shape_inference

from passcheck.oracles.shape_annotations import check
from passcheck.runtime import run_ort, synthesize
from passcheck.runtime.observe import observe

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"
MODELS = {"ResNet-50": "light_resnet50.onnx", "DenseNet-121": "light_densenet121.onnx", "Inception v2": "light_inception_v2.onnx"}


def medians(fns: dict, repeat: int) -> dict:
    """Median seconds of each callable: one excluded warm-up each, then ``repeat`` interleaved rounds.

    The order rotates every round, so no callable always runs first or after the same one.
    """
    for fn in fns.values():
        fn()
    times: dict = {k: [] for k in fns}
    keys = list(fns)
    for i in range(repeat):
        for k in keys[i % len(keys):] + keys[:i % len(keys)]:
            t = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def ours(model, feeds):
    observed, unobservable = observe(model, feeds, "ort")
    rep = check(model, observed, unobservable=unobservable)
    assert rep.ok, rep.violations[:1]
    return rep


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
    ap.add_argument("--repeat", type=int, default=9, help="measured onnxruntime calls (median)")
    ap.add_argument("--ref-repeat", type=int, default=3, help="measured reference-evaluator calls (median)")
    ap.add_argument("--skip-reference", action="store_true")
    args = ap.parse_args()
    ref_repeat = 0 if args.skip_reference else args.ref_repeat
    print(f"onnx {onnx.__version__}, onnxruntime {ort.__version__}; median of {args.repeat} calls "
          f"(reference: {ref_repeat}) after one warm-up each; passcheck and plain interleaved")
    print(f"{'model':<14}{'nodes':>7}{'checked':>14}{'passcheck s':>13}{'reference s':>13}{'plain ORT s':>13}{'ref/ours':>10}{'ours/plain':>11}")
    for label, fname in MODELS.items():
        model = shape_inference.infer_shapes(onnx.load(LIGHT / fname))
        feeds = synthesize(model, {}, 0)
        rep = ours(model, feeds)
        t = medians({"ours": lambda: ours(model, feeds), "plain": lambda: run_ort(model, feeds)}, args.repeat)
        t_ref = medians({"ref": lambda: reference(model, feeds)}, ref_repeat)["ref"] if ref_repeat else float("nan")
        cover = f"{rep.checked}/{rep.annotated}"
        print(f"{label:<14}{len(model.graph.node):>7}{cover:>14}{t['ours']:>13.3f}{t_ref:>13.2f}{t['plain']:>13.3f}"
              f"{t_ref / t['ours']:>10.1f}{t['ours'] / t['plain']:>11.2f}")
    print("\ngrowth with model size (chain of annotated Neg/Relu nodes, [N=256, 64] float):")
    print(f"{'nodes':>7}{'passcheck s':>13}{'plain ORT s':>13}{'ours/plain':>11}")
    prev = None
    for n in (100, 1000):
        m = chain(n)
        feeds = {"v0": np.random.default_rng(0).standard_normal((256, 64)).astype(np.float32)}
        t = medians({"ours": lambda: ours(m, feeds), "plain": lambda: run_ort(m, feeds)}, args.repeat)
        grow = f"  (x{t['ours'] / prev:.1f} for 10x nodes)" if prev else ""
        print(f"{n:>7}{t['ours']:>13.3f}{t['plain']:>13.3f}{t['ours'] / t['plain']:>11.2f}{grow}")
        prev = t["ours"]


if __name__ == "__main__":
    main()
