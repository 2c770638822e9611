"""Issue 11 item 7: the mutation gate verifies on the feeds the run uses, and the mutation
table counts what the gate verified instead of printing n/n."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import onnx

from passcheck.engine import Subject, evaluate, run_in_process
from passcheck.errors import PasscheckInternalError
from passcheck.mutations import subject as mutation_subject_module
from passcheck.mutations.subject import feeds_for
from passcheck.runtime import default_bindings, run_ort

from ._models import OPTIONAL

#: An anonymous dim (neither dim_value nor dim_param) on the input: its size comes from synthesis.
ANONYMOUS = """<ir_version: 8, opset_import: ["" : 18]>
g (float[?, 3] x) => (float[?, 3] y) { y = Relu(x) }"""


class _Recording:
    """An executor that records the feeds of every model run the engine makes."""

    def __init__(self):
        self.feeds = []

    def __call__(self, adapter, model, workdir):
        return run_in_process(adapter, model, workdir)

    def run_model(self, model, feeds, expose=(), shapes=()):
        from passcheck.runtime.observe import run_observing

        self.feeds.append({k: v.shape for k, v in feeds.items()})
        return (
            run_observing(model, feeds, expose=expose, shapes=shapes)
            if shapes
            else run_ort(model, feeds, expose=expose)
        )


def test_gate_feeds_are_the_run_feeds_for_anonymous_dims():
    model = onnx.parser.parse_model(ANONYMOUS)
    bindings = default_bindings(model)
    gate = [{k: v.shape for k, v in f.items()} for f in feeds_for(model, "model/anon", bindings)]
    rec = _Recording()
    evaluate(Subject("model/anon", {"common": model}, bindings), ["input"], executor=rec)
    assert rec.feeds == gate and gate[0] != gate[1]  # bindings differ in the anonymous dim's size


def _table_module():
    path = Path(__file__).resolve().parents[2] / "scripts" / "mutation_table.py"
    spec = importlib.util.spec_from_file_location("mutation_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mutation_table_counts_what_the_gate_refused(tmp_path, monkeypatch):
    model = OPTIONAL()
    onnx.save(model, tmp_path / "m.onnx")
    real = mutation_subject_module.verify_equivalent
    refused_id = next(iter(mutation_subject_module.mutants(model)))

    def gate(original, mutant, feeds_list, rewrite="?", *rest):
        if rewrite == refused_id:  # a planted rewrite bug: this mutant is refused
            raise PasscheckInternalError(
                f"rewrite {rewrite!r} produced a model that is not equivalent to its input: planted"
            )
        return real(original, mutant, feeds_list, rewrite, *rest)

    monkeypatch.setattr(mutation_subject_module, "verify_equivalent", gate)
    table = _table_module()
    tried = len(mutation_subject_module.mutants(model))
    text, _gaps = table.row("m", tmp_path / "m.onnx", ["ort:disabled"], run_in_process)
    cols = [c.strip() for c in text.strip("|").split("|")]
    assert tried >= 2 and cols[2] == str(tried)
    assert cols[3].startswith(f"{tried - 1}/{tried}") and refused_id in cols[3]
