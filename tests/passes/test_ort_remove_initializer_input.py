"""``ort-tools:remove-initializer-from-input`` (:mod:`passcheck.passes.ort_remove_initializer_input`) keeps the
computation of a model whose initializer is also a graph input; a planted remover that drops the initializer
instead is caught."""

from __future__ import annotations

from passcheck.api import check_model
from passcheck.cases import load_builtin
from passcheck.passes.ort_remove_initializer_input import ID, RemoveInitializerFromInputAdapter
from tests.passes._helpers import cell_of

CASE = load_builtin().get("constant/initializer-as-input").build("overridable-default")


def test_the_real_tool_drops_the_input_and_keeps_the_values():
    report = check_model(CASE, [ID], name="rii/default")
    (cell,) = [c for c in report.cells if c.pass_id == ID]
    assert cell.status == "changed" and cell.verdict == "ok", (cell.status, cell.error, cell.findings)


class _DropsTheInitializer(RemoveInitializerFromInputAdapter):
    """Planted: removes the initializer that is a graph input, keeping the input (a value no caller feeds)."""

    id = "planted:remove-the-initializer"

    def apply(self, model, workdir):
        names = {i.name for i in model.graph.input}
        kept = [t for t in model.graph.initializer if t.name not in names]
        del model.graph.initializer[:]
        model.graph.initializer.extend(kept)
        return model


def test_a_remover_that_drops_the_value_is_caught():
    cell = cell_of(_DropsTheInitializer(), CASE, "rii/planted")
    assert cell.verdict != "ok" and cell.findings, (cell.verdict, cell.status, cell.error)
