"""'passcheck merge' of hunt folders on states written as a shard writes them: one signature two
shards both found is kept once (Signature key, hits summed, the first folder's shrunk pair and
reproduce command moved into the merged folder); a folder of another hunt is refused."""

import json
from pathlib import Path

import pytest

from passcheck.errors import PasscheckError
from passcheck.hunt.merge import merge
from passcheck.signature import Signature

SIG = Signature("ort:basic", "parity", "missed-optimization", ("Mul",), "commute-operands")


def _shard(folder: Path, shard: str, hits: int, mine: int, seed: int = 1) -> Path:
    module = folder / "cases" / "hunt_abc.py"
    module.parent.mkdir(parents=True)
    module.write_text(f"# pair of shard {shard}\n")
    items = [
        {
            "base": f"c:{i}",
            "form": "commute-operands",
            "pass": "ort:basic",
            "triples": [],
            "signatures": [],
            "status": "done" if i % 2 == mine else "other-shard",
            "seconds": 0.5,
        }
        for i in range(4)
    ]
    rec = {
        "signature": SIG.to_json(),
        "hits": hits,
        "case": "hunt/x-abc",
        "case_module": str(module),
        "repro": f"passcheck run --cases-from {module} --case hunt/x-abc --pass ort:basic",
    }
    doc = {
        "version": 1,
        "scope": {
            "seed": seed,
            "passes": ["ort:basic"],
            "cases": [],
            "cases_from": [],
            "generated": True,
            "shard": shard,
        },
        "items": items,
        "signatures": {SIG.key: rec},
        "coarse": {"raw": SIG.key},
    }
    (folder / "hunt-state.json").write_text(json.dumps(doc))
    return folder


def test_one_signature_of_two_shards_is_kept_once_with_hits_summed(tmp_path):
    a, b = _shard(tmp_path / "a", "1/2", hits=2, mine=0), _shard(tmp_path / "b", "2/2", hits=3, mine=1)
    store, partial = merge([a, b], tmp_path / "m")
    assert partial == "" and [i["base"] for i in store.items] == ["c:0", "c:1", "c:2", "c:3"]
    assert list(store.signatures) == [SIG.key] and store.signatures[SIG.key]["hits"] == 5
    kept = tmp_path / "m" / "cases" / "hunt_abc.py"
    assert [p.name for p in kept.parent.iterdir()] == ["hunt_abc.py"] and kept.read_text() == "# pair of shard 1/2\n"
    assert store.signatures[SIG.key]["repro"] == f"passcheck run --cases-from {kept} --case hunt/x-abc --pass ort:basic"
    saved = json.loads((tmp_path / "m" / "hunt-state.json").read_text())
    assert saved["signatures"][SIG.key]["hits"] == 5 and saved["scope"]["merged"] == [str(a), str(b)]


def test_a_folder_of_another_hunt_is_refused(tmp_path):
    a, b = _shard(tmp_path / "a", "1/2", 1, 0), _shard(tmp_path / "b", "2/2", 1, 1, seed=2)
    with pytest.raises(PasscheckError, match="a different hunt \\(seed differ"):
        merge([a, b], tmp_path / "m")
    with pytest.raises(PasscheckError, match="is one of the folders merged"):
        merge([a, b], a)
    other = _shard(tmp_path / "c", "1/2", 1, 0)
    with pytest.raises(PasscheckError, match="holds a hunt \\(not a merge\\)"):
        merge([a, _shard(tmp_path / "d", "2/2", 1, 1)], other)


def test_a_merge_again_replaces_the_earlier_one_and_its_pairs(tmp_path):
    a, b = _shard(tmp_path / "a", "1/2", 2, 0), _shard(tmp_path / "b", "2/2", 3, 1)
    merge([a, b], tmp_path / "m")
    (tmp_path / "m" / "cases" / "hunt_stale.py").write_text("# a pair no signature names\n")
    store, _ = merge([a, b], tmp_path / "m")
    assert store.signatures[SIG.key]["hits"] == 5
    assert [p.name for p in (tmp_path / "m" / "cases").iterdir()] == ["hunt_abc.py"]


def test_version_windows_of_two_shards_are_joined(tmp_path):
    a, b = _shard(tmp_path / "a", "1/2", 1, 0), _shard(tmp_path / "b", "2/2", 1, 1)
    for folder, window in ((a, {"present": ["e2"], "absent": ["e1"]}), (b, {"present": ["e3"], "absent": ["e1"]})):
        doc = json.loads((folder / "hunt-state.json").read_text())
        doc["signatures"][SIG.key]["window"] = window
        doc["signatures"][SIG.key]["bisect"] = f"passcheck bisect --cases-from {folder}/cases/hunt_abc.py"
        (folder / "hunt-state.json").write_text(json.dumps(doc))
    store, _ = merge([a, b], tmp_path / "m")
    rec = store.signatures[SIG.key]
    assert rec["window"] == {"present": ["e2", "e3"], "absent": ["e1"]}
    assert rec["bisect"] == f"passcheck bisect --cases-from {tmp_path / 'm' / 'cases' / 'hunt_abc.py'}"


def _with_passes(folder: Path, steps: int, passes: list[str], digest: str) -> Path:
    """``folder``'s state cut to ``steps`` items, recording the passes its last step drew from."""
    doc = json.loads((folder / "hunt-state.json").read_text())
    doc["items"] = doc["items"][:steps]
    doc["scope"].update(passes=passes, pass_sets=digest)
    (folder / "hunt-state.json").write_text(json.dumps(doc))
    return folder


def test_time_budget_shards_whose_last_steps_saw_more_map_rows_merge_with_the_longest_walks_passes(tmp_path):
    # a state records the passes of its last step (the map grows with the steps, passcheck.hunt.lazymap):
    # shards of a time budget end at different steps, so their passes may differ, and they are one hunt
    a = _with_passes(_shard(tmp_path / "a", "1/2", hits=1, mine=0), 3, ["ort:basic"], "d3")
    b = _with_passes(_shard(tmp_path / "b", "2/2", hits=1, mine=1), 4, ["ort:basic", "onnxsim:simplify"], "d4")
    store, _ = merge([a, b], tmp_path / "m")
    assert len(store.items) == 4 and store.scope["passes"] == ["ort:basic", "onnxsim:simplify"]
    assert store.scope["pass_sets"] == "d4"
    c = _with_passes(_shard(tmp_path / "c", "2/2", hits=1, mine=1), 3, ["ort:basic", "onnxsim:simplify"], "d4")
    with pytest.raises(PasscheckError, match="a different hunt \\(pass_sets, passes differ"):
        merge([a, c], tmp_path / "m2")  # as many steps, other passes: another hunt
