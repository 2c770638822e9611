"""Adapter-source bases at each documented value of a STRING attribute where the adapter's step changes the op's
attribute set (:func:`passcheck.generate.adapters.reinterpreted`, :func:`passcheck.generate.build.adapter_bases`),
with the real onnx schemas, the real version converter and onnxruntime runs.

Resize-11 added ``coordinate_transformation_mode`` (default ``half_pixel``) and ``nearest_mode`` (default
``round_prefer_floor``), while Resize-10 computes ``x_original = x_resized / scale`` (Changelog.md Resize-10; the
``asymmetric`` reading). The one Resize-10 base held the schema default ``mode = "nearest"`` at scale 2, where both
readings pick the same pixels, so a 10 → 11 adapter leaving the new attributes to their defaults met no base that
shows it. A planted converter doing exactly that is caught on the new ``mode = "linear"`` base and not on the default
one; the same converter writing Resize-10's reading explicitly is caught on neither.
"""

from __future__ import annotations

import onnx
import pytest

from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import generated_cases

LINEAR = "generated/resize-10.adapter.opset-10.mode-linear"
DEFAULT = "generated/resize-10.adapter.opset-10"


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "reinterpreted-adapters-cache", ["Resize"])


def test_the_steps_that_change_an_attribute_set_name_every_other_documented_value():
    from passcheck.generate import adapters

    found = set(adapters.reinterpreted())
    # Resize-10 documents two modes (Operators.md Resize-10: nearest, linear); cubic comes with Resize-11
    assert ("Resize", 10, 10, "mode", "linear") in found and ("Resize", 10, 10, "mode", "cubic") not in found
    assert ("Resize", 11, 11, "coordinate_transformation_mode", "asymmetric") in found  # 11 -> 10 drops it
    assert not any(op == "Resize" and value == "nearest" for op, _a, _s, attr, value in found if attr == "mode")
    # DepthToSpace 12 -> 13 keeps its attribute set (mode, blocksize): no base for its mode there
    assert not any(op == "DepthToSpace" and a in (12, 13) for op, a, _s, _n, _v in found)


def test_the_new_base_writes_its_value_and_is_valid_at_its_opset(cases):
    case = cases[LINEAR]
    assert "adapter-source" in case.tags and case.opset == 10
    for form in case.forms:
        model = case.build(form)
        (node,) = model.graph.node
        assert {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute} == {"mode": b"linear"}
        onnx.checker.check_model(model, full_check=True)
    (node,) = cases[DEFAULT].build("common").graph.node
    assert not node.attribute


def _converter(model: onnx.ModelProto, pin: bool) -> onnx.ModelProto:
    """onnx's converter to opset 11, then every Resize's opset-11 attributes removed (the defaults stand) or, with
    ``pin``, written as Resize-10 reads its input (``asymmetric``, ``floor``)."""
    out = onnx.version_converter.convert_version(model, 11)
    for n in out.graph.node:
        if n.op_type == "Resize":
            keep = [a for a in n.attribute if a.name not in ("coordinate_transformation_mode", "nearest_mode")]
            del n.attribute[:]
            n.attribute.extend(keep)
            if pin:
                n.attribute.extend(
                    [
                        onnx.helper.make_attribute("coordinate_transformation_mode", "asymmetric"),
                        onnx.helper.make_attribute("nearest_mode", "floor"),
                    ]
                )
    return out


def _findings(case, pin: bool) -> set[tuple[str, str, str]]:
    pid = f"planted:resize-10-11-{'pinned' if pin else 'defaults'}"
    register_pass(FunctionAdapter(pid, lambda m: _converter(m, pin)))
    try:
        cells = evaluate(Subject.from_case(case, onnx.__version__), [pid])
        return {(f.form, f.oracle, f.kind) for cell in cells for f in cell.findings}
    finally:
        unregister_pass(pid)


def test_an_adapter_leaving_the_new_defaults_is_caught_on_the_value_base_only(cases):
    caught = _findings(cases[LINEAR], pin=False)
    assert ("common", "numeric", "wrong-result") in caught
    assert not _findings(cases[LINEAR], pin=True)
    # the base at the schema default reads alike under both (nearest, scale 2): it could not show it
    assert not _findings(cases[DEFAULT], pin=False)
