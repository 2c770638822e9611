"""evaluate gives every pass run one working folder, emptied before each run and removed at the end
(one temporary folder per subject, not one per cell)."""

from __future__ import annotations

from pathlib import Path

from passcheck.cases.builders import FLOAT, model, node, vi
from passcheck.engine import Subject, evaluate, run_in_process


def test_pass_runs_share_one_emptied_folder_removed_at_the_end():
    seen: list[tuple[Path, list[str]]] = []

    def executor(adapter, m, workdir: Path):
        seen.append((workdir, sorted(p.name for p in workdir.iterdir())))
        (workdir / "left-behind.onnx").write_bytes(b"x")
        (workdir / "sub").mkdir()
        return run_in_process(adapter, m, workdir)

    relu = model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], opset=13)
    subject = Subject(id="model/relu", forms={"common": relu, "again": relu}, bindings=({},))
    cells = evaluate(subject, ["onnx:infer-shapes", "ort:basic"], executor=executor)
    assert {c.pass_id for c in cells} == {"input", "onnx:infer-shapes", "ort:basic"}
    assert len(seen) == 4
    assert len({w for w, _ in seen}) == 1
    assert all(contents == [] for _, contents in seen)
    assert not seen[0][0].exists()


def test_an_executor_that_keeps_a_pass_folder_gets_it_for_every_subject_emptied_and_left_in_place(tmp_path):
    seen: list[tuple[Path, list[str]]] = []

    class Keeping:
        pass_folder = tmp_path / "passes"

        def __call__(self, adapter, m, workdir: Path):
            seen.append((workdir, sorted(p.name for p in workdir.iterdir())))
            (workdir / "left-behind.onnx").write_bytes(b"x")
            return run_in_process(adapter, m, workdir)

    relu = model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], opset=13)
    for sid in ("model/relu", "model/relu-again"):
        subject = Subject(id=sid, forms={"common": relu, "again": relu}, bindings=({},))
        evaluate(subject, ["onnx:infer-shapes"], executor=Keeping())
    assert [w for w, _ in seen] == [tmp_path / "passes"] * 4
    assert all(contents == [] for _, contents in seen)
    assert (tmp_path / "passes").is_dir()  # the executor's to remove
