"""Pins files → EnvSpec: ids, pins, hash; selection; the default set; --list."""

from pathlib import Path

import pytest

from passcheck.cli import main
from passcheck.errors import PasscheckError, UnknownIdError
from passcheck.matrix import create, envs

REPO = Path(__file__).resolve().parents[2]
DEFAULT = ["onnx-1.16", "onnx-1.17", "onnx-1.18", "onnx-1.19", "onnx-1.20", "onnx-1.21", "onnx-1.22", "onnx-1.23"]


def test_default_set_is_onnx_116_to_123_each_pinning_the_three_tools():
    specs = envs.load_all(REPO / "ci" / "envs")
    assert [s.id for s in specs] == DEFAULT
    for s in specs:
        assert s.pin("onnx").startswith(s.id.split("-")[1] + ".")
        assert s.pin("onnxruntime") and s.pin("onnxscript") and s.doc


def test_pins_hash_changes_with_a_pin_and_ignores_comments(tmp_path):
    a = tmp_path / "a" / "my-env.txt"
    b = tmp_path / "b" / "my-env.txt"
    a.parent.mkdir(), b.parent.mkdir()
    a.write_text("# why\nonnx==1.18.0\nnumpy==2.4.6\n")
    b.write_text("# another comment\n\nonnx == 1.18.0   # inline\nnumpy==2.4.6\n")
    sa, sb = envs.load_spec(a), envs.load_spec(b)
    assert sa.id == "my-env" and sa.pins == ("onnx==1.18.0", "numpy==2.4.6")
    assert sa.pins_hash == sb.pins_hash
    b.write_text("onnx==1.19.1\nnumpy==2.4.6\n")
    assert envs.load_spec(b).pins_hash != sa.pins_hash


def test_select_by_id_or_path_and_unknown_ids(tmp_path):
    own = tmp_path / "mine.txt"
    own.write_text("onnx==1.20.1\n")
    got = envs.select(["onnx-1.20", str(own)], REPO / "ci" / "envs")
    assert [s.id for s in got] == ["onnx-1.20", "mine"]
    with pytest.raises(UnknownIdError, match="onnx-1.2"):
        envs.select(["onnx-1.2"], REPO / "ci" / "envs")
    (tmp_path / "empty.txt").write_text("# nothing\n")
    with pytest.raises(PasscheckError, match="no requirement lines"):
        envs.load_spec(tmp_path / "empty.txt")


def test_source_hash_follows_the_source(tmp_path):
    for rel in ("pyproject.toml", "passcheck/a.py", "cases/b.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    h = create.source_hash(tmp_path)
    assert create.source_hash(tmp_path) == h
    (tmp_path / "cases/b.py").write_text("x = 2\n")
    assert create.source_hash(tmp_path) != h


def test_list_prints_ids_and_pins(capsys):
    assert main(["matrix", "--list", "--envs-dir", str(REPO / "ci" / "envs")]) == 0
    out = capsys.readouterr().out
    for env_id in DEFAULT:
        assert env_id in out
    assert "onnx==1.18.0" in out and "onnxruntime==" in out


def test_bad_env_and_shard_are_usage_errors(capsys):
    assert main(["matrix", "--env", "onnx-9.9", "--envs-dir", str(REPO / "ci" / "envs")]) == 2
    assert main(["matrix", "--env", "onnx-1.23", "--shard", "3/2", "--envs-dir", str(REPO / "ci" / "envs")]) == 2
    err = capsys.readouterr().err
    assert "onnx-9.9" in err and "--shard" in err


def test_staging_a_new_source_keeps_copies_an_install_is_reading(tmp_path):
    from passcheck.matrix.create import _stage

    src = tmp_path / "src"
    for d in ("passcheck", "cases", "ci/envs"):
        (src / d).mkdir(parents=True)
    (src / "pyproject.toml").write_text('[project]\nname = "onnx-passcheck"\n')
    envs = tmp_path / "envs"
    envs.mkdir()
    with _stage(src, envs, "a" * 64) as a:
        with _stage(src, envs, "b" * 64) as b:  # e.g. the tree was edited during a run
            assert (a / "pyproject.toml").is_file() and (b / "pyproject.toml").is_file()
    with _stage(src, envs, "c" * 64) as c:
        assert sorted(p.name for p in envs.glob("src-*") if p.is_dir()) == [c.name]


def test_a_new_environment_removes_only_its_own_id_s_older_folders(tmp_path):
    # an id that starts with another id and a dash (a tool's old release beside its current pins) keeps its folder
    from passcheck.matrix.create import stale

    envs = tmp_path / "envs"
    for name in ("onnxslim-1248b4c514ce", "onnxslim-0123456789ab", "onnxslim-0.1.90-66d27df70d31", "onnxslim-x"):
        (envs / name).mkdir(parents=True)
    (envs / "onnxslim-1248b4c514ce.log").write_text("")
    assert sorted(p.name for p in stale(envs, "onnxslim")) == ["onnxslim-0123456789ab", "onnxslim-1248b4c514ce"]
    assert [p.name for p in stale(envs, "onnxslim-0.1.90")] == ["onnxslim-0.1.90-66d27df70d31"]
