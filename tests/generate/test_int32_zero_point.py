"""DequantizeLinear's int32 zero point (round 24e, M586). Operators.md, DequantizeLinear-19 on: "In the case of
dequantizing `int32`, there's no zero point (zero point is supposed to be 0)". The generator's default type for
``T1`` is int32 (the first the CPU provider runs), and the domain table's zero point 3 made every DequantizeLinear-19+
base an int32 ``x`` with a non-zero int32 zero point: a form outside the spec's words, which onnxruntime 1.18.1 –
1.23.2 refuse and 1.24.4 on runs (round 23f). The table's ``by_dtype`` gives the int32 zero point 0; every other
type keeps 3. The recipe is built from the installed onnx's schemas and run with the reference evaluator."""

from __future__ import annotations

import onnx
import onnx.defs
import pytest
from onnx import TensorProto

from passcheck.generate import recipe

_VERSIONS = sorted(
    {onnx.defs.get_schema("DequantizeLinear", v).since_version for v in range(19, onnx.defs.onnx_opset_version() + 1)}
)


def _zero_point(node: recipe.Node) -> recipe.Input:
    (zp,) = [i for i in node.inputs if i.name == "x_zero_point"]
    return zp


@pytest.mark.parametrize("since", _VERSIONS)
def test_an_int32_zero_point_is_zero_and_other_types_keep_the_tables_value(since):
    schema = onnx.defs.get_schema("DequantizeLinear", since)
    node = recipe.build_node(schema, since)
    assert node.inputs[0].elem == TensorProto.INT32  # the default type, as the generated set writes it
    zp = _zero_point(node)
    assert zp.elem == TensorProto.INT32 and zp.value == 0, zp
    assert _zero_point(recipe.build_node(schema, since, main=TensorProto.UINT8)).value == 3


def test_without_the_rows_by_dtype_the_int32_zero_point_is_not_zero(monkeypatch):
    # planted: the table row as it was before M586 gives the non-zero int32 zero point the spec rules out
    real = recipe.table_row

    def row(schema):
        out = real(schema)
        if schema.name != "DequantizeLinear":
            return out
        ins = {k: {kk: vv for kk, vv in v.items() if kk != "by_dtype"} for k, v in out["inputs"].items()}
        return {**out, "inputs": ins}

    monkeypatch.setattr(recipe, "table_row", row)
    node = recipe.build_node(onnx.defs.get_schema("DequantizeLinear", 19), 19)
    assert _zero_point(node).value == 3
