"""Name the onnxscript rewrite rule or optimizer step behind an ``onnxscript:*`` parity finding.

onnxscript tags what it writes: a node a rewrite rule created carries the rule's name in its
``metadata_props`` (key ``onnxscript.rewriter.RULE_NAME_TAG``), a value constant folding made
carries ``onnxscript.optimizer.FOLDED_FROM_KEY``. The rules that tagged the output of the
optimized form and not the other's are the ones that applied to one form only; when no rule did,
but constant folding tagged one form only, the step is constant folding.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from passcheck.attribution.ort import Attribution

#: The name given to the optimizer's constant-folding step.
FOLDING = "FoldConstantsPass"


def attribute_rules(a, b, pass_id: str, executor) -> Attribution:
    """The rules (or step) that applied to ``a`` (the optimized form) and not to ``b``.

    Args:
        a, b: ModelProtos; ``executor`` an engine executor (the pass runs isolated).
    """
    from onnxscript.optimizer import FOLDED_FROM_KEY
    from onnxscript.rewriter import RULE_NAME_TAG

    from passcheck.passes import get_pass

    tags = []
    for m in (a, b):
        with tempfile.TemporaryDirectory(prefix="passcheck-attr-") as d:
            outcome = executor(get_pass(pass_id), m, Path(d))
        if not outcome.ok or outcome.model is None:
            return Attribution(
                [], 2, f"{pass_id} did not optimize a form here ({outcome.status}: {outcome.error or ''})"
            )
        g = outcome.model.graph
        props = [p for n in g.node for p in n.metadata_props] + [
            p for t in g.initializer for p in getattr(t, "metadata_props", ())
        ]
        tags.append(({p.value for p in props if p.key == RULE_NAME_TAG}, any(p.key == FOLDED_FROM_KEY for p in props)))
    (rules_a, folded_a), (rules_b, folded_b) = tags
    if rules := sorted(rules_a - rules_b):
        return Attribution(rules, 2, "read from the rule-name tags onnxscript writes on the nodes a rule creates")
    if folded_a and not folded_b:
        return Attribution([FOLDING], 2, "read from the folded-from tags onnxscript writes on folded values")
    return Attribution([], 2, "onnxscript tagged no rule or fold on one form only")
