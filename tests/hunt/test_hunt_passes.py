"""The passes a hunt base's items draw from without ``--pass`` (passcheck/hunt/passes.py): the
defaults, the case's declared passes and the registered passes running a catalogue entry its
first form triggers (real coverage map); a pass whose tool is missing is reported, not dropped;
the scheduler keeps each base to its own set; resume and the per-pass summary with real tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passcheck.cli import main
from passcheck.passes import DEFAULT_PASSES

PLANTED = Path(__file__).with_name("planted_hunt.py")
#: A case declaring a pass whose tool is missing, and one declaring a planted pass (tests only).
DECLARING = """
from passcheck.cases import Case, register, registry
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


class _Missing(FunctionAdapter):
    tools = ("passcheck-no-such-dist",)


if "test:missing-tool" not in known_pass_ids():
    register_pass(_Missing("test:missing-tool", lambda m: m))
_soft = registry().get("hunt-test/softmax")
register(Case(id="hunt-declares/missing", forms=_soft.forms, doc="softmax (tests only)", opset=17,
              passes=("test:missing-tool",)))
register(Case(id="hunt-declares/planted", forms=_soft.forms, doc="softmax (tests only)", opset=17,
              passes=("planted:keepdims0",)))
"""


@pytest.fixture(scope="module")
def declaring(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("declaring") / "declaring_cases.py"
    path.write_text(DECLARING)
    return path


def _load(declaring: Path):
    from passcheck.cases import load_path

    load_path(PLANTED)
    load_path(declaring)


def test_without_a_map_a_case_draws_from_the_defaults_and_its_declared_passes(declaring):
    from passcheck.hunt import passes
    from passcheck.hunt.space import bases

    _load(declaring)
    plan = passes.relevant(bases(["hunt-test/*", "hunt-declares/*"], generated=False))
    assert plan.of("hunt-test/softmax:same") == DEFAULT_PASSES
    assert plan.of("hunt-declares/planted:common") == (*DEFAULT_PASSES, "planted:keepdims0")
    assert plan.passes == [*DEFAULT_PASSES, "planted:keepdims0"]
    assert "test:missing-tool" not in plan.of("hunt-declares/missing:common")
    (line,) = plan.unavailable_lines()
    assert "pass test:missing-tool not searched, it cannot run here (passcheck-no-such-dist is not installed)" in line
    assert "declared by 1 cases (hunt-declares/missing)" in line


def test_the_coverage_map_adds_the_passes_that_run_an_entry_the_base_triggers():
    """hunt-test/layernorm (opset 17) has a ReduceMean, whose schema changed at 18: the version
    converter's ReduceMean:17->18 adapter is an entry it triggers, run by onnx:convert-opset-up only."""
    from passcheck.cases import load_path
    from passcheck.hunt import passes
    from passcheck.hunt.coverage import library_map
    from passcheck.hunt.space import bases
    from passcheck.passes.isolation import IsolatedExecutor

    load_path(PLANTED)
    found = bases(["hunt-test/layernorm"], generated=False)
    with IsolatedExecutor(timeout=300, preload=[str(PLANTED)]) as ex:
        cmap = library_map(bases=[b for b in found if b.form == "common"], executor=ex)
    assert "hunt-test/layernorm:common" in cmap.bases_of("onnx-version-converter:adapter:ReduceMean:17->18")
    plan = passes.relevant(found, cmap)
    own = plan.of("hunt-test/layernorm:same")
    assert own[: len(DEFAULT_PASSES)] == DEFAULT_PASSES
    assert "onnx:convert-opset-up" in own
    # a registered pass declaring no catalogue tool runs every entry (PassScope): searched as well
    assert "planted:commuted" in own
    assert plan.passes == list(own) and plan.digest() == passes.relevant(found, cmap).digest()


@pytest.mark.parametrize("variations", [False, True])
def test_the_scheduler_draws_each_base_s_items_from_its_own_passes(variations):
    from passcheck.cases import load_path
    from passcheck.hunt import variation
    from passcheck.hunt.scheduler import Scheduler
    from passcheck.hunt.space import bases

    load_path(PLANTED)
    own = {"hunt-test/layernorm": ("planted:negative-axes",), "hunt-test/softmax": ("planted:commuted",)}
    runs = []
    for _ in range(2):
        s = Scheduler(
            bases(["hunt-test/*"], generated=False),
            ["planted:negative-axes", "planted:commuted"],
            seed=5,
            passes_of=lambda b: own[b.split(":")[0]],
            variations=variations,
        )
        picks = []
        for step in range(24):
            item = s.next(step)
            assert item.pass_id in own[item.base.split(":")[0]], item.key  # a neighbour's too: its base's passes
            s.mark(item)
            picks.append(item.key)
        runs.append(picks)
    assert runs[0] == runs[1]
    assert any(variation.is_variation(k.split("|")[1]) for k in runs[0]) == variations, runs[0]


def _hunt(out: Path, capfd, *args: str, budget: str) -> tuple[int, str]:
    """(exit code, stderr) of the hunt run in this process (its choices are the subject; tests/hunt/test_hunt.py
    runs the CLI)."""
    argv = ["hunt", "--cases-from", str(PLANTED), "--no-coverage"]
    argv += ["--budget", budget, "--seed", "4", "--out", str(out), "--progress", "none", *args]
    code = main(argv)
    return code, capfd.readouterr().err


def test_hunt_without_pass_searches_declared_passes_reports_a_missing_one_and_resumes_alike(tmp_path, declaring, capfd):
    case = ["--cases-from", str(declaring), "--case", "hunt-declares/*"]
    code, err = _hunt(tmp_path / "a", capfd, *case, budget="4items")
    assert code in (0, 1), err
    assert "pass test:missing-tool not searched, it cannot run here" in err
    assert "planted:keepdims0: " in err and "not a default" in err
    code, err = _hunt(tmp_path / "a", capfd, *case, "--resume", budget="4items")
    assert code in (0, 1), err
    code, err = _hunt(tmp_path / "b", capfd, *case, budget="8items")
    assert code in (0, 1), err

    def items(out):
        doc = json.loads((out / "hunt-state.json").read_text())
        return doc["scope"], [(i["base"], i["form"], i["pass"]) for i in doc["items"]]

    (scope, resumed), (_, straight) = items(tmp_path / "a"), items(tmp_path / "b")
    assert resumed == straight and len(straight) == 8
    assert scope["passes"] == [*DEFAULT_PASSES, "planted:keepdims0"] and scope["pass_sets"]
    for base, _, pass_id in straight:
        assert pass_id != "test:missing-tool"
        assert pass_id in DEFAULT_PASSES or base.startswith("hunt-declares/planted:"), (base, pass_id)


def test_without_pass_two_shards_merged_are_the_unsharded_run(tmp_path, declaring, capfd):
    case = ["--cases-from", str(declaring), "--case", "hunt-declares/*"]
    for out, shard in (("w", ()), ("s1", ("--shard", "1/2")), ("s2", ("--shard", "2/2"))):
        code, err = _hunt(tmp_path / out, capfd, *case, *shard, budget="6items")
        assert code in (0, 1), err
    code = main(["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")])
    assert code in (0, 1), capfd.readouterr().err

    def items(out):
        doc = json.loads((out / "hunt-state.json").read_text())
        return [(i["base"], i["form"], i["pass"]) for i in doc["items"] if i["status"] != "other-shard"]

    assert items(tmp_path / "m") == items(tmp_path / "w") and len(items(tmp_path / "w")) == 6


def test_a_resumed_state_drawn_from_other_pass_sets_is_refused_and_kept(tmp_path):
    from passcheck.errors import PasscheckError
    from passcheck.hunt.store import Store

    scope = {"seed": 1, "passes": [], "cases": [], "cases_from": [], "generated": False}
    first = Store.open(tmp_path, dict(scope), resume=False, later=("passes", "pass_sets"))
    first.settle({"passes": ["ort:basic"], "pass_sets": "aaaa"})
    first.items.append({"base": "b:common", "form": "f", "pass": "ort:basic", "status": "done", "signatures": []})
    first.save()
    again = Store.open(tmp_path, dict(scope), resume=True, later=("passes", "pass_sets"))
    assert again.scope["pass_sets"] == "aaaa"  # kept as saved until settled
    with pytest.raises(PasscheckError, match="used pass_sets 'aaaa', this run 'bbbb'"):
        again.settle({"passes": ["ort:basic"], "pass_sets": "bbbb"})
    again.settle({"passes": ["ort:basic"], "pass_sets": "aaaa"})
    assert len(again.items) == 1
    with pytest.raises(PasscheckError, match="used passes"):  # --pass against a state without it
        Store.open(tmp_path, {**scope, "passes": ["ort:all"]}, resume=True)
