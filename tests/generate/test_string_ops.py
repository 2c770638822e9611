"""The generator feeds string tensors (M386): a type parameter that allows ``tensor(string)`` and no type the CPU
provider's numeric kernels take (StringConcat, StringSplit, RegexFullMatch), and a fixed ``tensor(string)`` input or
output (StringNormalizer), are built as strings, which the feeds synthesize; LabelEncoder-1 and the string-keyed
variants of LabelEncoder and CategoryMapper come from domain-table rows. Each text op's bases pass the generator's gate
and trigger the op's onnx shape-inference entry (:func:`passcheck.coverage.shapes.triggers`), which no base did
(LabelEncoder-1's pair is dropped by the gate: onnx's reference evaluator fails on its ``classes_strings``)."""

from __future__ import annotations

import onnx
import pytest

from tests._shared import generated_cases

OPS = ["StringConcat", "StringSplit", "RegexFullMatch", "StringNormalizer", "LabelEncoder", "CategoryMapper"]
#: the onnx shape-inference entries the bases must trigger (coverage keys' names)
ENTRIES = [
    "StringConcat@20",
    "StringSplit@20",
    "RegexFullMatch@20",
    "StringNormalizer@10",
    "ai.onnx.ml.LabelEncoder@2",
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """id → case of one generation of OPS per test run (tests/_shared.py)."""
    yield from generated_cases(tmp_path_factory, "generate-string-ops", OPS)


def test_every_text_op_is_built(generated):
    for stem in ("stringconcat-20.", "stringsplit-20.", "regexfullmatch-20.", "stringnormalizer-10."):
        assert any(i.startswith("generated/" + stem) for i in generated), (stem, sorted(generated))


def test_string_bases_take_string_inputs_and_trigger_inference(generated):
    from passcheck.coverage.entry import key
    from passcheck.coverage.shapes import TOOL, triggers

    seen: set[str] = set()
    for case in generated.values():
        m = case.forms["common"].build()
        if any(i.type.tensor_type.elem_type == onnx.TensorProto.STRING for i in m.graph.input):
            seen |= set(triggers(m))
    for name in ENTRIES:
        assert key(TOOL, "inference", name) in seen, name


def test_string_keyed_variants_are_built(generated):
    ids = set(generated)
    assert any(i.startswith("generated/ml.labelencoder-") and "string-keys" in i for i in ids), sorted(ids)
