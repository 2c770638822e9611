"""The coverage map built inside the hunt's budget (passcheck.hunt.lazymap): with an empty cache the
first item is tried before the map is complete, a hunt resumed after a partial map tries the items an
uninterrupted hunt with a full cache tries, and the cache's rows are appended without losing another
writer's (passcheck.coverage.cache)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from passcheck.coverage.cache import ROWS, Cache
from tests._inproc import cli

# 14 map bases: more than the 12 rows step 0 sees (lazymap.FIRST), all seen from step 3 on (the broadcast family
# without its unidirectional-* bases, session 38, so the count stays 14)
CASES = ("--case", "axes/*", "--case", "broadcast/[!u]*")


def _hunt(out: Path, cache: Path, budget: str, *args: str) -> subprocess.CompletedProcess:
    """The hunt in this process (tests/_inproc.py: no interpreter start and imports per hunt), its cache
    folder ``cache``."""
    argv = ["hunt", *CASES, "--no-generated", "--no-variation", "--seed", "5"]
    argv += ["--budget", budget, "--out", str(out), "--progress", "lines", *args]
    env = {"PASSCHECK_PROGRESS_EVERY": "0", "PASSCHECK_CACHE": str(cache), "PASSCHECK_FORMS_CACHE": "1"}
    return cli(*argv, env=env)  # the forms listing cache on: hunts sharing ``cache`` list each base once


def _items(out: Path) -> list[tuple[str, str, str]]:
    state = json.loads((out / "hunt-state.json").read_text())
    return [(i["base"], i["form"], i["pass"]) for i in state["items"]]


def test_first_item_is_tried_before_the_map_is_complete(tmp_path):
    r = _hunt(tmp_path / "h", tmp_path / "empty-cache", "4items")
    assert r.returncode in (0, 1), r.stderr
    counts = re.findall(r"(\d+)/4 items \(\d+ signatures; map: (\d+)/(\d+) bases", r.stderr)
    assert [c[0] for c in counts] == ["1", "2", "3", "4"], r.stderr
    first, last = counts[0], counts[-1]
    assert int(first[1]) < int(first[2]) == 14, r.stderr  # item 1 ran with 12 of 14 rows known
    assert int(last[1]) == int(last[2]) == 14, r.stderr  # the rest were observed at step 3
    rows = (tmp_path / "empty-cache" / "coverage").glob(f"*/{ROWS}")
    assert sum(len(p.read_text().splitlines()) for p in rows) >= 14  # every row kept for the next hunt


def test_resume_after_a_partial_map_tries_the_items_of_a_hunt_with_a_full_cache(tmp_path):
    cold, warm = tmp_path / "cold-cache", tmp_path / "warm-cache"
    first = _hunt(tmp_path / "resumed", cold, "2items")  # stops with 12 of 14 rows observed
    assert first.returncode in (0, 1), first.stderr
    assert "map: 12/14 bases" in first.stderr
    again = _hunt(tmp_path / "resumed", cold, "5items", "--resume")
    assert again.returncode in (0, 1), again.stderr
    rows = (cold / "coverage").glob(f"*/{ROWS}")
    assert sum(len(p.read_text().splitlines()) for p in rows) >= 14, again.stderr  # the resumed hunt saw them all
    shutil.copytree(cold, warm)  # every row in the cache before the compared hunt
    whole = _hunt(tmp_path / "whole", warm, "7items")
    assert whole.returncode in (0, 1), whole.stderr
    assert len(_items(tmp_path / "whole")) == 7
    assert _items(tmp_path / "resumed") == _items(tmp_path / "whole")


def _observed_tools(cache: Path) -> dict[str, int]:
    """Catalogue tool → rows the hunts sharing ``cache`` observed under it."""
    out: dict[str, int] = {}
    for path in (cache / "coverage").glob(f"*/{ROWS}"):
        for line in path.read_text().splitlines():
            tool = json.loads(line)["tool"]
            out[tool] = out.get(tool, 0) + 1
    return out


def test_a_hunt_of_one_pass_observes_only_the_catalogue_its_pass_runs(tmp_path):
    # observing every tool for one --pass spent half a cold-cache 2-minute hunt (docs/hunt.md): the rows of
    # the other tools steer none of its items
    one = _hunt(tmp_path / "one", tmp_path / "one-cache", "1items", "--pass", "ort:symbolic-shape-infer")
    assert one.returncode in (0, 1), one.stderr
    assert _observed_tools(tmp_path / "one-cache") == {"ort-symbolic-shape-infer": 12}, one.stderr
    assert "ort-symbolic-shape-infer: 0 -> " in one.stderr and "onnx-version-converter: 0 -> " not in one.stderr
    every = _hunt(tmp_path / "every", tmp_path / "every-cache", "1items")  # no --pass: every pass, every tool
    assert every.returncode in (0, 1), every.stderr
    tools = _observed_tools(tmp_path / "every-cache")
    assert {"onnx-version-converter", "onnxruntime", "ort-symbolic-shape-infer"} <= set(tools), every.stderr
    assert set(tools.values()) == {12}, tools


def _row(i: int, writer: str) -> tuple[str, str, dict[str, str]]:
    return f"{writer}-{i:04d}", "onnx-shape-inference", {"Add@14": f"{writer} {i}"}


# a writer process: a fresh interpreter importing passcheck only (the test module is not importable from a
# child under pytest's importlib mode); its rows are _row(i, writer)
_WRITER = """
import sys
from pathlib import Path
from passcheck.coverage.cache import Cache
folder, writer, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
cache = Cache(folder=Path(folder))
for i in range(n):
    cache.put(f"{writer}-{i:04d}", "onnx-shape-inference", {"Add@14": f"{writer} {i}"})
    cache.save()
"""


def test_two_caches_open_at_once_keep_each_others_rows(tmp_path):
    one, two = Cache(folder=tmp_path), Cache(folder=tmp_path)  # both read the folder before either writes
    one.put(*_row(0, "one"))
    one.save()
    two.put(*_row(0, "two"))
    two.save()
    again = Cache(folder=tmp_path)
    assert again.get(*_row(0, "one")[:2]) == _row(0, "one")[2]
    assert again.get(*_row(0, "two")[:2]) == _row(0, "two")[2]
    assert one.reload() == 1 and one.get(*_row(0, "two")[:2]) == _row(0, "two")[2]  # another writer's row, read


def test_two_concurrent_writer_processes_lose_no_rows_and_a_torn_line_is_skipped(tmp_path):
    (tmp_path / ROWS).write_text('{"digest": "torn", "tool": "onnx-sh')  # a writer killed mid-line
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path), w, "200"]) for w in ("a", "b")]
    for p in procs:
        assert p.wait(timeout=300) == 0
    cache = Cache(folder=tmp_path)
    for w in ("a", "b"):
        for i in range(200):
            digest, tool, triggers = _row(i, w)
            assert cache.get(digest, tool) == triggers, (w, i)
    assert cache.get("torn", "onnx-shape-inference") is None
