"""``python local_matrix.py matrix …``: the ``passcheck matrix`` CLI with every environment being
this interpreter (no uv, no pinned install), for tests of the runner and its workers.

``LOCAL_MATRIX_BROKEN=ENV_ID:DIR``: that environment's python puts DIR first on its import path
(a planted broken dependency). ``LOCAL_MATRIX_NO_RERUN=1``: no re-run after a worker dies
(a death budget of 0).
"""

import os
import sys
import types
from pathlib import Path

from passcheck.matrix import create


def _ensure(spec, source, *, cache=None, python=None, children=None, tmp=None):
    root = Path(os.environ["LOCAL_MATRIX_ROOT"]) / spec.id
    root.mkdir(parents=True, exist_ok=True)
    exe = Path(sys.executable)
    broken_id, _, broken_dir = os.environ.get("LOCAL_MATRIX_BROKEN", "").partition(":")
    if broken_id == spec.id:
        exe = root / "python"
        exe.write_text(f'#!/bin/sh\nPYTHONPATH="{broken_dir}:$PYTHONPATH" exec "{sys.executable}" "$@"\n')
        exe.chmod(0o755)
    return types.SimpleNamespace(spec=spec, root=root, python=exe, created=False, seconds=0.0)


if __name__ == "__main__":
    create.ensure = _ensure
    if os.environ.get("LOCAL_MATRIX_NO_RERUN"):
        from passcheck.matrix import env_run

        env_run._death_budget = lambda cases: 0
    from passcheck.cli import main

    sys.argv = ["passcheck", *sys.argv[1:]]
    sys.exit(main())
