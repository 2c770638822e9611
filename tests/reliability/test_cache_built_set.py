"""A cached set (generated cases, onnx's node tests) is built once per cache, whoever asks
(passcheck/_cache.py ``built_set``): a second process waits for the first instead of building it
again and then deleting the folder the first is reading; a build that stops leaves no temporary folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from passcheck import _cache

DEADLINE = 300.0


def _fake_set(tmp: Path, tag: str) -> dict:
    (tmp / "index.json").write_text(f'{{"tag": "{tag}"}}', encoding="utf-8")
    return {"tag": tag}


def test_a_second_asker_waits_for_the_first_build_and_reads_it(tmp_path, capfd):
    folder = tmp_path / "generated" / "abc"
    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow(tmp: Path) -> dict:
        calls.append("slow")
        started.set()
        assert release.wait(DEADLINE)
        return _fake_set(tmp, "first")

    got: dict[str, object] = {}
    first = threading.Thread(target=lambda: got.__setitem__("first", _cache.built_set(folder, slow)))
    first.start()
    assert started.wait(DEADLINE)
    second = threading.Thread(
        target=lambda: got.__setitem__(
            "second", _cache.built_set(folder, lambda t: calls.append("again") or _fake_set(t, "again"))
        )
    )
    second.start()
    deadline, err = time.monotonic() + DEADLINE, ""
    try:
        while second.is_alive() and "waiting for another passcheck" not in err:  # the second one says it waits
            assert time.monotonic() < deadline
            time.sleep(0.05)
            err += capfd.readouterr().err
        assert "waiting for another passcheck" in err, err
    finally:
        release.set()
    first.join(DEADLINE)
    second.join(DEADLINE)
    assert calls == ["slow"], calls
    assert got == {"first": {"tag": "first"}, "second": {"tag": "first"}}  # the second read what the first built
    assert (folder / "index.json").read_text(encoding="utf-8") == '{"tag": "first"}'
    assert sorted(p.name for p in folder.parent.iterdir()) == ["abc", "abc.lock"]


def test_a_failed_build_leaves_no_temporary_folder_and_the_next_one_builds(tmp_path):
    folder = tmp_path / "abc"

    def broken(tmp: Path) -> dict:
        (tmp / "half.onnx").write_bytes(b"x")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _cache.built_set(folder, broken)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["abc.lock"]
    assert _cache.built_set(folder, lambda t: _fake_set(t, "second")) == {"tag": "second"}


def test_a_killed_builder_s_folder_is_removed_by_the_next_build(tmp_path):
    folder = tmp_path / "abc"
    (tmp_path / "abc.tmp4242" / "models").mkdir(parents=True)  # what `kill -9` mid-build leaves
    (tmp_path / "abc-partial.tmp1").mkdir()  # another set's: not this folder's to remove
    assert _cache.built_set(folder, lambda t: _fake_set(t, "x")) == {"tag": "x"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["abc", "abc-partial.tmp1", "abc.lock"]


def test_refresh_builds_again_and_replaces_the_folder(tmp_path):
    folder = tmp_path / "abc"
    _cache.built_set(folder, lambda t: _fake_set(t, "old"))
    assert _cache.built_set(folder, lambda t: _fake_set(t, "old-again")) == {"tag": "old"}
    assert _cache.built_set(folder, lambda t: _fake_set(t, "new"), refresh=True) == {"tag": "new"}
    assert (folder / "index.json").read_text(encoding="utf-8") == '{"tag": "new"}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["abc", "abc.lock"]


GENERATE = "from passcheck.generate import index; print(len(index(ops=['Relu'])['cases']))"


def test_ctrl_c_while_generating_the_real_set_leaves_no_temporary_folder(tmp_path):
    env = {**os.environ, "PASSCHECK_CACHE": str(tmp_path)}
    p = subprocess.Popen([sys.executable, "-c", GENERATE], env=env, stderr=subprocess.PIPE, text=True)
    root = tmp_path / "generated"
    deadline = time.monotonic() + DEADLINE
    while not any(root.glob("*/*.tmp*/models")):  # the generator is writing its models
        assert p.poll() is None and time.monotonic() < deadline, p.stderr.read() if p.poll() is not None else ""
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=DEADLINE)
    # on a loaded machine the build may finish before the signal lands: then it exits 0 with the set in place
    assert p.returncode != 0 or not any(root.glob("*/*.tmp*")), err
    assert [q.name for q in root.glob("*/*") if ".tmp" in q.name] == [], err
    r = subprocess.run([sys.executable, "-c", GENERATE], env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert r.returncode == 0 and int(r.stdout) > 0, r.stderr
    assert [q.name for q in root.glob("*/*") if ".tmp" in q.name] == []


def test_a_family_gate_judges_once_per_key_and_module_text(tmp_path, monkeypatch):
    """``schema_gate.cached`` (the schema-built families' gate, M350/M351/M353): a second load reads the cached
    verdicts; another key part or another module text judges again."""
    from passcheck.cases import schema_gate

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path / "cache"))
    module = tmp_path / "family.py"
    module.write_text("# v1\n", encoding="utf-8")
    calls: list[int] = []

    def judge() -> dict:
        calls.append(1)
        return {"family/a": {"common": ""}}

    assert schema_gate.cached("fam", ("k1", module), judge) == {"family/a": {"common": ""}}
    assert schema_gate.cached("fam", ("k1", module), judge) == {"family/a": {"common": ""}}
    assert len(calls) == 1
    schema_gate.cached("fam", ("k2", module), judge)
    module.write_text("# v2\n", encoding="utf-8")
    schema_gate.cached("fam", ("k2", module), judge)
    assert len(calls) == 3


def test_a_family_keeps_its_last_used_gate_keys_and_removes_the_idle_rest(tmp_path, monkeypatch):
    """``schema_gate.cached`` prunes its family's other keys (M379, ``_cache.prune``): the :data:`KEEP` last used
    stay, one beyond them stays while used within :data:`IDLE` seconds or while a builder holds its lock; the
    removed ones' lock files go too."""
    import fcntl

    from passcheck.cases import schema_gate

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path / "cache"))
    family = tmp_path / "cache" / "fam"
    day_ago = time.time() - schema_gate.IDLE - 60
    old = []
    for k in range(schema_gate.KEEP + 3):  # oldest first
        folder = family / f"old{k:02d}"
        folder.mkdir(parents=True)
        (folder / "index.json").write_text("{}", encoding="utf-8")
        folder.with_name(folder.name + ".lock").touch()
        os.utime(folder, (day_ago - 3600 + k, day_ago - 3600 + k))
        old.append(folder)
    recent = old[0]  # the oldest, but used an hour ago: kept
    os.utime(recent, (time.time() - 3600, time.time() - 3600))
    held = old[1]
    with open(held.with_name(held.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a builder rebuilding it now
        assert schema_gate.cached("fam", ("k1",), lambda: {"family/a": {}}) == {"family/a": {}}
    current = family / schema_gate.gate_key(("k1",))
    kept = sorted(p.name for p in family.iterdir() if p.is_dir())
    newest = [p.name for p in old[-(schema_gate.KEEP - 2) :]]  # current and the one used an hour ago are two
    assert kept == sorted({current.name, recent.name, held.name, *newest}), kept
    gone = [p for p in old if p.name not in kept]
    assert gone and not any(p.with_name(p.name + ".lock").exists() for p in gone)
    # the next load, the builder gone, removes the one it held, and nothing else
    schema_gate.cached("fam", ("k1",), lambda: {"family/a": {}})
    assert sorted(p.name for p in family.iterdir() if p.is_dir()) == sorted(set(kept) - {held.name})
