"""The author of a Conv+Mul fold checks it against every optional-input form passcheck knows.

The first version decides "has bias" by counting inputs (seed 003, §1). On ``Conv(x, w, "")`` it
takes the bias path, finds no constant bias and keeps the Mul: the parity oracle reports a
missed-optimization on the ``empty-name`` form. The fixed version is clean on every form.
"""

import pytest
from fold_mul import FixedFoldMulIntoConvPass, FoldMulIntoConvPass

from passcheck.testing import FindingsError, assert_pass_ok, check_pass


@pytest.mark.passcheck(cases=["optional-input/*"], passes=[FixedFoldMulIntoConvPass()])
def test_fixed_fold_on_every_optional_input_form(passcheck_case):
    passcheck_case.assert_ok()


def test_first_version_misses_the_empty_name_form():
    with pytest.raises(FindingsError) as info:
        assert_pass_ok(FoldMulIntoConvPass(), "optional-input/conv-mul")
    (finding,) = info.value.findings
    assert (finding.form, finding.oracle, finding.kind) == ("empty-name", "parity", "missed-optimization")
    assert "Mul 1→0 in 'common' but 1→1 in 'empty-name'" in finding.message
    assert "reproduce: python -c" in str(info.value)


def test_both_versions_fold_the_common_form():
    assert check_pass(FoldMulIntoConvPass(), "optional-input/conv-mul:common") == []
    assert check_pass(FixedFoldMulIntoConvPass(), "optional-input/conv-mul") == []
