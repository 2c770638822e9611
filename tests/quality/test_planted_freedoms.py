"""Five planted passes, each mishandling one spelling issue 27's rewrites produce, are caught by
``passcheck check MODEL --mutations`` with its default rewrite selection (no ``--form``): the
rewrites find bugs nobody described to them. The original model is clean for each."""

from __future__ import annotations

import pytest

from . import planted_freedoms as P
from ._planted_check import forms_with_findings

PLANTED = [
    (P.transposes, P.drop_identity_perm, "neutral-shape-ops"),
    (P.shared_value, P.drop_noop_cast_first_reader, "neutral-elementwise"),
    (P.gather_row, P.slice_of_one_as_gather, "gather-as-slice"),
    (P.integer_offsets, P.fold_integer_add_in_float, "reassociate"),
    (P.clipped, P.zero_nonfinite_clip_bounds, "clip-bounds-explicit"),
]


@pytest.mark.parametrize(("build", "fn", "rewrite"), PLANTED, ids=[r for _b, _f, r in PLANTED])
def test_check_mutations_catches_the_planted_pass(tmp_path, build, fn, rewrite):
    """The rewrite named here is what the test expects to show the bug; ``check`` is not told it."""
    found = forms_with_findings(tmp_path, build, fn, f"planted-freedom:{fn.__name__}")
    assert any(form.split("@")[0] == rewrite for form in found), found
