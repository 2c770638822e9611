"""What the oracles read from one model is read once while its cells are judged (issue 28): the
engine judges each group of cells inside a :func:`passcheck.runtime.graph_index.shared` block, so
the conformance oracle's evaluation of a pass output, asked by its check and again by its
coverage, and of the form it came from, asked by every output's check, is made once per model in
each group (a form: once per pass, as the group ends its readings are dropped)."""

from __future__ import annotations

import collections

from onnx import parser

from passcheck.engine import Subject, evaluate
from passcheck.oracles import conformance, registry


def _relu():
    return parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> g (float[2, 3] x) => (float[2, 3] y) {y = Relu(x)}'
    )


def test_conformance_reads_each_model_once_per_judged_group(monkeypatch):
    read = collections.Counter()
    walk = conformance._evaluate

    def counted(model, typed):
        read[id(model)] += 1
        return walk(model, typed)

    monkeypatch.setattr(conformance, "_evaluate", counted)
    subject = Subject("t/readings", {"common": _relu(), "other": _relu()}, [{}])
    cells = evaluate(subject, ["ort:disabled", "onnx:infer-shapes"])
    assert len(cells) == 6 and all(c.verdict == "ok" for c in cells)
    # per pass group: each form once and each output once (4 models), the input group: each form once
    assert sum(read.values()) == 2 * 4 + 2, dict(read)


def test_the_builtin_oracles_are_imported_once(monkeypatch):
    first = registry.oracles()
    imports = []
    monkeypatch.setattr(registry.importlib, "import_module", imports.append)
    assert registry.oracles() == first and registry.oracles("pass") and not imports
