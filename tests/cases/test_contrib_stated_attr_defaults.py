"""The ``stated-attr-default`` spelling of the contrib family (M392, ``cases/contrib_ops.py``): an attribute whose
schema records no default but whose text states one ("Default value is 0") is left out vs written with that value;
the shared gate keeps the pair only when onnxruntime computes the same for both, so a stated value the kernel does
not take is dropped (planted below), and two rows of round 19d found on the family's new recipes (M391)."""

from __future__ import annotations

import dataclasses
import functools
import subprocess
import sys
from pathlib import Path

import onnx

from passcheck.cases import registry, schema_gate
from passcheck.runtime import ort_schemas


def _module():
    registry()
    return sys.modules["passcheck._library.contrib_ops"]


def _schema(name):
    return next(s for s in ort_schemas.schemas("com.microsoft") if s.name == name)


def test_the_stated_attribute_defaults_come_from_the_schema_text_only_where_the_schema_records_none():
    mod = _module()
    rot = _schema("RotaryEmbedding").attributes
    assert mod.stated_attr_default(rot["interleaved"]) == 0.0  # "Default value is 0 (False)"
    assert mod.stated_attr_default(rot["scale"]) == 1.0  # "Default value is 1.0"
    att = _schema("Attention").attributes
    assert mod.stated_attr_default(att["mask_filter_value"]) == -10000.0  # "Default value is -10000.0f"
    assert mod.stated_attr_default(att["scale"]) is None  # "1/sqrt(head_size)": an expression, not a value
    # the schema records epsilon's default: the generator's attr-default kind writes it, not this one
    assert mod.stated_attr_default(_schema("SkipLayerNormalization").attributes["epsilon"]) is None
    ids = {cid for cid, _p in mod.pairs(_schema("RotaryEmbedding"))}
    assert {f"contrib/rotaryembedding-1.stated-attr-default.{a}" for a in ("interleaved", "scale")} <= ids
    # an attribute the recipe gives (num_heads) is no pair
    assert "contrib/rotaryembedding-1.stated-attr-default.num-heads" not in ids


def test_the_gate_drops_a_stated_default_the_kernel_does_not_take():
    """Planted: the explicit form writes ``interleaved = 1`` where the text states 0; onnxruntime's outputs differ, so
    the shared gate drops the pair, and keeps the true one."""
    mod = _module()
    cid, pair = next(
        (c, p) for c, p in mod.pairs(_schema("RotaryEmbedding")) if c.endswith("stated-attr-default.interleaved")
    )
    node, mode, doc = pair.forms["explicit"]
    wrong = node.copy()
    wrong.attrs["interleaved"] = 1
    planted = dataclasses.replace(pair, forms={**pair.forms, "explicit": (wrong, mode, doc)})

    def candidate(name, p):
        return schema_gate.Candidate(name, {f: functools.partial(mod.form_model, p, f) for f in p.forms})

    out = mod._split(schema_gate.judge_all([candidate(cid, pair), candidate(cid + "-planted", planted)]))
    assert cid in out["kept"]
    assert out["dropped"][cid + "-planted"].startswith("explicit:")
    assert "differs" in out["dropped"][cid + "-planted"]


_RUN = (
    "import sys, numpy as np, onnx, onnxruntime as ort\n"
    "from passcheck.runtime.feeds import synthesize\n"
    "m = onnx.load_from_string(sys.stdin.buffer.read())\n"
    "s = ort.InferenceSession(m.SerializeToString(), providers=['CPUExecutionProvider'])\n"
    "print([o.shape for o in s.run(None, synthesize(m, {}, 0))])"
)


def test_row_1129_the_shared_buffer_decoder_attention_dies_without_its_optional_present_outputs():
    """The family's DecoderMaskedMultiHeadAttention base lists present_key / present_value and runs; the same node
    with the two optional outputs left off (IR.md §Nodes) kills the process (SIGSEGV), each in a child process."""
    case = next(c for c in registry() if c.id == "contrib/decodermaskedmultiheadattention-1.shape")
    listed = case.forms["common"].build()
    assert [o.name for o in listed.graph.output] == ["output", "present_key", "present_value"]
    omitted = onnx.ModelProto()
    omitted.CopyFrom(listed)
    del omitted.graph.node[0].output[1:]
    del omitted.graph.output[1:]
    onnx.checker.check_model(omitted, full_check=True)
    codes = {}
    for name, m in (("listed", listed), ("omitted", omitted)):
        p = subprocess.run([sys.executable, "-c", _RUN], input=m.SerializeToString(), capture_output=True, timeout=300)
        codes[name] = p.returncode
    assert codes == {"listed": 0, "omitted": -11}, codes


def test_row_1128_a_word_of_padding_chars_gets_whatever_the_output_buffer_held():
    """WordConvEmbedding: a word whose first char id is 0 has length 0 and its output row is not written; the row's
    standalone script (one session, the same padded feeds give another row 0 after a run on another sequence) exits
    1. The family's base holds no such word (its forms agree, so the gate keeps it)."""
    script = Path(__file__).parents[2] / "docs" / "repros" / "ort_wordconvembedding_padding_word_uninitialized.py"
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stdout + p.stderr[-300:]
    assert "the same feeds give the same output: False" in p.stdout
    assert "contrib/wordconvembedding-1.shape" in {c.id for c in registry()}
