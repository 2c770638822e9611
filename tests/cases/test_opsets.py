"""The opset as a form (issue 18.2): neighbours are kept only where every op keeps its schema."""

from __future__ import annotations

import onnx
import onnx.helper
import pytest

from passcheck.cases.builders import FLOAT, model, node, vi
from passcheck.cases.opsets import NEWEST_PORTABLE, kept_opsets, opset_forms, schema_changes, top_opset
from passcheck.errors import RegistryError


def _relu_if(opset: int):
    """Relu(x) inside an If branch: Relu changes at 13 and 14, If at 13, 16 and 19."""
    branch = onnx.helper.make_graph([node("Relu", ["x"], ["a"])], "then", [], [vi("a", FLOAT, [2])])
    return model(
        [node("If", ["c"], ["y"], then_branch=branch, else_branch=branch)],
        [vi("x", FLOAT, [2]), vi("c", onnx.TensorProto.BOOL, [])],
        [vi("y", FLOAT, [2])],
        opset=opset,
    )


def _relu(opset: int):
    return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], opset=opset)


def test_ops_in_subgraphs_count_and_a_new_since_version_breaks_the_range():
    m = _relu_if(14)
    assert schema_changes(m, 14, 15) == []
    assert schema_changes(m, 14, 13) == ["Relu: 14 → 13"]
    assert schema_changes(m, 14, 16) == ["If: 13 → 16"]
    assert kept_opsets(m, 14, range(10, 30)) == [15]


def test_forms_are_built_per_opset_and_capped_at_the_portable_newest():
    forms = opset_forms(_relu_if, 17, span=3, what="Relu in If")
    assert list(forms) == ["common", "opset-16", "opset-18"]
    assert [o.version for o in forms["opset-18"].build().opset_import] == [18]
    assert forms["opset-16"].build().ir_version == 8 and "opset 16" in forms["opset-16"].doc
    assert top_opset(forms, 17) == 18
    assert max(kept_opsets(_relu(20), 20, range(14, 40))) == NEWEST_PORTABLE


def test_no_neighbour_with_the_same_schemas_is_a_registry_error():
    with pytest.raises(RegistryError, match="no opset within 1 of 13"):  # Relu: 6 at 12, 13 at 13, 14 at 14
        opset_forms(_relu, 13, span=1)
