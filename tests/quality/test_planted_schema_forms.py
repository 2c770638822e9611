"""Planted passes, each mishandling one spelling the schema-walk rewrites produce, are caught by
``passcheck check MODEL --mutations`` with its default rewrite selection (no ``--form``). The
original model is clean for each. Planted passes on the same model share one ``check`` (module-scoped)."""

from __future__ import annotations

import pytest

from . import planted_schema_forms as P
from ._planted_check import forms_with_findings_of

PLANTED = [
    (P.transposes, P.compose_perms_backwards, "transpose-perm-explicit"),
    (P.relu, P.clip_missing_max_as_zero, "relu-as-clip"),
    (P.split, P.split_sizes_as_ends, "split-sizes-explicit"),
    (P.reshape, P.resolve_minus_one_ignoring_zero, "reshape-dims-implicit"),
    (P.maxes, P.max_of_first_two, "variadic-merge"),
    (P.softmax, P.fuse_softmax_last_axis, "expand-function-ops"),
    (P.loop, P.drop_unread_loop_outputs, "outer-read-as-loop-carried"),
    (P.scaled, P.where_constant_picks_else, "neutral-where-not"),
    (P.scaled, P.sum_as_binary_add, "neutral-one-input-variadic"),
    (P.compared, P.prune_functions_by_default_overload, "function-overload-split"),
    (P.compared, P.call_type_from_first_value_info, "function-value-info"),
    (P.padded, P.pad_input_value_dropped, "attributes-as-inputs"),
]


#: ``check --max-sites``: each rewrite at all its sites at once. The single-site forms the default adds (one per
#: site signature) were about half the mutants and cells of each model's check; every planted pass here breaks on
#: the all-at-once form of the rewrite named (measured: each test passes with it alone).
MAX_SITES = "0"


def _pid(fn) -> str:
    return f"planted-schema:{fn.__name__}"


@pytest.fixture(scope="module")
def found_on(tmp_path_factory):
    """build → pass id → the forms with a finding: one ``check --mutations`` per model, with every pass planted
    on it."""
    done: dict = {}

    def found(build):
        if build not in done:
            passes = {_pid(fn): fn for b, fn, _r in PLANTED if b is build}
            done[build] = forms_with_findings_of(tmp_path_factory.mktemp(build.__name__), build, passes, MAX_SITES)
        return done[build]

    return found


@pytest.mark.parametrize(("build", "fn", "rewrite"), PLANTED, ids=[r for _b, _f, r in PLANTED])
def test_check_mutations_catches_the_planted_pass(found_on, build, fn, rewrite):
    """The rewrite named here is what the test expects to show the bug; ``check`` is not told it."""
    found = found_on(build)[_pid(fn)]
    assert any(form.split("@")[0].split("+")[0] == rewrite for form in found), found
