"""Judge every neighbour of a base under a planted pass (:func:`passcheck.hunt.vary_probe.judge`): the forms
whose own findings the variation is to blame for, what the planted-pass tests of each variation kind compare."""

from __future__ import annotations

import random

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def found_by(base, case_id: str, pass_id: str, rewrite, ex) -> dict[str, list]:
    """Form → findings of each neighbour of ``base`` (sampled with seed 0) judged under ``rewrite`` registered as
    ``pass_id`` (unregistered after); every item is judged, dropped as invalid, or not applicable."""
    register_pass(FunctionAdapter(pass_id, rewrite))
    try:
        found = {}
        for form in variation.neighbours(base, random.Random(0)):
            out = vary_probe.judge(Setting(case_id), base, form, pass_id, ex)
            assert out.status in ("done", vary_probe.INVALID, "not-applicable"), (form, out)
            if out.status == "done" and out.findings:
                found[form] = out.findings
    finally:
        unregister_pass(pass_id)
    return found
