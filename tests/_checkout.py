"""A copy of the checkout's own files: what git tracks plus untracked files it does not ignore.

A test that installs "the tree" from a copy needs the project's files, not what a run left beside them: CI's
fresh clone holds its own venv (``.ci-venv/``, ~560 MB, 27,000 files) and caches (``.hypothesis/``,
``.ruff_cache/``), all named in ``.gitignore``. Copying them cost CI82 85 s of a fixture's setup on a busy disk.
``git ls-files --cached --others --exclude-standard`` lists exactly the files a user's edits live in (tracked,
edited or new), so uncommitted work is still what gets installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

#: used when the tree is not a git work tree (an unpacked archive): the folders a run or an install leaves
FALLBACK_IGNORE = (".git", ".venv", ".ci-venv", "__pycache__", "*.egg-info", "build", ".hypothesis", ".pytest_cache")


def own_files(root: Path) -> list[str] | None:
    """The paths (relative, ``/``-separated) of ``root``'s files git tracks or would track (not ignored by
    ``.gitignore`` and the other standard excludes), existing ones only; ``None`` when ``root`` is not the top of
    a git work tree or git is missing."""
    try:
        top = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if Path(top).resolve() != root.resolve():
            return None
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    names = sorted({n for n in listed.decode("utf-8", "surrogateescape").split("\0") if n})
    return [n for n in names if (root / n).is_file()]  # --cached lists files deleted in the work tree too


def copy_checkout(root: Path, dest: Path) -> int:
    """Copy ``root``'s own files (:func:`own_files`) into ``dest`` (created), keeping their folders; the number
    of files copied. Outside a git work tree, the whole tree less :data:`FALLBACK_IGNORE`.

    Raises:
        FileExistsError: ``dest`` exists.
    """
    names = own_files(root)
    if names is None:
        shutil.copytree(root, dest, ignore=shutil.ignore_patterns(*FALLBACK_IGNORE))
        return sum(1 for p in dest.rglob("*") if p.is_file())
    dest.mkdir(parents=True)
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)
    return len(names)
