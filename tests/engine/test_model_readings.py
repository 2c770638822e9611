"""What the oracles read from one model is read once while its cells are judged (issue 28): the
engine judges each group of cells inside a :func:`passcheck.runtime.graph_index.shared` block, so
the conformance oracle's evaluation of a pass output, asked by its check and again by its
coverage, is made once per output; the subject's forms are pinned for its whole evaluation
(:func:`passcheck.runtime.graph_index.pinned`), so a form's, asked by its input cell and by every
pass output's check, is made once per subject (M299, session 37)."""

from __future__ import annotations

import collections

from onnx import parser

from passcheck.engine import Subject, evaluate
from passcheck.oracles import conformance, registry


def _relu():
    return parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> g (float[2, 3] x) => (float[2, 3] y) {y = Relu(x)}'
    )


def test_conformance_reads_each_form_once_per_subject_and_each_output_once(monkeypatch):
    read = collections.Counter()
    walk = conformance._evaluate

    def counted(model, typed):
        read[id(model)] += 1
        return walk(model, typed)

    monkeypatch.setattr(conformance, "_evaluate", counted)
    subject = Subject("t/readings", {"common": _relu(), "other": _relu()}, [{}])
    cells = evaluate(subject, ["ort:disabled", "onnx:infer-shapes"])
    assert len(cells) == 6 and all(c.verdict == "ok" for c in cells)
    # each form once for the subject (its input cell and both passes' cells), each of the 4 outputs once
    forms = {id(m) for m in subject.forms.values()}
    assert sorted(n for k, n in read.items() if k in forms) == [1, 1], dict(read)
    assert sum(read.values()) == 2 + 4, dict(read)


def test_the_builtin_oracles_are_imported_once(monkeypatch):
    first = registry.oracles()
    imports = []
    monkeypatch.setattr(registry.importlib, "import_module", imports.append)
    assert registry.oracles() == first and registry.oracles("pass") and not imports


def test_op_counts_walks_each_model_once_per_subject(monkeypatch):
    """The parity oracle asks for a form's op counts at every pair and every pass output, the cell's
    ``ops_after`` for every output: inside the engine's block each model object is walked once, and a
    caller changing the Counter it got (parity drops Constant and inserted Casts) changes no later answer."""
    from passcheck.oracles import _context

    walked = collections.Counter()
    key = _context.op_key

    def counted(node):
        walked[node.output[0]] += 1
        return key(node)

    monkeypatch.setattr(_context, "op_key", counted)
    subject = Subject("t/op-counts", {"common": _relu(), "other": _relu()}, [{}])
    cells = evaluate(subject, ["ort:disabled", "onnx:infer-shapes"])
    assert len(cells) == 6 and all(c.verdict == "ok" for c in cells)
    assert all(c.ops_after == {"Relu": 1} for c in cells if c.pass_id != "input")
    # 2 forms and 4 pass outputs, each walked once: one Relu node read per walk
    assert walked["y"] == 6, dict(walked)


def test_op_counts_answers_are_the_callers_to_change():
    from passcheck.oracles import _context
    from passcheck.runtime import graph_index

    model = _relu()
    with graph_index.shared():
        first = _context.op_counts(model)
        first["Relu"] -= 1
        first["Cast"] = 3
        assert _context.op_counts(model) == {"Relu": 1}
