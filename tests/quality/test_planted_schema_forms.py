"""Planted passes, each mishandling one spelling the schema-walk rewrites produce, are caught by
``passcheck check MODEL --mutations`` with its default rewrite selection (no ``--form``). The
original model is clean for each."""

from __future__ import annotations

import json

import onnx
import pytest

from passcheck.cli import main
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

from . import planted_schema_forms as P

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


@pytest.mark.parametrize(("build", "fn", "rewrite"), PLANTED, ids=[r for _b, _f, r in PLANTED])
def test_check_mutations_catches_the_planted_pass(tmp_path, build, fn, rewrite):
    """The rewrite named here is what the test expects to show the bug; ``check`` is not told it."""
    pid = f"planted-schema:{fn.__name__}"
    path, report = tmp_path / "m.onnx", tmp_path / "r.json"
    onnx.save(build(), path)
    register_pass(FunctionAdapter(pid, fn))
    try:
        code = main(["check", str(path), "--mutations", "--pass", pid, "--json", str(report), "-q"])
    finally:
        unregister_pass(pid)
    assert code == 1
    results = json.loads(report.read_text())["results"]
    found = {c["form"] for c in results for f in c["findings"] if f["pass_id"] == pid}
    assert "common" not in found  # right on the model as written
    assert any(form.split("@")[0].split("+")[0] == rewrite for form in found), found
