"""ci/github-workflow.yml validates against the GitHub workflow JSON schema check-jsonschema ships."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
                          capture_output=True, text=True)


def test_workflow_is_valid_and_runs_sharded_matrix_then_merge():
    wf = REPO / "ci" / "github-workflow.yml"
    proc = _validate(wf)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = wf.read_text()
    assert "--shard ${{ matrix.shard }}/2" in text and "passcheck merge" in text
    ids = sorted(p.stem for p in (REPO / "ci" / "envs").glob("*.txt"))
    assert f"env: [{', '.join(ids)}]" in text


def test_validator_rejects_a_broken_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: nope\n")
    assert _validate(bad).returncode != 0
