"""A partial node-test set imports only the onnx example modules that can name its tests
(:mod:`passcheck.nodetests.select`), with the exact-name guard falling back to every example."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

from passcheck.nodetests import select


def test_a_fragment_is_a_prefix_of_every_name_its_module_writes():
    mod = select.Module("m", frozenset({"test_abs", "test_"}))
    lit = select.Module("lit", frozenset({"test_slice_neg_steps", "test_slice_default_axes"}))
    assert mod.may_hold(["test_anything"])  # a bare ``test_`` (an f-string's field follows): every name
    assert lit.may_hold(["test_slice_neg_steps_expanded"])  # expect's ``_expanded`` suffix
    assert lit.may_hold(["test_sl*"]) and lit.may_hold(["test_slice_neg*"]) and lit.may_hold(["*"])
    assert not lit.may_hold(["test_abs", "test_sla*", "test_slice_x?"])


def test_the_modules_read_are_those_collect_testcases_imports():
    import onnx.backend.test.case.node as node

    walked = {m.name for m in pkgutil.walk_packages(node.__path__, node.__name__ + ".")}
    if not getattr(__import__("onnx"), "ONNX_ML", True):
        walked = {m for m in walked if not m.startswith(node.__name__ + ".ai_onnx_ml")}
    read = select.modules()
    assert {m.name for m in read} == walked
    assert sum(not m.fragments for m in read) <= 3  # packages' __init__ only: a module read empty is a bug


def test_a_partial_set_runs_only_its_modules_and_gets_exactly_its_tests():
    names = ["test_abs", "test_slice_neg_steps", "test_gather_negative*"]
    code = (
        "import json, sys, warnings; warnings.simplefilter('ignore')\n"
        "from passcheck.nodetests.select import collect\n"
        f"tests = collect({names!r})\n"
        "ran = sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('onnx.backend.test.case.node.'))\n"
        "print(json.dumps([sorted(t.name for t in tests), ran]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    got, ran = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == ["test_abs", "test_gather_negative_indices", "test_slice_neg_steps"]
    assert {"abs", "gather", "slice"} <= set(ran) and "cast" not in ran and len(ran) < 20


def test_an_exact_name_the_selection_misses_falls_back_to_every_example(monkeypatch):
    """Planted: a selection that reads no module (as if onnx named a test in a way the fragments miss)."""
    import onnx.backend.test.case.node as node

    class Case:
        def __init__(self, name):
            self.name = name

    full = []
    monkeypatch.setattr(node, "_NodeTestCases", [])
    monkeypatch.setattr(select, "modules", lambda: [])
    monkeypatch.setattr(node, "collect_testcases", lambda op_type=None: full.append(op_type) or [Case("test_abs")])
    assert [t.name for t in select.collect(["test_abs"])] == ["test_abs"] and full == [None]
    full.clear()
    assert select.collect(["test_nothing_*"]) == [] and full == []  # a glob: no guard, the selection is trusted


@pytest.mark.parametrize("globs", [[]])
def test_no_names_is_the_whole_collection(monkeypatch, globs):
    import onnx.backend.test.case.node as node

    monkeypatch.setattr(node, "collect_testcases", lambda op_type=None: ["every"])
    assert select.collect(globs) == ["every"]
