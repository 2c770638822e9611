"""The version converter's refusals are told apart from its own sources (``passes/converter_limits.py``): every
``ONNX_ASSERTM`` message of the installed onnx's ``version_converter`` (and of each pinned environment's onnx found
in the cache) is a stated limit or an invariant, and a limit in words newer than the old hand-kept regex (onnx
1.23.2's Mod 28 -> 27, Range 27 -> 26, the optional ops 18 -> 17) is ``unavailable``, not a ``rejected`` finding;
a refusal that is no limit (docs/found.md row 713's typed Constant) stays the pass's refusal."""

from __future__ import annotations

import os
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.passes import converter_limits as cl
from passcheck.passes import get_pass


def _converter_dirs() -> list[Path]:
    """The installed onnx's ``version_converter`` sources and those of the pinned environments in the cache."""
    dirs = [Path(onnx.__file__).parent / "version_converter"]
    cache = Path(os.environ.get("PASSCHECK_CACHE", Path.home() / ".cache" / "passcheck")) / "envs"
    dirs += sorted(cache.glob("onnx-1.*-*/lib/python3*/site-packages/onnx/version_converter"))
    return [d for d in dirs if (d / "adapters").is_dir()]


def _dir_id(d: Path) -> str:
    return d.parts[-6] if "envs" in d.parts else "installed"


@pytest.mark.parametrize("directory", _converter_dirs(), ids=_dir_id)
def test_every_assertion_of_the_converter_sources_is_classified(directory):
    found = cl.messages(directory)
    assert len(found) >= 30, found  # the reader sees the sources (onnx 1.16.2 states 37 messages)
    assert cl.unclassified(directory) == {}


def _filled(template: str) -> str:
    return "RuntimeError: adapters/x.h:1: adapt: Assertion `c` failed: " + template.replace("{}", "7")


@pytest.mark.parametrize("template", cl.LIMITS)
def test_a_limit_is_stated(template):
    assert cl.stated(_filled(template)), template


@pytest.mark.parametrize("template", cl.INVARIANTS)
def test_an_invariant_is_no_limit(template):
    assert not cl.stated(_filled(template)), template


def test_the_reader_renders_both_message_styles(tmp_path):
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "a.h").write_text(
        'ONNX_ASSERTM(node->i(attr) == value, "Attribute %s must have value %" PRId64, attr.toString(), value);\n'
        'ONNX_ASSERTM(f(x, (y)), "DataType (", t, ") of Input of operator \'", name(), "\' is unallowed")\n'
    )
    assert set(cl.messages(tmp_path)) == {
        "Attribute {} must have value {}",
        "DataType ({}) of Input of operator '{}' is unallowed",
    }


def _model(nodes, inputs, outputs, opset: int) -> onnx.ModelProto:
    m = helper.make_model(
        helper.make_graph(nodes, "g", inputs, outputs), opset_imports=[helper.make_opsetid("", opset)]
    )
    onnx.checker.check_model(m, full_check=True)
    return m


vi = helper.make_tensor_value_info


def _optional_has_element_without_input() -> onnx.ModelProto:
    """``y = OptionalHasElement()`` at opset 18: the input is optional since 18 (Operators.md
    OptionalHasElement-18); version 15 requires it, so 18 -> 17 cannot be written."""
    return _model([helper.make_node("OptionalHasElement", [], ["y"])], [], [vi("y", TensorProto.BOOL, [])], 18)


def test_the_optional_ops_limit_is_unavailable(tmp_path):
    out = get_pass("onnx:convert-opset-down").run(_optional_has_element_without_input(), tmp_path)
    assert out.status == "unavailable", (out.status, out.error)
    assert "No input to operator 'OptionalHasElement' is unallowed for Opset Version 17" in out.error


@pytest.mark.skipif(onnx.defs.onnx_opset_version() < 28, reason="Mod-28 is onnx >= 1.23's")
def test_mod_with_float_inputs_down_to_27_is_a_stated_limit(tmp_path):
    """Mod-28 takes ``fmod=0`` on floats; Mod-13 requires ``fmod=1`` for them (Operators.md Mod-13, Mod-28)."""
    x = vi("x", TensorProto.FLOAT, [2, 3])
    m = _model([helper.make_node("Mod", ["x", "x"], ["y"])], [x], [vi("y", TensorProto.FLOAT, [2, 3])], 28)
    out = get_pass("onnx:convert-opset-down").run(m, tmp_path)
    assert out.status == "unavailable", (out.status, out.error)
    report = check_model(m, ["onnx:convert-opset-down"], allow_unavailable=True)
    (cell,) = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
    assert cell.status == "unavailable" and not [f for f in cell.findings if f.kind == "rejected"], cell.findings


def test_a_refusal_that_is_no_limit_stays_the_pass_refusal(tmp_path):
    """docs/found.md row 713: ``Squeeze(x, Constant(value_ints=[0]))`` 13 -> 12 is refused for an attribute the
    adapter reads (``value``) where Constant-12 may hold the tensor as ``value_ints``: the converter's defect."""
    axes = helper.make_node("Constant", [], ["axes"], value_ints=[0])
    sq = helper.make_node("Squeeze", ["x", "axes"], ["y"])
    m = _model([axes, sq], [vi("x", TensorProto.FLOAT, [1, 3])], [vi("y", TensorProto.FLOAT, [3])], 13)
    out = get_pass("onnx:convert-opset-12").run(m, tmp_path)
    assert out.status not in ("ok", "unavailable"), (out.status, out.error)


def test_words_shared_by_a_limit_and_a_defect_promise_no_limit():
    """onnx 1.18.0 refuses ReduceProd-18 with its optional ``axes`` omitted, 18 -> 17, with the words it states for a
    computed ``axes`` (docs/recall.md R25): the refusal stays judged."""
    r25 = "RuntimeError: Assertion `node->hasAttribute(kaxes)` failed: No initializer or constant input to node found"
    assert cl.stated(r25) is None
