"""onnxscript's default rewrite rules take time quadratic in the graph's node count, on any graph.

`onnxscript.rewriter.rewrite(model)` tries each default rule at each node. One default rule, `SlicesSplit`
(`rewriter/rules/common/_basic_rules.py`, two Slice outputs), has a pattern with two output nodes, and
`SimplePatternMatcher.match` (`rewriter/_matcher.py`) answers such a pattern by first indexing every node of the
graph by op type, for every node it is asked about, before checking whether that node is even a Slice: n nodes
cost n passes over n nodes. A chain of Sin nodes (no Slice at all, no rule applies) is enough.

Expected: time about linear in the node count (4x the nodes, about 4x the CPU time).
Exits 1 when 4x the nodes costs more than 4**1.6 = 9.2x the CPU time, 0 otherwise. Needs onnx, onnxscript.
"""

import math
import sys
import time

import onnx
from onnx import TensorProto, helper


def chain(n: int) -> onnx.ModelProto:
    nodes = [helper.make_node("Sin", [f"v{i}"], [f"v{i + 1}"]) for i in range(n)]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("v0", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info(f"v{n}", TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def cpu_seconds(rewrite, model, rules=None) -> float:
    best = math.inf
    for _ in range(3):
        start = time.process_time()
        rewrite(model) if rules is None else rewrite(model, rules)
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    import onnxscript
    from onnxscript import rewriter

    small, large = 1000, 4000
    rewriter.rewrite(chain(8))  # imports and first-use costs out of the timing
    t_small, t_large = cpu_seconds(rewriter.rewrite, chain(small)), cpu_seconds(rewriter.rewrite, chain(large))
    exponent = math.log(t_large / t_small) / math.log(large / small)
    print(f"onnxscript {onnxscript.__version__}, onnx {onnx.__version__}: rewrite(model) with the default rules")
    print(f"  {small} Sin nodes: {t_small:.3f} s CPU; {large}: {t_large:.3f} s CPU; time ~ nodes^{exponent:.2f}")
    rules = getattr(rewriter, "_DEFAULT_REWRITE_RULES", ())  # the default set (0.3 and later)
    single = [r for r in rules if r._target_pattern.has_single_output_node]
    if len(single) < len(rules):
        u_small = cpu_seconds(rewriter.rewrite, chain(small), single)
        u_large = cpu_seconds(rewriter.rewrite, chain(large), single)
        e = math.log(u_large / u_small) / math.log(large / small)
        print(f"  without the multi-output rule(s): {u_small:.3f} s, {u_large:.3f} s; time ~ nodes^{e:.2f}")
    if exponent > 1.6:
        print("BUG: the time grows faster than the graph (bound: exponent 1.6)")
        return 1
    print("ok: the time grows about linearly with the graph")
    return 0


if __name__ == "__main__":
    sys.exit(main())
