"""Released schemas compared across onnx versions (:mod:`passcheck.oracles.schema_history`): the table of the onnx
here, the drift of a changed type constraint, and on a real onnx 1.17 environment the GlobalLpPool constraints
that release swapped (onnx/onnx#6503), which no runtime of that environment can show."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import pytest

from passcheck.oracles.schema_history import drift, table

REPO = Path(__file__).resolve().parents[2]
GLOBAL_LP_POOL_22 = "ai.onnx::GlobalLpPool::22"


def test_the_table_holds_every_released_version_with_its_constraints():
    t = table()
    assert "tensor(bfloat16)" in t[GLOBAL_LP_POOL_22]["types:T"]
    assert "tensor(bfloat16)" not in t["ai.onnx::GlobalLpPool::2"]["types:T"]
    assert t["ai.onnx::Squeeze::13"]["inputs"] == [["data", 0, "T"], ["axes", 1, "tensor(int64)"]]
    assert drift(t, copy.deepcopy(t)) == []


def test_a_narrowed_constraint_is_drift_and_an_unknown_opset_is_not():
    new = table()
    old = copy.deepcopy(new)
    old[GLOBAL_LP_POOL_22]["types:T"].remove("tensor(bfloat16)")
    del old["ai.onnx::Squeeze::13"]
    found = drift(old, new)
    assert [(d.key, d.field) for d in found] == [(GLOBAL_LP_POOL_22, "types:T")]
    assert set(found[0].new) - set(found[0].old) == {"tensor(bfloat16)"}


def test_duplicates_in_a_constraint_are_no_drift():
    new = table()
    old = copy.deepcopy(new)
    old[GLOBAL_LP_POOL_22]["types:T"] = ["tensor(float)", *old[GLOBAL_LP_POOL_22]["types:T"]]
    assert drift(old, new) == []


@pytest.mark.matrix
def test_onnx_117_swapped_the_global_lp_pool_constraints():
    from passcheck.matrix import create, envs

    env = create.ensure(envs.load_spec(REPO / "ci" / "envs" / "onnx-1.17.txt"), REPO)
    p = subprocess.run(
        [str(env.python), "-m", "passcheck.oracles.schema_history"], capture_output=True, text=True, timeout=600
    )
    assert p.returncode == 0, p.stderr
    found = {(d.key, d.field): d for d in drift(json.loads(p.stdout)["schemas"], table())}
    assert set(found[(GLOBAL_LP_POOL_22, "types:T")].new) - set(found[(GLOBAL_LP_POOL_22, "types:T")].old) == {
        "tensor(bfloat16)"
    }
    assert set(found[("ai.onnx::GlobalLpPool::2", "types:T")].old) - set(
        found[("ai.onnx::GlobalLpPool::2", "types:T")].new
    ) == {"tensor(bfloat16)"}
