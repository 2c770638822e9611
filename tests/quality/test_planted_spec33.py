"""Two planted passes, each mishandling one spelling the reduce_squeeze / scalar_operand rewrites
produce (keepdims=1 followed by Squeeze, a one-element operand as a scalar), are caught by ``passcheck
check MODEL --mutations`` with its default rewrite selection; the model as written is clean for each."""

from __future__ import annotations

import pytest

from . import planted_spec33 as P
from ._planted_check import forms_with_findings

PLANTED = [
    (P.reduce_mean, P.drop_squeeze_after_reduce, "keepdims-squeeze"),
    (P.add_zero, P.remove_add_zero_indexing, "operand-ones-as-scalar"),
]


@pytest.mark.parametrize(("build", "fn", "rewrite"), PLANTED, ids=[r for _b, _f, r in PLANTED])
def test_check_mutations_catches_the_planted_pass(tmp_path, build, fn, rewrite):
    """The rewrite named here is what the test expects to show the bug; ``check`` is not told it."""
    found = forms_with_findings(tmp_path, build, fn, f"planted-spec33:{fn.__name__}")
    assert any(form.split("@")[0] == rewrite for form in found), found
