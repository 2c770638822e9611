"""Two planted passes, each mishandling one spelling the index_sign / layout_forms rewrites produce
(explicit pads vs auto_pad, an axes input counted from the back), are caught by ``passcheck check
MODEL --mutations`` with its default rewrite selection; the model as written is clean for each."""

from __future__ import annotations

import pytest

from . import planted_spec32 as P
from ._planted_check import forms_with_findings

PLANTED = [
    (P.pad_then_conv, P.fold_pad_ignoring_auto_pad, "auto-pad-named"),
    (P.unsqueeze_twice, P.merge_unsqueezes_unsigned, "axes-input-negative"),
]


@pytest.mark.parametrize(("build", "fn", "rewrite"), PLANTED, ids=[r for _b, _f, r in PLANTED])
def test_check_mutations_catches_the_planted_pass(tmp_path, build, fn, rewrite):
    """The rewrite named here is what the test expects to show the bug; ``check`` is not told it."""
    found = forms_with_findings(tmp_path, build, fn, f"planted-spec32:{fn.__name__}")
    assert any(form.split("@")[0] == rewrite for form in found), found
