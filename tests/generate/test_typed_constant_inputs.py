"""A constant input spelled as Constant-12's typed attribute (``input-constant-attr``,
:func:`passcheck.generate.node_spellings.typed_attribute`), with real onnx schemas, onnxruntime and
shape inference, and onnx 1.19.1's shape inference where that pinned environment is on disk.

Operators.md Constant-12: ``value_ints`` is an int64 1-D tensor, ``value_floats`` a float one,
``value_int`` / ``value_float`` scalars; every reader of the value must treat it as it treats the same
value written as a tensor. onnx before 1.21 handed a data-reading inference function the typed list
as a tensor with no dims (onnx/onnx#7675, docs/recall.md round 10b), which Pad's inference refuses.
"""

from __future__ import annotations

import glob
import os
import subprocess

import numpy as np
import onnx
import pytest

from passcheck.engine import Subject, evaluate
from passcheck.generate.node_spellings import typed_attribute
from tests._shared import generated_cases

OPS = ["Pad", "Tile"]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "typed-constant-inputs-cache", OPS)


def _constant(model: onnx.ModelProto, name: str) -> onnx.NodeProto:
    return next(n for n in model.graph.node if n.op_type == "Constant" and n.output[0] == name)


def test_the_precondition_follows_constant_12():
    i64, f32 = onnx.TensorProto.INT64, onnx.TensorProto.FLOAT
    assert typed_attribute(12, i64, [1, 2]) and typed_attribute(13, f32, 1.5) and typed_attribute(18, i64, [])
    assert not typed_attribute(11, i64, [1, 2])  # Constant-11 has no typed attributes
    assert not typed_attribute(13, onnx.TensorProto.INT32, [1])  # value_ints is int64 only
    assert not typed_attribute(13, i64, [[1, 2]])  # rank 2: no typed attribute spells it


def test_constant_inputs_get_the_typed_attribute_form_which_computes_the_same(cases):
    pad = cases["generated/pad-13.constant-input.pads"]
    assert {"input-constant", "input-constant-attr"} <= set(pad.forms)
    tensor, typed = pad.build("input-constant"), pad.build("input-constant-attr")
    assert [a.name for a in _constant(tensor, "pads").attribute] == ["value"]
    (attr,) = _constant(typed, "pads").attribute
    assert (
        attr.name == "value_ints"
        and list(attr.ints) == onnx.numpy_helper.to_array(_constant(tensor, "pads").attribute[0].t).tolist()
    )
    onnx.checker.check_model(typed, full_check=True)
    assert all(
        "input-constant-attr" in c.forms for cid, c in cases.items() if ".constant-input." in cid and c.opset >= 12
    )
    cells = [c for c in evaluate(Subject.from_case(pad, onnx.__version__), ["onnx:infer-shapes"])]
    mine = [c for c in cells if c.form == "input-constant-attr"]
    assert mine and all(not c.findings for c in mine), mine  # onnx 1.23 reads both spellings alike


def _old_onnx() -> str | None:
    root = os.path.expanduser("~/.cache/passcheck/envs")
    found = sorted(glob.glob(f"{root}/onnx-1.19-*/bin/python"))
    return found[0] if found else None


@pytest.mark.skipif(_old_onnx() is None, reason="the onnx-1.19 pinned environment is not built here")
def test_onnx_1_19_refuses_the_typed_form_and_accepts_the_tensor_form(cases, tmp_path):
    pad = cases["generated/pad-13.constant-input.pads"]
    script = (
        "import sys, onnx\n"
        "for p in sys.argv[1:]:\n"
        "    try:\n"
        "        onnx.shape_inference.infer_shapes(onnx.load(p), strict_mode=True); print('ok')\n"
        "    except Exception as e:\n"
        "        print('error', str(e).splitlines()[0][-80:])\n"
    )
    paths = []
    for form in ("input-constant", "input-constant-attr"):
        p = tmp_path / f"{form}.onnx"
        onnx.save(pad.build(form), p)
        paths.append(str(p))
    out = subprocess.run([_old_onnx(), "-c", script, *paths], capture_output=True, text=True, timeout=120, check=True)
    tensor, typed = out.stdout.splitlines()
    assert tensor == "ok" and typed.startswith("error") and "pads" in typed, out.stdout
    assert np.array_equal(
        onnx.numpy_helper.to_array(_constant(pad.build("input-constant"), "pads").attribute[0].t),
        list(_constant(pad.build("input-constant-attr"), "pads").attribute[0].ints),
    )
