"""``passcheck.runtime.kernels`` for an op onnxruntime runs through its function body, bound to a type its own
schema rejects: onnxruntime refuses the model at load (Graph::Resolve's type check, "Type Error: Type
'tensor(int32)' of input parameter … is invalid"), whatever the body's nodes would accept. Checked against a
real InferenceSession of a one-node model."""

from __future__ import annotations

import onnx
import onnx.defs
import pytest

from passcheck.runtime.kernels import has_cpu_kernel, node_runs_on_cpu
from tests.runtime.test_kernels import _one_node

pytest.importorskip("onnxruntime")

I32 = onnx.TensorProto.INT32


def _load_error(model: onnx.ModelProto) -> str:
    import onnxruntime as ort

    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - the load's own message is the evidence
        return str(exc)
    return ""


def test_a_function_op_bound_to_a_type_its_schema_rejects_does_not_run():
    # HardSwish-14: T in {float16, float, double}; its body's Mul-14 has an int32 kernel and HardSigmoid's
    # constraint cannot bind int32 at all, so only the outer schema's constraint tells that int32 never loads
    schema = onnx.defs.get_schema("HardSwish", 14, "")
    assert schema.has_function and "tensor(int32)" not in schema.type_constraints[0].allowed_type_strs
    model = _one_node("HardSwish", 14, I32)
    assert "Type Error" in _load_error(model)
    assert has_cpu_kernel("", "HardSwish", 14, {"T": "tensor(int32)"}) is False
    assert node_runs_on_cpu(model.graph.node[0], schema, lambda _: I32) is False
