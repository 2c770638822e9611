"""Lets each example's test import the code beside it (``from fold_mul import ...``) under any
pytest import mode: the repo runs pytest with ``--import-mode=importlib``, which does not put a
test's folder on ``sys.path``."""

import sys
from pathlib import Path

for _folder in sorted(p for p in Path(__file__).parent.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
