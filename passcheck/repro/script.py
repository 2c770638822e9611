"""The standalone reproducer of an ``ort:*`` parity finding, and its ``REPORT.md``.

The script needs only onnx, onnxruntime and numpy: it rebuilds both forms (see
:mod:`passcheck.repro.source`), checks both with the onnx checker, optimizes each with
onnxruntime at the finding's level (``optimized_model_filepath``), and exits 1 while the
optimized forms still differ as the finding says (an op type removed from one form only), 0 once
they are optimized alike.
"""

from __future__ import annotations

import platform
from collections.abc import Sequence

from passcheck.passes.ort_optimizer import LEVELS
from passcheck.repro.bisected import NOT_BISECTED
from passcheck.repro.generic import COUNTS

_TEMPLATE = '''#!/usr/bin/env python3
"""{title}

Two models compute the same thing; they differ only in how it is written ({forms}).
onnxruntime's graph optimizer at {level} should treat them alike.
Exit status: 1 while the bug is present, 0 once fixed, 2 if the set-up itself fails.
Needs only: onnx, onnxruntime, numpy.
"""

import base64
import collections
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

LEVEL = {level!r}
#: The form the optimizer handles, and the equal form it misses.
NAME_A, NAME_B = {a!r}, {b!r}
#: Op types the optimizer removes from the first model but not from the second.
KEPT = {kept!r}
#: Held responsible (by bisecting disabled_optimizers): {attribution}.


{source_a}

{source_b}

def optimized_ops(model):
    """Op-type counts (Constant nodes aside) of the model onnxruntime writes after optimizing at LEVEL."""
    with tempfile.TemporaryDirectory() as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVEL)
        so.optimized_model_filepath = os.path.join(d, "optimized.onnx")
        so.log_severity_level = 3  # errors only: warnings about unused initializers are noise here
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return counts(onnx.load(so.optimized_model_filepath))


{counts}

def kept(op, before_a, after_a, before_b, after_b):
    """The optimizer got rid of ``op`` in the first model and not in the second (passcheck's parity rule): the
    first lost every node of the type while the second kept some, or both had as many and the second lost fewer."""
    removed_a, removed_b = before_a[op] - after_a[op], before_b[op] - after_b[op]
    if removed_a <= 0 or not before_b[op]:
        return False
    return (after_a[op] == 0 and after_b[op] > 0) or (before_a[op] == before_b[op] and removed_b < removed_a)


def main():
    a, b = {fn_a}(), {fn_b}()
    for m in (a, b):
        onnx.checker.check_model(m, full_check=True)
    print("onnx", onnx.__version__, "| onnxruntime", ort.__version__, "| level", LEVEL)
    before_a, before_b = counts(a), counts(b)
    after_a, after_b = optimized_ops(a), optimized_ops(b)
    print(NAME_A, dict(before_a), "->", dict(after_a))
    print(NAME_B, dict(before_b), "->", dict(after_b))
    if KEPT:
        bug = [op for op in KEPT if kept(op, before_a, after_a, before_b, after_b)]
        if bug:
            print("BUG:", ", ".join(f"{{op}} removed from {{NAME_A}} ({{before_a[op]}}->{{after_a[op]}}) "
                                    f"but not from {{NAME_B}} ({{before_b[op]}}->{{after_b[op]}})" for op in bug))
            return 1
    else:
        new_a, new_b = sorted(set(after_a) - set(before_a)), sorted(set(after_b) - set(before_b))
        if new_a != new_b:
            print("BUG: the optimizer rewrote the two models into different op types:", new_a, new_b)
            return 1
    print("fixed: both models are optimized alike")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # the set-up failed: not a verdict on the bug
        print("set-up failed:", type(exc).__name__, exc, file=sys.stderr)
        sys.exit(2)
'''


def script(finding, a, b, attribution: Sequence[str] = ()) -> tuple[str, dict[str, str]]:
    """(script text, how each form is spelled: ``helper`` or ``bytes``) for an ``ort:*`` parity
    finding; ``a`` is the form the pass optimized, ``b`` the finding's form (ModelProtos)."""
    from passcheck.repro.source import model_source

    other = finding.details.get("other_form", "a")
    src_a, how_a = model_source(a, "build_optimized_form")
    src_b, how_b = model_source(b, "build_missed_form")
    level = LEVELS[finding.pass_id.split(":", 1)[1]]
    text = _TEMPLATE.format(
        title=f"onnxruntime {level}: {', '.join(finding.details.get('kept_op_types') or ['a rewrite'])} optimized in "
        "one form of a model but not in an equal form",
        forms=f"{other!r} vs {finding.form!r}",
        level=level,
        kept=list(finding.details.get("kept_op_types") or []),
        attribution=", ".join(attribution) or "not attributed",
        source_a=src_a,
        source_b=src_b,
        fn_a="build_optimized_form",
        fn_b="build_missed_form",
        a=other,
        b=finding.form,
        counts=COUNTS,
    )
    return text, {other: how_a, finding.form: how_b}


def report_md(
    finding, how: dict[str, str], attribution: Sequence[str], versions: dict[str, str | None], first_bad: str = ""
) -> str:
    """``REPORT.md``: environment, steps, expected vs actual, attribution, first bad version
    (``first_bad``: Markdown from :func:`passcheck.repro.bisected.first_bad`)."""
    other = finding.details.get("other_form", "")
    kept = finding.details.get("kept_op_types") or []
    env = (
        "\n".join(f"- {k} {v}" for k, v in versions.items() if v)
        + f"\n- Python {platform.python_version()}, {platform.system()} {platform.machine()}"
    )
    from passcheck.repro.source import how_spelled

    spelled = how_spelled(how)
    level = finding.pass_id.split(":", 1)[1]
    blamed = (
        "not computed (run `passcheck attribute` on the report first)"
        if not attribution
        else ", ".join(f"`{n}`" for n in attribution)
        + " (disabling it alone with `disabled_optimizers` makes the forms optimized alike)"
    )
    return f"""# onnxruntime {level} optimization misses {", ".join(kept) or "a rewrite"} on an equal form of a model

## Environment
{env}

## Steps
1. `pip install onnx onnxruntime numpy`
2. `python repro.py` (builds both models, runs onnxruntime's optimizer at {LEVELS[level]} on each; {spelled})

## Expected
The two models compute the same values (checked by passcheck on synthesized inputs before the
report), so the optimizer should treat them alike: what it removes from `{other}` it should
remove from `{finding.form}` too.

## Actual
{finding.message}

`repro.py` exits 1 while this holds and 0 once both forms are optimized alike.

## Attribution
{blamed}

## First bad version
{first_bad or NOT_BISECTED}
"""
