"""A planted pass: onnxscript's ScatterAllDynamic rule with its dim comparison as onnxscript 0.3.2 made it (tests only).

- ``planted:scatter-all-dynamic-eq``: onnxscript's own ``ScatterAllDynamic`` rule
  (``onnxscript/rewriter/rules/common/_redundant_scatter_nd.py``: ``ScatterND(data', Unsqueeze(Range(0,
  Gather(Shape(data), axis), 1), [-1]), updates)`` → ``updates`` when ``data.shape[axis]`` is ``data'.shape[0]``),
  run alone through ``onnxscript.rewriter.rewrite``, with ``_ir_utils.same_dim`` replaced for the call by plain
  equality, as 0.3.2 compared them: two unknown dims (neither ``dim_value`` nor ``dim_param``) are then equal,
  though the spec lets them be any two sizes (docs/recall.md R91, microsoft/onnxscript#2620).
"""

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:scatter-all-dynamic-eq"


def rewrite_as_032(model):
    """The rule applied with 0.3.2's comparison (module docs)."""
    from unittest import mock

    import onnxscript.rewriter
    from onnxscript.rewriter import _ir_utils
    from onnxscript.rewriter.rules.common import _redundant_scatter_nd as rules

    with mock.patch.object(_ir_utils, "same_dim", lambda a, b: a == b):
        return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=[rules.no_op_dynamic_scatter_nd_rule])


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, rewrite_as_032, doc="test pass: ScatterAllDynamic comparing dims by =="))
