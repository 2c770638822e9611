"""The gated library families as lazy case sources (M377, ``passcheck/cases/sources.py`` ``GatedModule``): a
selection that does not name them imports and judges none of them (a real empty cache), one that does gets the
ids, tags and forms they register; ``hunt``'s default bases claim them; the glob test the claims rest on."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from passcheck.cases import registry
from passcheck.cases.sources import GatedModule, may_match
from tests import _case_gates

#: the library modules that declare SELECTED_BY, with the id prefix of their cases
GATED = {
    "contrib_ops": "contrib/",
    "contrib_static": "contrib-static/",
    "function_body_opsets": "function-body/",
    "function_body_written": "body-written/",
    "gemm_written": "gemm-written/",
    "interior_ops": "interior/",
    "rule_commuted": "commuted/",
}

#: run in a new process: select, list, ask, then say which gated modules were imported
_PROBE = """
import json, sys
from passcheck.cases import registry
from passcheck.cli import main
reg = registry()
picked = [c.id for c in reg.select(sys.argv[1:])]
code = main(["list", *[w for p in sys.argv[1:] for w in ("--case", p)]])
known = "optional-input/conv-bn" in reg
print(json.dumps({"picked": picked, "list": code, "known": known,
                  "imported": sorted(n.rsplit(".", 1)[1] for n in sys.modules if n.startswith("passcheck._library.")),
                  "unclaimed": sorted(s.id for s in reg.unclaimed())}))
"""


def _judged(err: str) -> bool:
    """Whether a gate judged (``schema_gate.cached``'s announcement, or its progress lines)."""
    return "bases in onnxruntime once (cached)" in err or " gate: " in err


def _probe(cache, *patterns: str) -> tuple[dict, str, str]:
    env = {**os.environ, "PASSCHECK_CACHE": str(cache), "PASSCHECK_PROGRESS_EVERY": "0"}
    r = subprocess.run([sys.executable, "-c", _PROBE, *patterns], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout.strip().splitlines()
    return json.loads(out[-1]), "\n".join(out[:-1]), r.stderr


def test_a_selection_not_naming_the_gated_families_imports_and_judges_none_of_them(tmp_path):
    cache = tmp_path / "cache"  # empty: any gate that ran would write its folder here and say so on stderr
    doc, listed, err = _probe(cache, "pattern-ort/*", "optional-input/*:empty-*")
    assert doc["picked"] and all(c.startswith(("pattern-ort/", "optional-input/")) for c in doc["picked"])
    assert doc["list"] == 0 and doc["known"]
    assert not set(doc["imported"]) & set(GATED), doc["imported"]
    assert doc["unclaimed"] == sorted(GATED)
    assert not any(p.startswith(tuple(GATED.values())) for p in listed.split()), listed[:2000]
    assert not cache.exists() or not [p.name for p in cache.iterdir()], sorted(p.name for p in cache.iterdir())
    assert not _judged(err), err[-2000:]
    # passcheck list says what it left out and how to get it, without judging it
    for module, prefix in GATED.items():
        assert f"not listed: {module}," in err and f"--case '{prefix}*'" in err, err[-2000:]


def _family_ids(reg, prefix: str) -> list[str]:
    return sorted(c.id for c in reg if c.id.startswith(prefix))


def test_a_selection_naming_a_family_gets_the_cases_it_registered_eagerly(tmp_path):
    reg = registry()
    reg.claim_library()  # the cache in force: the verdicts are built there once
    want = {prefix: _family_ids(reg, prefix) for prefix in GATED.values()}
    assert all(want.values()), {p: len(v) for p, v in want.items()}
    cache = _case_gates.seeded(tmp_path / "cache")  # the same verdicts, so no gate runs below
    doc, _listed, err = _probe(cache, "interior/*")
    assert sorted(doc["picked"]) == want["interior/"]
    assert "interior_ops" in doc["imported"] and "contrib_ops" not in doc["imported"], doc["imported"]
    assert not _judged(err), err[-2000:]
    # a tag names the families that carry it (functions: function-body and body-written), an id its family
    doc, _listed, err = _probe(cache, "functions", "contrib/*", "commuted")
    got = set(doc["picked"])
    for prefix in ("function-body/", "body-written/", "contrib/", "commuted/"):
        assert sorted(c for c in got if c.startswith(prefix)) == want[prefix], prefix
    assert "interior_ops" not in doc["imported"]
    assert doc["unclaimed"] == ["contrib_static", "gemm_written", "interior_ops"]
    assert not _judged(err), err[-2000:]
    for prefix, ids in want.items():
        case = reg.get(ids[0])
        assert case.tags == registry().get(ids[0]).tags and list(case.forms), prefix


#: run in a new process: hunt's default bases, and whether a recorded gated id is known before anything named it
_HUNT = """
import json
from passcheck.cases import registry
known = "interior/abs-13.float" in registry()
from passcheck.hunt.space import bases
print(json.dumps({"known": known, "ids": sorted({b.case.id for b in bases([], generated=False)})}))
"""


def test_hunt_s_default_bases_claim_the_gated_families_and_a_recorded_id_is_found(tmp_path):
    reg = registry()
    reg.claim_library()
    want = sorted(c.id for c in reg if c.id.startswith(tuple(GATED.values())))
    env = {**os.environ, "PASSCHECK_CACHE": str(_case_gates.seeded(tmp_path / "cache"))}
    r = subprocess.run([sys.executable, "-c", _HUNT], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    assert doc["known"] and "interior/abs-13.float" in want
    assert sorted(i for i in doc["ids"] if i.startswith(tuple(GATED.values()))) == want
    assert not _judged(r.stderr), r.stderr[-2000:]


@pytest.mark.parametrize(
    ("glob", "name", "matches"),
    [
        ("pattern-ort/*", "contrib/*", False),
        ("*", "contrib/*", True),
        ("c*", "contrib/*", True),
        ("con?rib/x", "contrib/*", True),
        ("cont", "contrib/*", False),
        ("[cd]ontrib*", "contrib/*", True),
        ("[!c]*", "contrib/*", False),
        ("*/relu", "contrib/*", True),
        ("functions", "functions", True),
        ("func*", "functions", True),
        ("fusion", "functions", False),
        ("contrib", "contrib-*", False),
        ("interior-add", "interior-*", True),
        ("op:Add", "interior-*", False),
        ("optional-input/*", "interior/*", False),
    ],
)
def test_a_glob_may_match_a_name_or_a_prefix(glob, name, matches):
    assert may_match(glob, name) is matches


def test_a_gated_module_claims_what_its_declaration_names(tmp_path):
    source = GatedModule(tmp_path / "fam.py", {"ids": ["fam/*"], "tags": ["fam", "fam-*"]})
    assert source.lazy and source.library
    assert source.claims("fam/x") and source.claims("fam-relu") and source.claims("f*")
    assert not source.claims("other/*") and not source.claims("famous")


def test_a_gate_that_judges_says_how_far_it_is_on_stderr(capfd, monkeypatch):
    """A first load's gate is not silent for minutes (M378): plain lines on stderr (not a terminal here), one per
    base with ``$PASSCHECK_PROGRESS_EVERY=0``; the verdict is the gate's as before (a real isolation worker)."""
    import onnx
    import onnx.helper as oh

    from passcheck.cases import schema_gate

    monkeypatch.setenv("PASSCHECK_PROGRESS_EVERY", "0")

    def relu(_ranks) -> onnx.ModelProto:
        x = oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
        y = oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3])
        graph = oh.make_graph([oh.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
        return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 14)], ir_version=8)

    planted = schema_gate.Candidate("planted/relu", {"common": relu, "again": relu})
    got = schema_gate.judge_all([planted, dataclasses_replace(planted, "planted/relu-2")], family="planted")
    assert [v["forms"] for v in got.values()] == [{"common": "", "again": ""}] * 2
    err = capfd.readouterr().err
    assert "passcheck: planted gate: 2 bases planned" in err, err
    assert "passcheck: planted gate: 1/2 bases (planted/relu)" in err, err
    assert "passcheck: planted gate: 2/2 bases (planted/relu-2)" in err, err


def dataclasses_replace(candidate, cid: str):
    import dataclasses

    return dataclasses.replace(candidate, id=cid)
