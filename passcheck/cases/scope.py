"""One run's user modules: what ``--cases-from`` imports inside a scope is taken back when it ends.

Two runs in one process (a pytest session calling :func:`passcheck.api.run` or ``passcheck.cli.main``
twice, a notebook, a script running the saved cases of two hunts) are two runs: the second imports its
own modules anew, and two files registering one case id in turn (a hunt's saved case copied to two
folders) do not collide. Modules imported before the scope opened are left alone, so scopes nest (the
CLI's around the API's) and a caller's own :func:`passcheck.cases.load_path` outlives a run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def user_modules_scoped() -> Iterator[None]:
    """Within the block, user modules (``--cases-from``) may be imported; on leaving it (normally or by
    an exception) the ones imported inside are dropped from ``sys.modules`` and the cases and passes
    they registered are unregistered."""
    from passcheck import user_modules
    from passcheck.cases._registry import REGISTRY
    from passcheck.passes import _registry as passes

    before = user_modules.user_modules()
    try:
        yield
    finally:
        added = user_modules.user_modules() - before
        REGISTRY.forget_modules(added)
        passes.forget_modules(added)
        user_modules.unload(added)
