"""'passcheck merge' of 'hunt --env' shards: each signature's bisect command comes from its own
joined window and the pins the hunt recorded (``scope["env_pins"]``), not from the first shard's
window. Shard 1 saw the signature in the newer environment only while the older one could not
judge its item (no bisect there); shard 2 saw the older one judge it without the signature."""

import json
from pathlib import Path

from passcheck.cli import main
from passcheck.signature import Signature

SIG = Signature("planted:p", "validity", "invalid-model", ("Relu",), "commute-operands")
OLD, NEW = "hunt-ort-1.31.1", "hunt-ort-1.32.0"
PINS = {
    OLD: ["onnx==1.23.2", "onnxruntime==1.31.1", "onnxscript==0.7.2"],
    NEW: ["onnx==1.23.2", "onnxruntime==1.32.0", "onnxscript==0.7.2"],
}
FINDING = "hunt/env-abc:uncommon|planted:p|validity|invalid-model"


def _shard(folder: Path, shard: str, mine: int, window: dict, bisect: str) -> Path:
    module = folder / "cases" / "hunt_env_abc.py"
    module.parent.mkdir(parents=True)
    module.write_text("# the pair\n")
    items = [
        {"base": f"c:{i}", "form": "commute-operands", "pass": "planted:p", "signatures": [], "seconds": 0.5}
        | {"status": "done" if i % 2 == mine else "other-shard"}
        for i in range(2)
    ]
    rec = {
        "signature": SIG.to_json(),
        "hits": 1,
        "case": "hunt/env-abc",
        "case_module": str(module),
        "finding": FINDING,
        "window": window,
        "bisect": bisect,
        "repro": f"passcheck run --cases-from {module} --case hunt/env-abc --pass planted:p",
    }
    scope = {"seed": 0, "passes": ["planted:p"], "cases": [], "cases_from": [], "generated": False}
    scope |= {"envs": [OLD, NEW], "env_pins": PINS, "shard": shard}
    doc = {"version": 1, "scope": scope, "items": items, "signatures": {SIG.key: rec}, "coarse": {}}
    (folder / "hunt-state.json").write_text(json.dumps(doc))
    return folder


def test_merged_bisect_comes_from_the_joined_window(tmp_path, capfd):
    a = _shard(
        tmp_path / "a",
        "1/2",
        0,
        {"present": [NEW], "absent": []},
        "no bisect: the signature is not absent in any environment that judged it",
    )
    b = _shard(
        tmp_path / "b",
        "2/2",
        1,
        {"present": [NEW], "absent": [OLD]},
        f"passcheck bisect --finding '{FINDING}' --cases-from {tmp_path}/b/cases/hunt_env_abc.py "
        "--package onnxruntime --versions 1.31.1,1.32.0",
    )
    out = tmp_path / "m"
    main(["merge", str(a), str(b), "--out", str(out)])
    printed = capfd.readouterr()
    rec = json.loads((out / "hunt-state.json").read_text())["signatures"][SIG.key]
    assert rec["window"] == {"present": [NEW], "absent": [OLD]}
    module = out / "cases" / "hunt_env_abc.py"
    assert rec["bisect"] == (
        f"passcheck bisect --finding '{FINDING}' --cases-from {module} --package onnxruntime --versions 1.31.1,1.32.0"
    )
    assert f"bisect: {rec['bisect']}" in printed.out + printed.err


def test_a_state_without_pins_keeps_the_shards_command(tmp_path):
    """A hunt state from before the pins were recorded: the command stays the first shard's (moved)."""
    a = _shard(tmp_path / "a", "1/2", 0, {"present": [NEW], "absent": [OLD]}, "passcheck bisect --x")
    b = _shard(tmp_path / "b", "2/2", 1, {"present": [NEW], "absent": [OLD]}, "passcheck bisect --y")
    for folder in (a, b):
        doc = json.loads((folder / "hunt-state.json").read_text())
        del doc["scope"]["env_pins"]
        (folder / "hunt-state.json").write_text(json.dumps(doc))
    main(["merge", str(a), str(b), "--out", str(tmp_path / "m")])
    rec = json.loads((tmp_path / "m" / "hunt-state.json").read_text())["signatures"][SIG.key]
    assert rec["bisect"] == "passcheck bisect --x"
