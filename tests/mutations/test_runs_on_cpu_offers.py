"""The rewrites that ask whether onnxruntime runs a node ask :func:`passcheck.runtime.kernels.runs_on_cpu` (a kernel,
or the float kernel onnxruntime's cast insertion falls back to for a float16 input), as the generator does (round
13g), not the kernel registry alone (round 14e, M229): a float16 node with no float16 kernel no longer hides a form.
Real generated bases, real onnxruntime in an isolation worker."""

from __future__ import annotations

import onnx
import pytest

from passcheck.hunt.space import bases
from passcheck.mutations import REWRITES
from passcheck.oracles.validity import Checker

from ._models import feeds


@pytest.fixture(scope="module")
def executor():
    from passcheck.passes.isolation import IsolatedExecutor

    with IsolatedExecutor() as ex:
        yield ex


@pytest.mark.parametrize(
    ("case", "rid"),
    [("generated/pow-15.dtype.float16", "float64-compute"), ("generated/cumsum-14.dtype.float16", "index-int32")],
)
def test_a_float16_base_onnxruntime_runs_through_its_cast_fallback_is_offered_and_verified(executor, case, rid):
    from passcheck.mutations.subject import verified_mutants
    from passcheck.runtime import kernels

    model = next(b for b in bases([case], generated=True) if b.form == "common").model()
    node = model.graph.node[-1]
    schema = onnx.defs.get_schema(node.op_type, model.opset_import[0].version, "")
    elem = {v.name: v.type.tensor_type.elem_type for v in [*model.graph.input, *model.graph.output]}
    elem.update({t.name: t.data_type for t in model.graph.initializer})
    assert kernels.node_has_cpu_kernel(node, schema, lambda v: elem.get(v, 0)) is False  # no float16 kernel listed
    assert kernels.node_runs_on_cpu(node, schema, lambda v: elem.get(v, 0)) is True  # the float one, through Casts
    assert REWRITES[rid].sites(model), f"{rid} offers nothing on {case}"
    found = verified_mutants(model, [rid], feeds(model), case, executor.run_model, checker=Checker(executor))
    assert list(found) == [rid]
