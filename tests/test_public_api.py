"""The public surface: every exported name exists and says what it is; catalogues are complete."""

from __future__ import annotations

import importlib
import pkgutil

import passcheck


def test_every_exported_name_is_documented():
    for name in passcheck.__all__:
        obj = getattr(passcheck, name)
        assert (obj.__doc__ or "").strip(), f"passcheck.{name} has no docstring"


def test_every_cli_command_has_help_and_a_handler():
    import passcheck.cli as cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    commands = {
        i.name.replace("_", "-") for i in pkgutil.iter_modules(cli.__path__) if not i.name.startswith("_")
    }  # check_export → check-export
    assert commands <= set(sub.choices), commands - set(sub.choices)
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, p in sub.choices.items():
        assert p.get_default("handler") is not None, name
        assert helps.get(name) and len(helps[name]) > 20, name  # the line `passcheck --help` lists
        opening = " ".join(p.description.split()[:3]) if p.description else ""
        assert opening and opening in " ".join(p.format_help().split()), name  # `passcheck NAME --help` says it


def test_every_default_pass_is_documented_and_every_oracle_catalogued():
    from passcheck import oracles
    from passcheck.passes import DEFAULT_PASSES, get_pass

    for pid in DEFAULT_PASSES:
        assert get_pass(pid).doc, pid
    modules = {i.name for i in pkgutil.iter_modules(oracles.__path__) if not i.name.startswith("_")}
    catalogued = set(oracles.registry.BUILTIN)
    helpers = {
        "binding",
        "shape_annotations",
        "registry",
        "spec_rules",
        "spec_table",
        "judged",
        "ort_own_ops",
        "ort_levels",
        "schema_history",  # a check across pinned onnx versions: the matrix runs it once per environment
        "inferred",  # what a pass inferred, recorded per cell: the matrix compares it across environments (cross_env)
        "descriptions",  # the interface descriptions a pass dropped: read by pass_contract (description-dropped)
        "part_descriptions",  # the functions' and bodies' descriptions a pass dropped: read by pass_contract
        "quant_steps",  # the rounding a quantized graph allows: the numeric oracle's tolerance reads it (M110)
        "withdrawn",  # which schemas the Changelog withdrew: validity forgives their deprecation refusal (M121)
        "overflow",  # where the unoptimized run overflowed: the numeric oracle leaves those positions unchecked (M168)
        "inference_wrote",  # whether onnx inference wrote a form's annotation: annotations and triage read it (M195)
        "rounding",  # a failed float32 comparison judged in float64 against the model's own rounding (M194)
        "block_steps",  # a weight-only quantizer's block scales: the numeric oracle's bound for MatMulNBits (M445)
        "interface_copies",  # the Identity copies an interface needs: parity's ops leave them out (lead, s45)
        "sequence_dims",  # the dims a sequence's type cannot carry: parity's precision leaves them out (lead, s41)
        "frozen_draws",  # an output a random op draws is still drawn after the pass: the folding oracle's (M508)
        "random_ops",  # which nodes draw, from the schemas' NonDeterministic marks: numeric and frozen_draws (M524)
        "text_shapes",  # shape rules the docs state that no tool enforces: the hunt's and the generator's gates (M197)
        "index_ties",  # an ArgMax / ArgMin / TopK index the unoptimized run chose among (near-)ties (M258, M278)
        "compare_ties",  # a comparison / Where its operands' rounding decided: unchecked there (M279)
        "checker_probes",  # opt-in (registry.registered): it judges the checker, not the form (M284, row 998)
        "inference_probes",  # opt-in (registry.registered): it judges strict inference, not the form (M531)

        "step_ties",  # a step at a computed input within rounding of it, and what follows: unchecked (M306, M307)
    }
    assert modules - helpers == catalogued, modules - helpers - catalogued
    for m in modules:
        assert (importlib.import_module(f"passcheck.oracles.{m}").__doc__ or "").strip(), m
