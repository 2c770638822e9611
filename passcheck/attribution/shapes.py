"""Name the node behind a shape-inference precision finding.

The finding says: after a shape-inference pass, a graph output is typed less precisely in form B
than in form A. The node held responsible is the first node of B's output (graph order) that
writes a value typed less precisely than A types the same value, while none of its inputs is
(so the precision is lost at that node, not inherited).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from passcheck.attribution.ort import Attribution

#: Pass ids whose findings this attributes.
PASSES = (
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "onnx:infer-shapes-data-prop",
    "onnx:infer-shapes-data-prop-strict",
    "ort:symbolic-shape-infer",
)


def attribute_precision(a, b, pass_id: str, executor) -> Attribution:
    """The node of ``b`` where the pass's typing first falls behind ``a``'s.

    Args:
        a, b: the more precisely typed form and the finding's form (ModelProtos).
        executor: an engine executor, e.g. :class:`~passcheck.passes.isolation.IsolatedExecutor`.
    """
    from passcheck.oracles._context import op_key
    from passcheck.oracles.parity import less_precise, precision
    from passcheck.passes import get_pass

    adapter = get_pass(pass_id)
    outs = []
    for m in (a, b):
        with tempfile.TemporaryDirectory(prefix="passcheck-attr-") as d:
            outcome = executor(adapter, m, Path(d))
        if not outcome.ok or outcome.model is None:
            return Attribution([], 2, f"{pass_id} did not type a form here ({outcome.status}: {outcome.error or ''})")
        outs.append(outcome.model)

    def types(m):
        g = m.graph
        return {v.name: precision(v.type) for v in [*g.input, *g.value_info, *g.output] if v.type.WhichOneof("value")}

    ta, tb = types(outs[0]), types(outs[1])

    def behind(name: str) -> bool:
        return name in ta and name in tb and None not in (ta[name], tb[name]) and less_precise(tb[name], ta[name])

    for i, n in enumerate(outs[1].graph.node):
        lost = [o for o in n.output if o and behind(o)]
        if lost and not any(behind(x) for x in n.input if x):
            return Attribution(
                [f"{op_key(n)} node {n.name or '#' + str(i)!r} (output {lost[0]!r})"],
                2,
                "checked: its output is typed less precisely than in the other form, its inputs are not",
            )
    return Attribution([], 2, "no single node where the typing falls behind (the forms' value names differ)")
