"""Whether a generated node breaks a rule its own schema states, which makes a refusal of its form passcheck's
fault, not the tool's and not "does not apply" (the gate's ``n/a``).

Two rules the recipe has to follow beyond the type constraints it binds one at a time:

- a data-type attribute tied to the input's bit width (:func:`passcheck.generate.widths.untied`, Operators.md
  BitCast: "The target type must have the same bit-width as the input type");
- a control-flow body whose values are of the type ``V`` is bound to (:func:`passcheck.generate.bodies.mistyped`,
  Operators.md Loop, Scan, If).
"""

from __future__ import annotations

from passcheck.generate import bodies, widths
from passcheck.generate.recipe import Node


def fault(node: Node) -> tuple[str, str] | None:
    """(rule, what breaks it) for the first rule of the module docs ``node`` breaks, or None."""
    if why := widths.untied(node):
        return "a type attribute of another bit width than the input", why
    if why := bodies.mistyped(node.schema, node.attrs, node.dtypes):
        return "a body typed against the bound V", why
    return None


def relabel(verdict, node: Node) -> None:
    """Turn the gate's ``n/a`` drop of a pair whose common form is ``node`` into ``passcheck`` when ``node`` breaks a
    rule of its own schema (:func:`fault`): the form was the generator's mistake, not a spelling that does not apply.
    ``verdict``: a :class:`passcheck.generate.gate.Verdict`, changed in place; other verdicts are left alone."""
    if verdict.ok or verdict.category != "n/a" or (own := fault(node)) is None:
        return
    verdict.category, verdict.reason = "passcheck", f"the recipe breaks its schema: {own[0]}"
    verdict.detail = f"{verdict.detail} ({own[1]})"
