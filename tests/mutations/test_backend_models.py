"""``check --mutations`` on the models the onnx wheel ships (``onnx/backend/test/data``): a verdict
(exit 0 or 1) or a one-line input error (exit 2: e.g. a model onnxruntime cannot run), never an
internal error (exit 3), on every model the onnx checker accepts. One pass, one site per rewrite (on a
real net every site at once only, see SITES), a per-model time limit. The default run takes a fixed sample
(one model per folder, see SAMPLE);
``PASSCHECK_WALK_BACKEND=1`` walks them all (about 150 models, some 15 s each on 2 loaded cores, so
not part of the default suite: ``PASSCHECK_WALK_BACKEND=1 pytest -n 2 tests/mutations/test_backend_models.py``)."""

import os
from pathlib import Path

import onnx
import pytest

from passcheck.mutations import REWRITES
from tests._inproc import cli

DATA = Path(onnx.__file__).parent / "backend" / "test" / "data"


def _accepted() -> dict[Path, int]:
    """Each shipped model the onnx checker accepts → its node count."""
    out = {}
    for path in sorted(DATA.rglob("*.onnx")):
        try:
            model = onnx.load(str(path))
            onnx.checker.check_model(model)
        except Exception:  # noqa: BLE001 - only models the checker accepts are walked
            continue
        out[path] = len(model.graph.node)
    return out


NODES = _accepted()
MODELS = list(NODES)
#: for simple/ and pytorch-converted/ (pytorch-operator/ is alike), a model with the fewest nodes (the
#: largest file among those: initializers to rewrite); and simple/test_sequence_model7, whose
#: empty-optional-input mutant the gate refuses (left out, not exit 3)
SAMPLE = sorted(
    {
        p.relative_to(DATA).parts[0]: p
        for p in sorted(MODELS, key=lambda p: (-NODES[p], p.stat().st_size))
        if p.relative_to(DATA).parts[0] in ("simple", "pytorch-converted")
    }.values()
) + [p for p in MODELS if p.parent.name == "test_sequence_model7"]
#: light/ shufflenet, the cheapest real net, checked in LIGHT_PARTS tests of a share of the rewrites each
#: (every LIGHT_PARTS-th id): each its own xdist worker and time limit, together every rewrite once
LIGHT = next(p for p in MODELS if p.name == "light_shufflenet.onnx")
LIGHT_PARTS = 3


#: --max-sites per model: a light/ net's rewrites in their all-at-once form only (every site of each rewrite
#: rewritten at once, through the gate and both cells). Of shufflenet's 81 forms at 1, 16 put its nodes into
#: If branches or model-local functions, and each such form's annotations are read by a reference-evaluator
#: run of the whole net (passcheck/oracles/annotations.py; 11 s at load 17 here), twice per form (its input
#: and pass cells): most of the sample's time. Single sites are chosen on the small models here, ranked among
#: many signatures in tests/mutations/test_site_budget.py, and on light nets in tests/mutations/test_equivalence.py.
SITES = {"light": "0"}


def _check(model: Path, tmp_path: Path, forms: list[str] = ()) -> None:
    p = cli(  # in this process (tests/_inproc.py): exit codes and stderr as the console script gives them
        *[
            "check",
            str(model),
            "--mutations",
            "--max-sites",
            SITES.get(model.relative_to(DATA).parts[0], "1"),
            "--pass",
            "ort:disabled",
            "--timeout",
            "60",
            "-q",
            "--progress",
            "none",
            *(arg for form in forms for arg in ("--form", form)),
        ],
        cwd=tmp_path,
    )
    assert p.returncode in (0, 1, 2), f"{model.relative_to(DATA)}: exit {p.returncode}\n{p.stderr[-3000:]}"
    assert "Traceback" not in p.stderr, p.stderr[-3000:]


def test_the_wheel_ships_models_to_walk():
    assert len(MODELS) > 50 and len(SAMPLE) == 3 and LIGHT not in SAMPLE


@pytest.mark.parametrize("part", range(LIGHT_PARTS))
def test_a_light_net_gets_a_verdict_on_every_rewrite(part, tmp_path):
    _check(LIGHT, tmp_path, forms=sorted(REWRITES)[part::LIGHT_PARTS])


@pytest.mark.parametrize("model", SAMPLE, ids=lambda p: str(p.relative_to(DATA).parent))
def test_a_sample_of_backend_models_gets_a_verdict(model, tmp_path):
    _check(model, tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("PASSCHECK_WALK_BACKEND"), reason="the full walk: set PASSCHECK_WALK_BACKEND=1")
@pytest.mark.parametrize(
    "model", [m for m in MODELS if m not in SAMPLE and m != LIGHT], ids=lambda p: str(p.relative_to(DATA).parent)
)
def test_every_backend_model_gets_a_verdict(model, tmp_path):
    _check(model, tmp_path)
