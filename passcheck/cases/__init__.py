"""Cases: named families of forms of one computation, and their registry.

Catalogue:

- :class:`Case`, :class:`Form`, :class:`Expectation` — the case model.
- :func:`register` — add a case to the process-wide registry (duplicate ids raise).
- :func:`registry` — the registry with the built-in library and entry-point cases loaded.
- :func:`load_path` — import user case modules from a file or folder.
- :mod:`passcheck.cases.builders` — deterministic ModelProto construction helpers.
- :mod:`passcheck.cases.fusion` — fusion-pattern cases: the onnxruntime transformer targeted and
  the level it fuses at (``cases/fusions_*.py``).
"""

from passcheck.case_model import COMMON, Binding, Case, Expectation, FeedFn, Form
from passcheck.cases._registry import REGISTRY, CaseRegistry, form_wanted, load_builtin, load_path


def register(case: Case) -> Case:
    """Add ``case`` to the process-wide registry and return it.

    Raises:
        RegistryError: the id is already registered.
    """
    return REGISTRY.register(case)


def registry() -> CaseRegistry:
    """The registry, with the built-in library and ``passcheck.cases`` entry points loaded."""
    return load_builtin()


__all__ = [
    "COMMON",
    "Binding",
    "Case",
    "CaseRegistry",
    "Expectation",
    "FeedFn",
    "Form",
    "form_wanted",
    "load_path",
    "register",
    "registry",
]
