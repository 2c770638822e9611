"""The generator feeds string tensors (M386): a type parameter that allows ``tensor(string)`` and no type the CPU
provider's numeric kernels take (StringConcat, StringSplit, RegexFullMatch), and a fixed ``tensor(string)`` input or
output (StringNormalizer), are built as strings, which the feeds synthesize; LabelEncoder-1 and the string-keyed
variants of LabelEncoder and CategoryMapper come from domain-table rows. Each text op's bases pass the generator's gate
and trigger the op's onnx shape-inference entry (:func:`passcheck.coverage.shapes.triggers`), which no base did
(LabelEncoder-1's pair is dropped by the gate: onnx's reference evaluator fails on its ``classes_strings``)."""

from __future__ import annotations

import json

import onnx
import pytest

from passcheck.cli import main
from tests._shared import built_once

OPS = ["StringConcat", "StringSplit", "RegexFullMatch", "StringNormalizer", "LabelEncoder", "CategoryMapper"]
#: the onnx shape-inference entries the bases must trigger (coverage keys' names)
ENTRIES = [
    "StringConcat@20",
    "StringSplit@20",
    "RegexFullMatch@20",
    "StringNormalizer@10",
    "ai.onnx.ml.LabelEncoder@2",
]


def _generate(folder):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PASSCHECK_CACHE", str(folder / "cache"))
        args = ["generate", "--stats", "--json", str(folder / "s.json")] + [a for op in OPS for a in ("--op", op)]
        return main(args)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """(stats JSON, id → case) of one generation of OPS per test run (tests/_shared.py)."""
    folder, code = built_once(tmp_path_factory, "generate-string-ops", _generate)
    assert code == 0
    mp = pytest.MonkeyPatch()
    mp.setenv("PASSCHECK_CACHE", str(folder / "cache"))
    from passcheck.generate import cases, index

    doc = index(ops=OPS, quiet=True)
    yield json.loads((folder / "s.json").read_text()), {c.id: c for c in cases(doc)}
    mp.undo()


def test_every_text_op_is_built(generated):
    stats, _cases = generated
    for op in ("StringConcat", "StringSplit", "RegexFullMatch", "StringNormalizer"):
        assert stats["stats"]["built"].get(op, 0) > 0, (op, stats["stats"]["dropped"].get(op))
    assert not any(k.startswith("passcheck|") for k in stats["stats"]["dropped"].get("StringConcat", {}))


def test_string_bases_take_string_inputs_and_trigger_inference(generated):
    from passcheck.coverage.entry import key
    from passcheck.coverage.shapes import TOOL, triggers

    _stats, cases = generated
    seen: set[str] = set()
    for case in cases.values():
        m = case.forms["common"].build()
        if any(i.type.tensor_type.elem_type == onnx.TensorProto.STRING for i in m.graph.input):
            seen |= set(triggers(m))
    for name in ENTRIES:
        assert key(TOOL, "inference", name) in seen, name


def test_string_keyed_variants_are_built(generated):
    _stats, cases = generated
    ids = set(cases)
    assert any(i.startswith("generated/ml.labelencoder-") and "string-keys" in i for i in ids), sorted(ids)
