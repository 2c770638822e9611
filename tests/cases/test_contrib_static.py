"""The bases of onnxruntime's kernel-less contrib ops (``cases/contrib_static.py``, M381) and onnxruntime's graph
resolution as their judge (``passcheck/runtime/resolve.py``, M382): a model refused only for the missing kernel
passed every check of the op's schema, strict shape merging included; a declared rank or dim onnxruntime's own
inference contradicts, or an input its inference function refuses, is refused for that instead. The family keeps
NhwcConv at ranks 3, 4, 5 and GroupNorm / SkipGroupNorm; its bases trigger symbolic shape inference handlers and the
float16 conversion's always-float inputs by effect (real tools)."""

from __future__ import annotations

import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

from passcheck.cases import registry as _registry
from passcheck.runtime.limits import missing_kernel
from passcheck.runtime.resolve import resolve, resolve_all


def registry():
    """The library with this family claimed (a gated module: imported only when a selection names it)."""
    reg = _registry()
    reg.select(["contrib-static/*"])
    return reg


FAMILY = "contrib-static/"


def _nhwc(x, w, y=None) -> onnx.ModelProto:
    node = h.make_node("NhwcConv", ["X", "W"], ["Y"], domain="com.microsoft")
    g = h.make_graph(
        [node],
        "g",
        [h.make_tensor_value_info("X", T.FLOAT, x), h.make_tensor_value_info("W", T.FLOAT, w)],
        [h.make_tensor_value_info("Y", T.FLOAT, y)],
    )
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def _module():
    registry()
    return sys.modules["passcheck._library.contrib_static"]


def test_resolution_refuses_only_for_the_kernel_a_model_its_schema_accepts():
    ok = _nhwc([1, 5, 6, 3], [2, 3, 2, 2], [1, 4, 5, 2])  # NHWC: 2 output channels last
    wrong_dim = _nhwc([1, 5, 6, 3], [2, 3, 2, 2], [1, 4, 5, 3])
    wrong_rank = _nhwc([1, 5, 6, 3], [2, 3, 2, 2], [None] * 3)
    wrong_spatial = _nhwc([1, 5, 6, 3], [2, 3, 2, 2], [1, 5, 4, 2])
    answers = resolve_all([m.SerializeToString() for m in (ok, wrong_dim, wrong_rank, wrong_spatial)])
    assert answers[0] == resolve(ok.SerializeToString())
    assert missing_kernel(answers[0]) == ("NhwcConv", 1)
    for a in answers[1:]:
        assert a and missing_kernel(a) is None, a


def test_the_family_keeps_kernel_less_ops_at_the_ranks_their_schemas_accept():
    ids = {c.id for c in registry() if c.id.startswith(FAMILY)}
    for want in ("nhwcconv-1.r3.shape", "nhwcconv-1.r4.shape", "nhwcconv-1.r5.shape", "groupnorm-1.r4.shape"):
        assert FAMILY + want in ids
    assert any(i.startswith(FAMILY + "skipgroupnorm-1.") for i in ids)
    kept = _module().verdicts()["kept"]
    assert kept["contrib-static/nhwcconv-1.r4.shape"] == {"Y": 4}
    case = next(c for c in registry() if c.id == FAMILY + "nhwcconv-1.r4.shape")
    for form in case.forms.values():
        m = form.build()
        onnx.checker.check_model(m, full_check=True)
        assert missing_kernel(resolve(m.SerializeToString())) == ("NhwcConv", 1)


def test_a_wrong_output_rank_is_dropped_by_the_gate(monkeypatch):
    mod = _module()
    real = mod.form_model

    def planted(pair, form, ranks=None):  # forms other than common declare each output one rank higher
        if form == "common":
            return real(pair, form, ranks)
        return real(pair, form, {o: (r + 1 if r is not None else None) for o, r in (ranks or {}).items()})

    only = [s for s in mod.ort_schemas.schemas(mod.DOMAIN) if s.name == "BiasAdd"]
    monkeypatch.setattr(mod, "static_schemas", lambda: only)
    assert "contrib-static/biasadd-1.r3.shape" in mod._gate()["kept"]
    monkeypatch.setattr(mod, "form_model", planted)
    dropped = mod._gate()["dropped"]
    assert "onnxruntime: " in dropped["contrib-static/biasadd-1.r3.shape"]


def test_the_bases_trigger_symbolic_handlers_and_float16_inputs_by_effect():
    from passcheck.coverage import ort_precision, symbolic

    by_id = {c.id: c for c in registry() if c.id.startswith(FAMILY)}
    groupnorm = by_id[FAMILY + "groupnorm-1.r4.shape"].forms["symbolic"].build()
    assert "ort-symbolic-shape-infer:handler:GroupNorm" in symbolic.triggers(groupnorm)
    assert "ort-precision:float-input:GroupNorm" in ort_precision.triggers(groupnorm)
    nhwc = by_id[FAMILY + "nhwcconv-1.r4.shape"].forms
    assert "ort-symbolic-shape-infer:handler:NhwcConv" in symbolic.triggers(nhwc["symbolic"].build())
    # docs/found.md row 1113: the static form raises in the handler, so it shows no effect
    assert "ort-symbolic-shape-infer:handler:NhwcConv" not in symbolic.triggers(nhwc["common"].build())


def _family():
    return [c for c in registry() if c.id.startswith(FAMILY)]


def test_every_form_of_the_family_passes_the_checker_and_lacks_only_its_kernel():
    """The family's share of tests/cases/test_library.py (which runs every other form): no CPU session runs these
    forms, so each is judged by onnx's full checker and onnxruntime's strict graph resolution (M382)."""
    cases = _family()
    assert len(cases) >= 50
    models = [(c.id, f, c.build(f)) for c in cases for f in c.forms]
    for _cid, _f, m in models:
        onnx.checker.check_model(m, full_check=True)
    answers = resolve_all([m.SerializeToString() for _c, _f, m in models])
    wrong = [(cid, f, a[:120]) for (cid, f, _m), a in zip(models, answers, strict=True) if missing_kernel(a) is None]
    assert not wrong, wrong
