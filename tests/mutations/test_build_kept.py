"""``forms.build_kept`` (M166, round 12s): a form built on its first group of parts kept from an earlier build is
the model and labels :func:`passcheck.mutations.forms.build` gives, and forms sharing that group build it once; the
hunt scheduler's ``labels`` of a base's pair forms so builds each shared first rewrite once."""

from __future__ import annotations

import dataclasses

import pytest

from passcheck.mutations import forms as F

from ._models import named


def _gelu():
    return named(
        """g (float[2,3] x) => (float[2,3] y) {
  [n0] a = Div(x, x)
  [n1] b = Erf(a)
  [n2] c = Add(b, x)
  [n3] y = Mul(x, c)
}""",
        opset=17,
    )


FORMS = [
    "deep-identity-chain+neutral-elementwise",
    "deep-identity-chain+region-as-local-function",
    "deep-identity-chain+commute-operands",
    "region-as-local-function@n0>n1+region-as-local-function@n2>n3+neutral-elementwise",  # a group of two sites
    "region-as-local-function@n0>n1+neutral-elementwise",
    "neutral-elementwise",  # one part: built as it is
    "deep-identity-chain+region-as-local-function@n9",  # no such site: None, as build
]


@pytest.fixture
def counted(monkeypatch):
    """The edits of the rewrites FORMS names, by rewrite id (each registry entry replaced by a counting copy)."""
    calls: list[str] = []
    for rid in ("deep-identity-chain", "region-as-local-function", "neutral-elementwise", "commute-operands"):
        r = F.REWRITES[rid]
        edit = lambda m, only, _rid=rid, _edit=r.edit: calls.append(_rid) or _edit(m, only)  # noqa: E731
        monkeypatch.setitem(F.REWRITES, rid, dataclasses.replace(r, edit=edit))
    return calls


def test_a_kept_first_part_gives_what_build_gives_and_is_built_once(counted):
    m = _gelu()
    kept: dict = {}
    got = {f: F.build_kept(m, f, kept) for f in FORMS}
    assert counted.count("deep-identity-chain") == 1  # one build of the head the first, second, third and last share
    assert counted.count("region-as-local-function") == 2 + 2  # the two heads once each; the two pairs' second parts
    for f in FORMS:
        want = F.build(m, f)
        assert (want is None) == (got[f] is None), f
        if want is not None:
            assert got[f][1] == want[1] and got[f][0].SerializeToString() == want[0].SerializeToString(), f
    assert got["deep-identity-chain+region-as-local-function@n9"] is None
    assert F.build_kept(m, FORMS[0], kept)[0].SerializeToString() == got[FORMS[0]][0].SerializeToString()  # kept intact


def test_the_scheduler_builds_a_bases_shared_first_rewrite_once(counted):
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    found = [b for b in bases(["fusion-gelu/fastgelu-r2"], False) if b.form == "common"]
    s = Scheduler(found, ["onnx:infer-shapes"], seed=0)
    base = found[0]
    pairs = ["deep-identity-chain+neutral-elementwise", "deep-identity-chain+commute-operands"]
    labels = [s.labels(base, f) for f in pairs]
    assert counted.count("deep-identity-chain") == 1
    assert labels == [tuple(F.build(base.model(), f)[1]) for f in pairs] and all(labels)
