"""Crash signatures changed spelling (op types and bare class → masked phrase and tool frame; then the
frame's module path → the tool's top-level package, passcheck/signature.py ``crash_error``): baselines,
hunt states and shards an older passcheck wrote still match through the signature's aliases, and are
rewritten in today's spelling. The same crash raised from a function another release moved to another
module is one signature."""

from __future__ import annotations

import json
from pathlib import Path

from passcheck.hunt import baseline
from passcheck.hunt.merge import merge
from passcheck.hunt.store import Store
from passcheck.records import Finding
from passcheck.signature import Signature

OLD_KEY = "onnxscript:optimize|acceptance|rejected|Sum,Transpose|neutral-one-input-variadic|ValueError"
OLD = Signature(
    "onnxscript:optimize", "acceptance", "rejected", ("Sum", "Transpose"), "neutral-one-input-variadic", "ValueError"
)
#: the error a crashed onnxscript:optimize outcome records (passcheck.passes._base._describe)
ERROR = (
    "ValueError: zero-size array to reduction operation maximum which has no identity\n"
    "  raised as PassError: An error occurred at step 0\n"
    "  tool frame: onnxscript.rewriter.rules.common._min_max_to_clip:FuseMaxMinToClip.compute_constants (line 190)\n"
    '  File "numpy/_core/fromnumeric.py", line 83, in _wrapreduction\n'
)


#: the key passcheck wrote while the frame carried its module path
PATH_KEY = (
    "onnxscript:optimize|acceptance|rejected||neutral-one-input-variadic|ValueError: zero-size array to "
    "reduction operation maximum which has no identity @ "
    "onnxscript.rewriter.rules.common._min_max_to_clip:FuseMaxMinToClip.compute_constants"
)


def _new(error: str = ERROR) -> Signature:
    f = Finding(
        "rejected",
        "acceptance",
        "c",
        "neutral-one-input-variadic@x",
        "onnxscript:optimize",
        "onnxscript:optimize crashed on this form only (accepted: common): ValueError: zero-size array …",
        {"status": "crashed", "error": error, "accepted_forms": ["common"], "kept_op_types": []},
    )
    return Signature.of(f, labels=["x"], models=[_model(False), _model(True)])  # the hunt's pair: base, mutant


def _model(one_input_sum: bool):
    from onnx import TensorProto, helper

    nodes = [helper.make_node("Sum", ["x"], ["s"])] if one_input_sum else []
    nodes.append(helper.make_node("Transpose", ["s" if one_input_sum else "x"], ["y"]))
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])],
    )
    return helper.make_model(g)


def test_the_new_spelling_names_the_old_ones():
    new = _new()
    assert OLD.key == OLD_KEY and new.aliases == (OLD_KEY, PATH_KEY)
    assert new.key == (
        "onnxscript:optimize|acceptance|rejected||neutral-one-input-variadic|ValueError: zero-size array to "
        "reduction operation maximum which has no identity @ onnxscript:FuseMaxMinToClip.compute_constants"
    )


def test_a_crash_whose_function_moved_to_another_module_is_one_signature():
    moved = _new(ERROR.replace("onnxscript.rewriter.rules.common._min_max_to_clip", "onnxscript.rewriter._min_max"))
    assert moved == _new() and moved.key == _new().key
    # another function, or another tool's package, is another crash
    assert _new(ERROR.replace(".compute_constants", ".check")) != _new()
    assert _new(ERROR.replace("tool frame: onnxscript.", "tool frame: onnx_ir.")) != _new()


def test_a_state_written_with_the_module_path_moves_to_todays_key(tmp_path):
    store = Store(tmp_path, {})
    store.signatures[PATH_KEY] = {"signature": _new().replace(error=PATH_KEY.rsplit("|", 1)[1]).to_json(), "hits": 4}
    new = _new()
    assert store.key_of(new) == new.key and list(store.signatures) == [new.key]
    assert store.signatures[new.key]["hits"] == 4


def test_a_baseline_an_older_passcheck_wrote_still_knows_the_crash_and_is_rewritten_in_todays_spelling(tmp_path):
    old_file = tmp_path / "known.json"
    entry = {"key": OLD_KEY, "signature": OLD.to_json(), "reason": "reported upstream", "case": "hunt/x-1"}
    old_file.write_text(json.dumps({"passcheck": "hunt-signatures", "version": 1, "signatures": [entry]}))
    known = baseline.load(old_file)
    new = _new()
    store = {new.key: {"signature": new.to_json(), "hits": 3, "case": "hunt/y-2"}}
    fresh, old = baseline.split(store, known)
    assert fresh == {} and list(old) == [new.key]
    assert baseline.write(old_file, store, previous=known) == 1
    doc = json.loads(old_file.read_text())
    assert [e["key"] for e in doc["signatures"]] == [new.key]  # the new spelling only, its reason kept
    assert doc["signatures"][0]["reason"] == "reported upstream" and doc["signatures"][0]["case"] == "hunt/x-1"
    assert baseline.split(store, baseline.load(old_file)) == ({}, store)  # and it still matches


def test_a_resumed_state_moves_an_old_spelled_record_to_todays_key(tmp_path):
    store = Store(tmp_path, {})
    store.signatures[OLD_KEY] = {"signature": OLD.to_json(), "hits": 2, "case": "hunt/x-1"}
    store.coarse["raw"] = OLD_KEY
    new = _new()
    assert store.key_of(new) == new.key and list(store.signatures) == [new.key]
    rec = store.signatures[new.key]
    assert rec["hits"] == 2 and rec["case"] == "hunt/x-1" and Signature.from_json(rec["signature"]) == new
    assert store.coarse == {"raw": new.key}
    assert store.key_of(OLD) is None  # moved: the old spelling alone names nothing now


def _shard(folder: Path, shard: str, sig: Signature, hits: int) -> Path:
    folder.mkdir()
    scope = {"seed": 1, "passes": ["onnxscript:optimize"], "cases": [], "cases_from": [], "generated": True}
    item = {"base": "c:0", "form": "f", "pass": "onnxscript:optimize", "triples": [], "signatures": []}
    doc = {
        "version": 1,
        "scope": {**scope, "shard": shard},
        "items": [{**item, "status": "done" if shard == "1/2" else "other-shard", "seconds": 0.1}]
        + [{**item, "status": "other-shard" if shard == "1/2" else "done", "seconds": 0.1}],
        "signatures": {sig.key: {"signature": sig.to_json(), "hits": hits, "case": None}},
        "coarse": {},
    }
    (folder / "hunt-state.json").write_text(json.dumps(doc))
    return folder


def test_merging_a_shard_an_older_passcheck_wrote_keeps_one_crash_signature(tmp_path):
    a = _shard(tmp_path / "a", "1/2", OLD, 2)
    b = _shard(tmp_path / "b", "2/2", _new(), 3)
    store, partial = merge([a, b], tmp_path / "m")
    assert partial == "" and list(store.signatures) == [_new().key]
    assert store.signatures[_new().key]["hits"] == 5
