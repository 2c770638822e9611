"""A pass stating 1000 s per hunt item (``item_seconds``, :mod:`passcheck.hunt.cost`; it returns its
input) and a case declaring it, loaded after planted_hunt.py by the hunt's time-share tests (tests only)."""

from passcheck.cases import Case, register, registry
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


class _Slow(FunctionAdapter):
    item_seconds = 1000.0


if "test:slow" not in known_pass_ids():
    register_pass(_Slow("test:slow", lambda m: m))
_soft = registry().get("hunt-test/softmax")
register(Case(id="hunt-fair/softmax", forms=_soft.forms, doc="softmax (tests only)", opset=17, passes=("test:slow",)))
