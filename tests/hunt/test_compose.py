"""Rewrites of a neighbour (:mod:`passcheck.hunt.compose`): the hunt's item "rewrite R of neighbour V of base B",
judged as the pair ``(V(B), R(V(B)))``.

A planted pass that rebuilds a QuantizeLinear → DequantizeLinear pair from the DequantizeLinear's inputs
(``tests/hunt/planted_compose.py``) is wrong only where a DequantizeLinear omits its zero point on int8 data. The
base states int8 3, so ``optional-input-default-omitted`` does not apply to it; ``vary:int-zero`` makes it int8 0,
where the rewrite applies: only the composed item shows the pass wrong, with real onnxruntime runs.
"""

from __future__ import annotations

import json
import random
import shlex
import subprocess
from pathlib import Path

import pytest

from passcheck.hunt import compose
from passcheck.mutations import forms as hforms
from tests._inproc import cli, planted

PLANTED = Path(__file__).with_name("planted_compose.py")
P = planted(PLANTED)  # the planted pass and base case, registered on import

COMPOSED = "vary:int-zero@z>optional-input-default-omitted@dequant"
REPO = PLANTED.parents[2]
ENV = PLANTED.parent / "envs" / "hunt-ort-1.32.0.txt"  # the onnx 1.23 line, onnxruntime 1.32.0


def _hunt(out: Path, *args: str) -> subprocess.CompletedProcess:
    """``passcheck hunt`` in this process (tests/_inproc.py); the saved pair's reproduce command runs as printed."""
    argv = ["hunt", "--cases-from", PLANTED, "--case", "compose-test/*"]
    argv += ["--pass", P.PASS_ID, "--seed", "1", "--no-coverage", "--vary-kind", "int-*", "--out", out]
    return cli(*argv, "--progress", "none", *args)


def _state(out: Path) -> dict:
    return json.loads((out / "hunt-state.json").read_text())


def test_a_neighbour_opens_a_site_the_base_does_not_have():
    base = P.base()
    assert hforms.sites(hforms.named(base), "optional-input-default-omitted") == []  # int8 3 is no default
    fresh, touched = compose.compositions(base, "vary:int-zero@z", random.Random(0))
    assert COMPOSED in fresh, (fresh, touched)
    assert all(f not in fresh for f in touched) and len(fresh) + len(touched) <= compose.PER_NEIGHBOUR
    neighbour, mutant, labels = compose.build(base, COMPOSED)
    assert [len(n.input) for n in neighbour.graph.node] == [3, 3, 1]
    assert [len(n.input) for n in mutant.graph.node] == [3, 2, 1] and labels
    assert compose.kind(COMPOSED) == "vary:int-zero>optional-input-default-omitted"
    assert compose.compositions(base, "vary:int-nudge@z", random.Random(0))[0] == []  # int8 4: still no default


def test_the_planted_pass_is_found_only_through_a_composed_item_and_its_saved_pair_reproduces(tmp_path):
    r = _hunt(tmp_path / "off", "--budget", "20items", "--no-compose")
    assert r.returncode == 0, r.stdout + r.stderr
    off = _state(tmp_path / "off")
    assert not off["signatures"] and not [i for i in off["items"] if compose.is_composed(i["form"])], off

    r = _hunt(tmp_path / "on", "--budget", "20items")
    assert r.returncode == 1, r.stdout + r.stderr
    state = _state(tmp_path / "on")
    assert "rewrites of a neighbour" in r.stderr, r.stderr
    (sig,) = state["signatures"].values()
    assert sig["signature"]["rewrite"] == "vary:int-zero>optional-input-default-omitted", sig
    assert sig["signature"]["kind"] == "wrong-result" and sig["found_on"]["form"] == COMPOSED, sig
    assert sig["reproduces"] is True
    # the saved pair is the neighbour and its rewrite: z int8 0 on both sides, the zero point omitted on one
    text = Path(sig["case_module"]).read_text()
    assert "dtype=np.int8" in text and "['q', 's']" in text and "['q', 's', 'z']" in text, text
    argv = shlex.split(sig["repro"])  # run as printed, in this process (tests/_inproc.py), after the hunt
    assert argv[:2] == ["passcheck", "run"], argv
    rep = cli(*argv[1:])
    assert rep.returncode == 1 and "wrong-result" in rep.stdout, rep.stdout + rep.stderr

    # resumed: no item tried again, the signature kept
    r = _hunt(tmp_path / "on", "--budget", "6items", "--resume")
    assert r.returncode == 1, r.stderr
    again = _state(tmp_path / "on")
    keys = [(i["base"], i["form"], i["pass"]) for i in again["items"]]
    assert len(keys) == len(set(keys)) == len(state["items"]) + 6
    assert set(state["signatures"]) <= set(again["signatures"])

    # two shards of the same 20 steps run the unsharded hunt's items between them
    ran = set()
    for i in (1, 2):
        _hunt(tmp_path / f"s{i}", "--budget", "20items", "--shard", f"{i}/2")
        ran |= {(x["base"], x["form"]) for x in _state(tmp_path / f"s{i}")["items"] if x["status"] != "other-shard"}
    assert ran == {(x["base"], x["form"]) for x in state["items"]}


def test_an_int8_move_of_a_uint8_pair_keeps_its_zero_point_s_place_and_opens_the_omitted_default():
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, numpy_helper

    from passcheck.hunt import variation

    base = P.base()
    base.graph.initializer[1].CopyFrom(numpy_helper.from_array(np.array(128, np.uint8), "z"))
    base.graph.output[0].type.tensor_type.elem_type = TensorProto.FLOAT
    neighbour, _ = variation.build(base, "vary:elem-int8@q", labelled=True)  # compose's label space
    (z,) = [numpy_helper.to_array(t) for t in neighbour.graph.initializer if t.name == "z"]
    assert z.dtype == np.int8 and z == 0  # uint8 128 is int8 0 (clipped, it was 127)
    x = {"x": np.linspace(-3, 3, 8, dtype=np.float32).reshape(2, 4)}
    run = lambda m: ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]  # noqa: E731
    np.testing.assert_array_equal(run(neighbour), run(base))  # the moved pair computes what the base does
    fresh, _ = compose.compositions(base, "vary:elem-int8@q", random.Random(0))
    assert "vary:elem-int8@q>optional-input-default-omitted@dequant" in fresh, fresh


@pytest.mark.matrix  # a pinned uv environment (the onnx 1.23 line, taken from the cache when made before)
def test_with_env_the_composed_item_is_judged_in_the_pinned_environment(tmp_path):
    """Under ``--env`` the neighbour and its rewrite are built here and the pair judged there: the planted pass is
    found in the environment through the composed item alone (with composition off under ``--env`` no item is
    composed and nothing is found)."""
    out = tmp_path / "env"
    r = _hunt(out, "--budget", "20items", "--env", str(ENV), "--source", str(REPO))
    assert r.returncode == 1, r.stdout + r.stderr
    state = _state(out)
    composed = [i for i in state["items"] if compose.is_composed(i["form"])]
    assert composed and all(set(i["envs"]) == {ENV.stem} for i in composed if i["status"] == "done"), composed
    (sig,) = state["signatures"].values()
    assert sig["signature"]["rewrite"] == "vary:int-zero>optional-input-default-omitted", sig
    assert sig["signature"]["kind"] == "wrong-result" and sig["found_on"]["form"] == COMPOSED, sig
    assert sig["window"] == {"present": [ENV.stem], "absent": []}, sig
    # the saved pair is the neighbour (z int8 0) and its rewrite (the DequantizeLinear's zero point omitted)
    text = Path(sig["case_module"]).read_text()
    assert "dtype=np.int8" in text and "['q', 's']" in text and "['q', 's', 'z']" in text, text


def test_the_coverage_report_names_a_composed_spelling_by_its_neighbour_kind_and_its_rewrite():
    from passcheck.coverage.entry import Entry, Evidence
    from passcheck.coverage.map import CoverageMap
    from passcheck.coverage.report import tried

    e = Entry("onnxruntime", "transformer", "QDQPropagationTransformer", ("ort:basic",))
    cmap = CoverageMap({e.key: e}, {e.key: [Evidence(e.key, "b", "moved")]}, ["b"], {})
    forms = (COMPOSED, "vary:int-zero@z", "optional-input-default-omitted@dequant")
    items = [{"base": "b", "form": f, "pass": "ort:basic", "status": "done", "signatures": []} for f in forms]
    assert tried(items, cmap)[e.key]["forms"] == {
        "vary:int-zero>optional-input-default-omitted",
        "vary:int-zero",
        "optional-input-default-omitted",
    }


def test_one_site_per_rewrite_comes_before_a_rewrite_s_other_fresh_sites():
    """A neighbour stating ``N = 0`` refreshes the annotations downstream with new symbols, each a fresh
    ``rename-dim-params`` site; they do not take every place of the neighbour's compositions."""
    from passcheck.hunt.space import bases

    base = bases(["pattern-ort-fusion/reshape-from-shape"], generated=False)[0].model()
    for seed in range(5):
        fresh, touched = compose.compositions(base, "vary:input-fix-zero@N", random.Random(seed))
        kinds = [hforms.kind(compose.split(f)[1]) for f in fresh + touched]
        assert len(kinds) == compose.PER_NEIGHBOUR and len(set(kinds)) == len(kinds), kinds
