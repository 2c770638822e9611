"""tests/_case_gates.py: a fresh cache seeded with the library's gate verdicts lists the same cases in a new
passcheck process, which judges no gated base again."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests import _case_gates

#: every case id, the gated families (lazy sources) claimed
_LIST = (
    "import json; from passcheck.cases import registry; r = registry(); r.claim_library(); "
    "print(json.dumps(sorted(c.id for c in r)))"
)


def test_a_seeded_cache_lists_the_same_cases_and_judges_no_gated_base_again(tmp_path):
    modules = _case_gates.gated_modules()
    assert {m.FAMILY for m in modules} >= {"contrib", "function-body"}, [m.__name__ for m in modules]
    cache = _case_gates.seeded(tmp_path / "cache")
    indexes = [cache / m.FAMILY / m.gate_key() / "index.json" for m in modules]
    assert all(p.is_file() for p in indexes), sorted(str(p.relative_to(cache)) for p in cache.rglob("*"))
    stamps = [p.stat().st_mtime_ns for p in indexes]

    env = {**os.environ, "PASSCHECK_CACHE": str(cache)}
    r = subprocess.run([sys.executable, "-c", _LIST], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    # against a process on the cache in force (this process's registry may hold cases other tests registered)
    ref = subprocess.run([sys.executable, "-c", _LIST], capture_output=True, text=True, timeout=600)
    assert ref.returncode == 0, ref.stderr[-2000:]
    assert json.loads(r.stdout) == json.loads(ref.stdout)
    # a gate that runs says so on stderr (built_set's announce) and writes its folder anew
    assert "passcheck:" not in r.stderr, r.stderr[-2000:]
    assert [p.stat().st_mtime_ns for p in indexes] == stamps
    assert not [p.name for m in modules for p in (cache / m.FAMILY).glob("*.tmp*")]


def test_a_verdict_folder_not_finished_at_the_source_is_not_copied(tmp_path, monkeypatch):
    m = _case_gates.gated_modules()[0]  # the library loaded under the cache in force: no gate runs below
    (tmp_path / "source").mkdir()
    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path / "source"))
    half = tmp_path / "source" / m.FAMILY / m.gate_key()
    half.mkdir(parents=True)
    (half / "partial.json").write_text("{}")  # a build that stopped: no index.json
    cache = _case_gates.seeded(tmp_path / "cache")
    assert cache.is_dir() and not (cache / m.FAMILY).exists()
