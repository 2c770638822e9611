"""The xdist layout (tests/_schedule.py): worksteal's slices each start with their share of the listed slow tests."""

from __future__ import annotations

import json

from tests import _schedule


def _ids(n: int) -> list[str]:
    return [f"tests/m{i // 10}.py::t{i}" for i in range(n)]


def test_slices_are_worksteals_first_distribution():
    assert _schedule.slices(10, 2) == [5, 5]
    assert _schedule.slices(11, 2) == [5, 6]
    assert _schedule.slices(10, 3) == [3, 3, 4]


def test_slow_modules_head_the_slices_longest_first_whole_and_balanced():
    ids = _ids(60)
    seconds = {ids[35]: 100.0, ids[36]: 30.0, ids[5]: 60.0, ids[25]: 50.0, ids[26]: 5.0}
    order = _schedule.layout(ids, seconds, 2)
    assert sorted(order) == list(range(60))
    first, second = order[:30], order[30:]
    # m3 (130 s) on one worker; m0 (60 s) and m2 (55 s) on the other, each module whole, longest first
    assert first[:10] == list(range(30, 40))
    assert second[:20] == list(range(0, 10)) + list(range(20, 30))
    # the other modules fill the slices in collection order
    assert first[10:] + second[20:] == list(range(10, 20)) + list(range(40, 60))


def test_a_module_larger_than_a_slice_stays_in_place():
    ids = _ids(16)  # m0: 10 tests, more than a slice of 8
    order = _schedule.layout(ids, {ids[0]: 50.0, ids[12]: 1.0}, 2)
    assert order[:6] == list(range(10, 16)) and order[6:] == list(range(10))


def test_without_workers_or_table_the_collection_order_stands():
    ids = _ids(12)
    assert _schedule.layout(ids, {ids[3]: 9.0}, 1) == list(range(12))
    assert _schedule.layout(ids, {}, 2) == list(range(12))
    assert _schedule.layout(ids, {"tests/gone.py::t": 9.0}, 2) == list(range(12))


def _suite_durations():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "suite_durations.py"
    spec = importlib.util.spec_from_file_location("_suite_durations", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_logs_durations_lines_join_the_table_at_its_scale(tmp_path):
    """A CI log's ``--durations`` lines: phases summed per test, scaled by the median table/log ratio of the
    tests both list, replacing or joining rows; a row the log leaves out is at most its shortest phase (2 s,
    scaled: 8); the rest of the table stays."""
    sd = _suite_durations()
    log = tmp_path / "ci.log"
    log.write_text(
        "tests/a.py::t1 PASSED\n"
        "===== slowest 25 durations =====\n"
        "10.00s call     tests/a.py::t1\n"
        " 2.00s setup    tests/a.py::t1\n"
        "20.00s call     tests/b.py::t[x y]\n"
        "30.00s call     tests/c.py::t\n"
        "(3 durations < 0.005s hidden.  Use -vv to show these durations.)\n"
    )
    fresh = {"tests/a.py::t1": 12.0, "tests/b.py::t[x y]": 20.0, "tests/c.py::t": 30.0}
    assert sd.log_seconds(log.read_text()) == fresh
    out = tmp_path / "durations.json"
    old = {"tests/a.py::t1": 36.0, "tests/b.py::t[x y]": 100.0, "tests/d.py::t": 7, "tests/e.py::t": 50.0}
    out.write_text(json.dumps({"source": "old", "tests": old}))
    assert sd.main(["--log", str(log), "--out", str(out)]) == 0
    table = _schedule.load_table(out)  # ratios 3 and 5: the median, 4
    assert table == {
        "tests/c.py::t": 120.0,
        "tests/b.py::t[x y]": 80.0,
        "tests/a.py::t1": 48.0,
        "tests/e.py::t": 8.0,
        "tests/d.py::t": 7.0,
    }
    assert sd.main(["--log", str(tmp_path / "absent.log"), "--out", str(out)]) == 2
