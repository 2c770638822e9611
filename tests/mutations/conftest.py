"""Make the helper modules beside these tests importable by name (``import mutation_models``,
``import site_planted``) under pytest's importlib import mode."""

import importlib.util
import sys
from pathlib import Path

for _name, _file in (("mutation_models", "_models.py"), ("site_planted", "site_planted.py")):
    if _name not in sys.modules:
        _spec = importlib.util.spec_from_file_location(_name, Path(__file__).with_name(_file))
        _module = importlib.util.module_from_spec(_spec)
        sys.modules[_name] = _module
        _spec.loader.exec_module(_module)
