"""``BaseOracle.__init_subclass__``: an oracle class with an id and no ``reports_as`` reports under its id;
one that names ``reports_as`` keeps it; one without an id gets no name. The classes are made inside the
test, so the per-test coverage that selects tests for a mutant (``bench/mutation_select.py``) sees this
test run the rule (``tests/oracles/test_contract.py``'s module-level ``Tiny`` runs it at collection)."""

from __future__ import annotations

from passcheck.oracles._contract import BaseOracle


def test_an_oracle_reports_as_its_id_unless_it_names_another():
    class OwnName(BaseOracle):
        id = "own-name"

    class Renamed(BaseOracle):
        id = "renamed"
        reports_as = "shared-name"

    class Abstract(BaseOracle):
        pass

    assert OwnName.reports_as == "own-name"
    assert Renamed.reports_as == "shared-name"
    assert Abstract.reports_as == ""
