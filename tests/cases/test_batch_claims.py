"""A lazy source registering its cases one id at a time asks each lazy library source once for the batch (M457,
``CaseRegistry._claims``): a library source's names (``GatedModule.names``, with rule_commuted's ``tags_of`` walking
every registered case's doc) were read once per id, ~4,000 times for the generated set (17 s of CPU in every
process selecting it). The same cases register: a library source claiming an id of the batch still registers first
and keeps that id; outside a batch, each question reads the names anew."""

from __future__ import annotations

import json
import subprocess
import sys

import onnx.helper as oh
import pytest

from passcheck.case_model import Case, Form
from passcheck.cases._registry import CaseRegistry
from passcheck.cases.sources import GatedModule, matcher, may_match


def _case(cid: str, doc: str = "d") -> Case:
    def build():
        graph = oh.make_graph([], "g", [], [])
        return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=8)

    return Case(id=cid, forms={"common": Form(build), "again": Form(build)}, doc=doc, opset=18)


class _Library(GatedModule):
    """A library source whose names are counted as they are read, claiming ``fam/*`` and the tag ``hot``."""

    def __init__(self):
        super().__init__("fam.py", {"ids": ["fam/*"], "tags": ["hot"]})
        self.reads = 0

    def names(self):
        self.reads += 1
        return super().names()

    def register_all(self, registry):
        registry.register(_case("fam/7", doc="the library's"))


class _Batch:
    """A lazy source registering its cases one by one, as the generated set and the node tests do."""

    id, lazy = "batch", True

    def __init__(self, ids):
        self.ids = ids

    def claims(self, pattern):
        return pattern.startswith("gen")

    def register_all(self, registry):
        for cid in self.ids:
            if cid not in registry:
                registry.register(_case(cid, doc="the batch's"))

    def missing(self, case_id):
        return None


def test_a_batch_reads_each_library_source_s_names_once_and_registers_the_same_cases():
    reg, library = CaseRegistry(), _Library()
    ids = [f"gen/{i}" for i in range(300)] + ["fam/7", "fam/7"]
    reg.add_source(library)
    reg.add_source(_Batch(ids))
    assert len(reg.select(["gen/*"])) == 300  # the pattern claims the batch source
    assert library.reads == 2, library.reads  # one read for the pattern, one for the batch's 302 ids (not 302)
    assert sorted(c.id for c in reg) == sorted(set(ids))
    assert reg.get("fam/7").doc == "the library's"  # claimed by its id, registered first, kept
    assert not reg.unclaimed()


def test_outside_a_batch_each_question_reads_the_names_anew():
    reg, library = CaseRegistry(), _Library()
    reg.add_source(library)
    assert "other/1" not in reg and "other/2" not in reg
    assert library.reads == 2
    assert "fam/3" not in reg  # claimed: registered (its only case is fam/7)
    assert library.reads == 3 and "fam/7" in reg and library.reads == 3


PATTERNS = ["fam/x", "fam", "famous", "hot", "hotter", "f*", "*", "fam/[0-9]", "[!f]*", "h?t", "", "other/1", "fa"]
NAMES = [("fam/*", "hot"), ("fam/*",), ("hot",), ("fam-*", "fam"), ("*",), ()]


@pytest.mark.parametrize("names", NAMES)
def test_the_matcher_reads_each_pattern_as_may_match_does_on_every_name(names):
    test = matcher(names)
    assert [test(p) for p in PATTERNS] == [any(may_match(p, n) for n in names) for p in PATTERNS]


_COUNT = """
import json
from passcheck.cases import registry, rules
from passcheck import generate
reads = []
kept = rules.rule_case_tags
rules.rule_case_tags = lambda: reads.append(1) or kept()
reg = registry()
picked = {c.id for c in reg.select(["generated/*"])}
print(json.dumps({"reads": len(reads), "picked": len(picked), "same": picked == {c.id for c in generate.cases()},
                  "unclaimed": sorted(s.id for s in reg.unclaimed())}))
"""


def test_selecting_the_real_generated_set_reads_rule_commuted_s_names_a_few_times_not_once_per_id():
    """The library's own ``tags_of`` (rule_commuted's) in a new process: selecting ``generated/*`` reads it for the
    pattern and once for the ~4,000 ids, registers every generated case and claims no library family."""
    r = subprocess.run([sys.executable, "-c", _COUNT], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["picked"] > 1000 and got["same"], got
    assert got["reads"] <= 3, got  # 2 patterns asked ("generated/*", "generated"), then one batch
    assert "rule_commuted" in got["unclaimed"], got
