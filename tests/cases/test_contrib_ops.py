"""The contrib-op bases (``cases/contrib_ops.py``, M342–M343) and onnxruntime's schema reader
(``passcheck/runtime/ort_schemas.py``, M341): onnxruntime's own ``com.microsoft`` schemas read through onnx's
attribute names; every kept base is a contrib op with a CPU kernel whose forms run and agree in real onnxruntime
sessions, its first form triggers onnxruntime's symbolic shape inference handler by effect; the gate drops a pair a
form of which kills onnxruntime (docs/found.md row 1062) and keeps the spelling that runs."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.runtime import kernels, ort_schemas
from passcheck.runtime.feeds import synthesize

FAMILY = "contrib/"
OPT = onnx.defs.OpSchema.FormalParameterOption


def _module():
    _cases()  # loads this family's module (a lazy source: passcheck.cases.sources.GatedModule)
    return sys.modules["passcheck._library.contrib_ops"]


def _cases():
    """This family's cases by name, its source alone loaded (``select``): the parametrize list below is read at
    collection, in every xdist worker, where claiming every gated family cost ~1.8 s of CPU (warm cache) for the
    same ids."""
    return {c.id[len(FAMILY) :]: c for c in registry().select([FAMILY + "*"])}


def test_onnxruntimes_own_schemas_read_with_onnxs_attribute_names():
    by_name = {s.name: s for s in ort_schemas.schemas("com.microsoft")}
    s = by_name["SkipLayerNormalization"]
    assert (s.domain, s.since_version) == ("com.microsoft", 1)
    assert [(i.name, i.type_str) for i in s.inputs][:3] == [("input", "T"), ("skip", "T"), ("gamma", "T")]
    assert [i.option for i in s.inputs] == [OPT.Single, OPT.Single, OPT.Single, OPT.Optional, OPT.Optional]
    eps = s.attributes["epsilon"]
    assert (eps.type, eps.required) == (onnx.AttributeProto.FLOAT, False)
    assert onnx.helper.get_attribute_value(eps.default_value) == pytest.approx(1e-12)
    assert {"tensor(float)", "tensor(float16)"} <= set(next(c for c in s.type_constraints).allowed_type_strs)
    assert "Attention" in by_name and all(x.domain == "com.microsoft" for x in by_name.values())


def test_the_kept_bases_are_contrib_ops_with_a_cpu_kernel_and_cover_the_symbolic_handlers():
    cases = _cases()
    ops = {c.id.split("/")[1].split("-")[0] for c in cases.values()}
    cpu = {op.lower() for (d, op) in kernels.registry() if d == "com.microsoft"}
    assert ops <= cpu
    # the handlers round 17f listed untriggered that the family reaches (ContribOperators.md ops with a CPU kernel)
    assert {"attention", "biasgelu", "fastgelu", "quickgelu", "skiplayernormalization", "multiheadattention"} <= ops
    assert {"qlinearadd", "rotaryembedding", "unfoldtensor", "dynamictimewarping"} <= ops
    # round 18c's recipes from the schema text (M354): packed weights, quantization parameters, int32 ids / lengths
    assert {
        "matmulnbits",
        "groupqueryattention",
        "qgemm",
        "qattention",
        "cropandresize",
        "gatherblockquantized",
        "embedlayernormalization",
    } <= ops
    # round 19d's recipes (M391): the CPU-kernel ops 18c left without a base, among them the shared-buffer decoder
    # attention, the LSTM variants, the quantized embedding and the packed (varlen) ops
    assert {
        "decodermaskedmultiheadattention",
        "moe",
        "attnlstm",
        "dynamicquantizelstm",
        "qembedlayernormalization",
        "qlinearsigmoid",
        "qlinearleakyrelu",
        "murmurhash3",
        "wordconvembedding",
        "varlencausalconvwithstate",
        "varlenngramhashmapping",
        "mrotaryembedding",
    } <= ops
    assert {"shape", "optional-input", "attr-default", "stated-default", "stated-attr-default"} == {
        c.id.split(".")[1] for c in cases.values()
    }
    # symbolic shape inference runs by default only where it has a handler (Trilu: none, "Incomplete" by design)
    assert "ort:symbolic-shape-infer" in cases["unfoldtensor-1.shape"].passes
    assert "ort:symbolic-shape-infer" not in cases["trilu-1.shape"].passes


#: kept bases of round 18c's recipes (M354, M355) with no ``.shape`` pair, or of a new kind
OTHER_KINDS = (
    "embedlayernormalization-1.attr-default.epsilon",
    "matmulintegertofloat-1.stated-default.b-zero-point",
    "qlinearadd-1.stated-default.c-zero-point",
    # round 19d (M391, M392): ops whose only graph inputs are optional or absent, and the stated attribute defaults
    "bifurcationdetector-1.optional-input",
    "ngramhashmapping-1.optional-input",
    "varlenngramhashmapping-1.optional-input",
    "qembedlayernormalization-1.attr-default.epsilon",
    "qlinearsigmoid-1.stated-default.x-zero-point",
    "rotaryembedding-1.stated-attr-default.interleaved",
    "multiheadattention-1.stated-attr-default.mask-filter-value",
)


@pytest.mark.parametrize("name", sorted(n for n in _cases() if n.endswith(".shape")) + list(OTHER_KINDS))
def test_every_form_runs_and_agrees_and_the_first_triggers_the_symbolic_handler(name):
    from passcheck.coverage.symbolic import handlers, triggers

    case = _cases()[name]
    models = [f.build() for f in case.forms.values()]
    op = next(n.op_type for n in models[0].graph.node if n.domain == "com.microsoft")
    if op in handlers() and op != "UnfoldTensor":  # row 1063: its handler raises on the defaults
        assert f"ort-symbolic-shape-infer:handler:{op}" in triggers(models[0]), name
    feeds = synthesize(models[0], {}, 0)
    got = [
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds) for m in models
    ]
    for other in got[1:]:
        for a, b in zip(got[0], other, strict=True):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)


def test_the_gate_drops_a_pair_whose_form_kills_onnxruntime_and_keeps_what_runs():
    mod = _module()
    doc = mod._gate(("QLinearSigmoid", "Gelu"))
    assert "contrib/gelu-1.shape" in doc["kept"]
    # row 1062: Y_zero_point left off (a trailing optional input, IR.md; its schema: "Default value is 0") aborts the
    # session's kernel constructor; given (round 19d's row, M391), the op's other pairs are kept
    why = doc["dropped"]["contrib/qlinearsigmoid-1.stated-default.y-zero-point"]
    assert why.startswith("omitted:") and "SIGABRT" in why
    assert {"contrib/qlinearsigmoid-1.shape", "contrib/qlinearsigmoid-1.stated-default.x-zero-point"} <= set(
        doc["kept"]
    )
    # each form checked in a child process (verified, not assumed)
    schema = next(s for s in mod.contrib_schemas() if s.name == "QLinearSigmoid")
    pair = dict(mod.pairs(schema))["contrib/qlinearsigmoid-1.stated-default.y-zero-point"]
    run = (
        "import sys, numpy as np, onnxruntime as ort\n"
        "s = ort.InferenceSession(sys.stdin.buffer.read(), providers=['CPUExecutionProvider'])\n"
        "print(s.run(None, {'X': np.zeros((2, 3, 4), np.int8)})[0].shape)"
    )
    for form, rc in (("common", 0), ("omitted", -6)):
        m = mod.form_model(pair, form)
        p = subprocess.run([sys.executable, "-c", run], input=m.SerializeToString(), capture_output=True, timeout=120)
        assert p.returncode == rc, (form, p.stderr[-300:])
