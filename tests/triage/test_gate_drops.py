"""The gates' drops listed and triaged (passcheck.triage.gate_drops): a planted onnxruntime that refuses a valid
uncommon form, behind the real generator's gate (real checker, onnxruntime, reference evaluator) and behind the
schema-built families' gate, is listed as a drop of class (onnxruntime, op, "rejects the uncommon form") and left a
candidate; a stated limit and a triaged class are not."""

from __future__ import annotations

import onnx
import pytest

from passcheck.triage import gate_drops

PLANTED = "planted: this onnxruntime refuses the spelling"


def test_planted_onnxruntime_refusing_the_uncommon_form_is_a_candidate_drop(tmp_path, monkeypatch):
    from passcheck.generate import build, index

    real = build.gate

    def planted_gate(forms, feeds, run_model, *args, **kwargs):
        common = forms[next(iter(forms))]

        def refusing(model, feed, **kw):
            if model is not common:  # every uncommon form, whatever it spells
                return dataclasses_replace(run_model(common, feed, **kw), PLANTED)
            return run_model(model, feed, **kw)

        return real(forms, feeds, refusing, *args, **kwargs)

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "gate", planted_gate)
    doc = index(ops=["Abs"], quiet=True)
    got = gate_drops.listing([], doc)
    planted = [c for c in got.classes if PLANTED in c.reason]
    assert len(planted) == 1, [(c.tool, c.op, c.reason) for c in got.classes]
    (c,) = planted
    assert (c.tool, c.op, c.status) == ("onnxruntime", "Abs", "candidate")
    assert c.reason.startswith("onnxruntime rejects on the uncommon form")
    assert c.repro == "passcheck generate --drops --op 'Abs'"
    # every dropped pair (the generator's and its converter-adapter sources'), not the first of the reason
    refused = sum(n for k, n in doc["stats"]["dropped"]["Abs"].items() if k.endswith("rejects on the uncommon form"))
    # a schema none of whose pairs was kept keeps its first dropped common form as a reference-only base: still a drop
    kept_as_base = sum(1 for d in doc["stats"]["drops"] if d.get("kept_as"))
    assert len(c.drops) == refused + kept_as_base and refused > 1
    # each drop keeps its forms: the uncommon one the planted tool refused passes the real checker
    folder = next(p for p in tmp_path.glob("generated/*/*") if p.is_dir())
    for d in c.drops:
        assert set(d.files) == {"common", *d.files} and len(d.files) >= 2
        for f in d.files.values():
            onnx.checker.check_model(onnx.load(folder / f), full_check=True)
    # nothing else of Abs is blamed on a tool: the plant is the only candidate
    assert [x for x in got.candidates if x is not c] == []


def dataclasses_replace(result, error):
    import dataclasses

    return dataclasses.replace(result, outputs={}, error=error)


def test_planted_refusal_behind_the_families_gate_is_listed_per_form():
    from onnx import TensorProto as T
    from onnx import helper as h

    from passcheck.cases import schema_gate
    from passcheck.passes.isolation import IsolatedExecutor

    def model(node):
        x = h.make_tensor_value_info("x", T.FLOAT, [2, 3])
        y = h.make_tensor_value_info("y", T.FLOAT, [2, 3])
        return h.make_model(h.make_graph([node], "g", [x], [y]), opset_imports=[h.make_opsetid("", 13)], ir_version=8)

    common = model(h.make_node("Softmax", ["x"], ["y"]))
    written = model(h.make_node("Softmax", ["x"], ["y"], axis=-1))  # the default written out: the same op
    cand = schema_gate.Candidate(
        "interior/softmax-13.float", {"common": lambda _r: common, "axis-written": lambda _r: written}
    )

    class Refusing:
        def __init__(self, ex):
            self.ex = ex

        def __getattr__(self, name):
            return getattr(self.ex, name)

        def run_model(self, m, feeds, **kw):
            r = self.ex.run_model(m, feeds, **kw)
            return dataclasses_replace(r, PLANTED) if m.graph.node[0].attribute else r

    with IsolatedExecutor(timeout=60) as ex:
        verdict = schema_gate.judge(cand, Refusing(ex))
    assert verdict["forms"]["common"] == "" and PLANTED in verdict["forms"]["axis-written"]
    (d,) = gate_drops.family_drops("interior", {cand.id: verdict})
    assert (d.tool, d.op, d.form) == ("onnxruntime", "softmax", "axis-written")
    (c,) = gate_drops.group([d], entries=[])
    assert c.status == "candidate" and c.reason.startswith("does not run: " + PLANTED[:20])
    assert c.repro == "passcheck generate --drops --family interior --op 'softmax'"


@pytest.mark.parametrize(
    ("reason", "detail", "status"),
    [
        ("onnxruntime CPU has no kernel on the uncommon form", "x: NOT_IMPLEMENTED", "limit"),
        ("reference evaluator fails", "common: RuntimeError: No implementation for operator 'Clip'", "limit"),
        (  # a function body's node onnxruntime has no kernel for (round 20d): its own words, a limit
            "does not run",
            "common: NotImplemented: [ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Failed to find kernel for Swish(24)"
            " (node:'' ep:'CPUExecutionProvider'). Kernel not found",
            "limit",
        ),
        (
            "onnxruntime crashed on the uncommon form",
            "trailing-empty: onnxruntime killed its process: SIGSEGV",
            "known",
        ),
        ("onnxruntime rejects on the uncommon form", "omitted: Fail: something new", "candidate"),
    ],
)
def test_classes_are_triaged_as_limits_known_rows_or_candidates(reason, detail, status):
    d = gate_drops.Drop("generated", "generated/dft-20.optional-input", "DFT", "", "tool", reason, detail)
    (c,) = gate_drops.group([d], entries=[{"tool": "onnxruntime", "op": "^DFT$", "reason": "crashed", "row": 1176}])
    assert c.status == status
    assert (c.row == 1176) == (status == "known")


def test_passcheck_reasons_blame_no_tool_and_the_shapes_of_family_verdicts_are_read():
    d = gate_drops.Drop(
        "generated", "generated/x-1.shape", "X", "", "passcheck", "forms differ under both runtimes", ""
    )
    assert gate_drops.group([d])[0].status == "passcheck"
    docs = {
        "body-written/a-1.opset-1": {"forms": {"common": "", "op": "checker: ValidationError: bad"}, "ranks": {}},
        "commuted/p.add": {"gate": {"forms": {"common": "does not run: boom", "w": "common: does not run: boom"}}},
        "interior/b-2.float": "reference evaluator: TypeError: x",
        "interior/c-3.float": "tool: onnxruntime rejects: c: Fail: x",
        "interior/d-4.bool": "build: ValueError: no graph input",
        "interior/ml.normalizer-1.float": "tool: onnxruntime rejects: c: Fail: x",
    }
    got = {(d.id, d.form, d.tool) for d in gate_drops.family_drops("any", docs)}
    assert got == {
        ("body-written/a-1.opset-1", "op", "onnx checker"),
        ("commuted/p.add", "common", "onnxruntime"),
        ("interior/b-2.float", "common", "onnx reference evaluator"),
        ("interior/c-3.float", "common", "onnxruntime"),
        ("interior/d-4.bool", "common", "passcheck"),
        ("interior/ml.normalizer-1.float", "common", "onnxruntime"),
    }
    assert {d.op for d in gate_drops.family_drops("any", docs) if "ml." in d.id} == {"ml.normalizer"}
    static = {"kept": {"contrib-static/a-1.r2": {}}, "dropped": {"contrib-static/b-1.r2": "does not run: x"}}
    assert [d.id for d in gate_drops.family_drops("contrib-static", static)] == ["contrib-static/b-1.r2"]


def test_every_shipped_triage_entry_names_a_row_or_a_reason():
    from pathlib import Path

    found = (Path(__file__).resolve().parents[2] / "docs" / "found.md").read_text(encoding="utf-8")
    for e in gate_drops.known():
        assert e["tool"] and ("row" in e) != ("why" in e), e
        assert "row" not in e or f"\n| {e['row']} |" in found, e  # a row of docs/found.md


def test_an_onnxruntime_error_from_its_signal_ops_is_no_crash():
    """onnxruntime's error text names its source path (``providers/cpu/signal/dft.cc``): the gate read the word
    ``signal`` as a death by signal and listed STFT-17's zero-size refusal as a crash (round 19l)."""
    from passcheck.generate.gate import _ort_reason

    said = "Fail: Non-zero status code returned while running STFT node. Status Message: "
    said += "/onnxruntime_src/onnxruntime/core/providers/cpu/signal/dft.cc:581 short_time_fourier_transform"
    assert _ort_reason(said) == ("tool", "onnxruntime rejects")
    assert _ort_reason("killed by signal 11 (SIGSEGV)")[1] == "onnxruntime crashed"
    assert _ort_reason("onnxruntime killed its process: SIGSEGV")[1] == "onnxruntime crashed"
