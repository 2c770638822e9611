"""Rule-pattern cases for onnxscript's rewriter: the pattern a rule matches, and its valid respellings.

onnxscript's rewrite rules (onnxscript/rewriter/rules/common/*.py, ort_fusions/*.py) match node
patterns by op type, attribute and constant value. A rule case names the rule by the coverage
catalogue's name (:mod:`passcheck.coverage.onnxscript`: the rule's ``name``, or its target
pattern for an unnamed rule) in the last line of its doc, ``Targets onnxscript's rule <name>
(onnxscript:optimize).`` (:data:`TARGET`), and in the tag :func:`rule_tag`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from passcheck.case_model import Case
from passcheck.cases._registry import REGISTRY
from passcheck.cases._support import ir_version_for
from passcheck.cases.builders import tensor, text_form
from passcheck.passes import DEFAULT_PASSES

#: "Targets onnxscript's rule|fusion|fold <name> (<pass>)." closes every rule case's doc.
TARGET = re.compile(r"Targets onnxscript's (?:rule|fusion|fold) (.+) \((onnxscript:[\w-]+)\)\.$")


#: Tag by kind: ``fusion`` as the ORT fusion families (``--case fusion``), ``folding`` as the folding families.
KIND_TAGS = {"rule": "pattern", "fusion": "fusion", "fold": "folding"}


def target_passes(pass_id: str, kind: str) -> tuple[str, ...]:
    """The passes a rule case runs when no ``--pass`` is given: the defaults
    (:data:`~passcheck.passes.DEFAULT_PASSES`), ``pass_id``, and for a default rule (``kind`` ``rule``
    applied by ``onnxscript:optimize``) ``onnxscript:rewrite`` too, which applies the default rule set
    without constant folding (onnxscript.rewriter._DEFAULT_REWRITE_RULES; :mod:`passcheck.coverage.onnxscript`).
    ORT pattern rules and fusions run in ``onnxscript:optimize-for-ort`` only."""
    rewrite = ("onnxscript:rewrite",) if (pass_id, kind) == ("onnxscript:optimize", "rule") else ()
    return tuple(dict.fromkeys((*DEFAULT_PASSES, pass_id, *rewrite)))


def rule_tag(rule: str) -> str:
    """The selection tag of an onnxscript rule's cases: ``onnxscript-`` and the rule name as a slug."""
    return "onnxscript-" + re.sub(r"[^a-z0-9]+", "-", rule.lower()).strip("-")


def onnxscript_case(
    case_id: str,
    rule: str,
    doc: str,
    forms: Mapping[str, tuple],
    signature: str,
    *,
    consts: Mapping[str, np.ndarray],
    opset: int = 18,
    targets: Sequence[str] = (),
    bindings=({"N": 1}, {"N": 3}),
    pass_id: str = "onnxscript:optimize",
    kind: str = "rule",
    feeds=None,
    extra_opsets: Mapping[str, int] | None = None,
) -> Case:
    """Register a rule case.

    Args:
        case_id: ``family/name``.
        rule: the catalogue name of the rule the common form triggers.
        forms: form name → ``(nodes, doc)`` or ``(nodes, doc, opset)`` in ONNX textual syntax.
        signature: ``(inputs) => (outputs)`` in textual syntax.
        consts: initializer name → array (stored with the array's dtype); each form gets the ones
            its nodes name.
        targets: further rules the common form triggers (each adds its tag).
        pass_id: the pass that applies ``rule``; the case's ``passes`` are :func:`target_passes`, so a
            run without ``--pass`` runs it.
        kind: ``rule``, ``fusion`` for a fusion ``fuse_xformers`` counts, or ``fold`` for an op the
            constant folder evaluates (``ai.onnx::Abs``; the catalogue's kinds); adds the tag
            :data:`KIND_TAGS` names.
        feeds: the case's feed function (:data:`~passcheck.cases.FeedFn`), when random normal feeds do not
            fit (position ids).
        extra_opsets: further opset imports, domain → version (``{"com.microsoft": 1}``).

    Raises:
        RegistryError: the id is taken or the case is malformed (see :class:`Case`).
        KeyError: ``kind`` is not one of :data:`KIND_TAGS`.
    """

    def inits(body: str):
        named = [n for n in consts if re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", body)]
        return lambda: [tensor(n, consts[n]) for n in named]

    built, opsets = {}, []
    for name, spec in forms.items():
        body, fdoc, form_opset = (*spec, opset)[:3]
        opsets.append(form_opset)
        built[name] = text_form(
            f"g {signature} {{\n{body}\n}}", fdoc, opset=form_opset, initializers=inits(body), extra_opsets=extra_opsets
        )
    lo, top = min(opsets), max(opsets)
    valid = f"Valid: opset {lo}" + (f" to {top}" if top != lo else "") + f" (ir_version {ir_version_for(lo)}+)."
    return REGISTRY.register(
        Case(
            id=case_id,
            forms=built,
            opset=top,
            bindings=bindings,
            doc=f"{doc.strip()}\n{valid}\n\nTargets onnxscript's {kind} {rule} ({pass_id}).",
            tags=frozenset({"pattern", "onnxscript", KIND_TAGS[kind], rule_tag(rule), *map(rule_tag, targets)}),
            passes=target_passes(pass_id, kind),
            feeds=feeds,
        )
    )


def rule_case_tags() -> set[str]:
    """The tags of the registered library cases that target an onnxscript rule (:data:`TARGET` on their doc's last
    line): the tags ``cases/rule_commuted.py``'s twins inherit, by which a selection names them before they are
    built (its ``SELECTED_BY``)."""
    tags: set[str] = set()
    for case in REGISTRY:
        lines = case.doc.strip().splitlines()
        if lines and TARGET.search(lines[-1]) and REGISTRY.user_module(case.id) is None:
            tags |= case.tags
    return tags
