"""The checkout copy tests install from (tests/_checkout.py): the files git tracks or would track, with a real git."""

import shutil
import subprocess
from pathlib import Path

import pytest

from tests._checkout import copy_checkout, own_files

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def tree(tmp_path):
    """A work tree like a CI clone after a run: tracked files (one edited, one deleted), a new file, and an ignored
    venv and cache."""
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / ".gitignore").write_text(".ci-venv/\n.hypothesis/\n*.egg-info/\n")
    (root / "pyproject.toml").write_text("[project]\n")
    (root / "pkg" / "a.py").write_text("A = 1\n")
    (root / "gone.txt").write_text("x\n")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "c")
    (root / "pkg" / "a.py").write_text("A = 2\n")  # edited, not committed: the copy holds the edit
    (root / "pkg" / "new.py").write_text("B = 1\n")  # new, not ignored
    (root / "gone.txt").unlink()
    for ignored in (".ci-venv/lib/site.py", ".hypothesis/db", "x.egg-info/PKG-INFO"):
        (root / ignored).parent.mkdir(parents=True)
        (root / ignored).write_text("ignored\n")
    return root


def test_the_copy_holds_the_own_files_with_their_edits_and_nothing_ignored(tree, tmp_path):
    n = copy_checkout(tree, tmp_path / "copy")
    got = sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*") if p.is_file())
    assert got == [".gitignore", "pkg/a.py", "pkg/new.py", "pyproject.toml"] and n == 4
    assert (tmp_path / "copy" / "pkg" / "a.py").read_text() == "A = 2\n"


def test_a_folder_inside_a_work_tree_or_outside_git_is_not_listed(tree, tmp_path):
    assert own_files(tree / "pkg") is None  # not the top: its paths would be relative to another root
    plain = tmp_path / "plain"
    shutil.copytree(tree, plain, ignore=shutil.ignore_patterns(".git"))
    assert own_files(plain) is None
    copy_checkout(plain, tmp_path / "copy")  # the fallback: the tree less the known run folders
    assert (tmp_path / "copy" / "pkg" / "new.py").is_file() and not (tmp_path / "copy" / ".ci-venv").exists()


def test_this_checkout_lists_its_package_and_no_ignored_folder():
    names = own_files(REPO)
    if names is None:
        pytest.skip("this tree is not a git work tree")
    assert "pyproject.toml" in names and "passcheck/__init__.py" in names
    assert not [n for n in names if n.split("/")[0] in (".ci-venv", ".venv", ".git", ".hypothesis")]
