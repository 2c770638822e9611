"""pytest plugin (entry point ``pytest11: passcheck``): every form of the case library against your pass.

This module is the entry point only: hooks and fixtures. Loading it imports pytest and the
standard library; :mod:`passcheck.pytest_support` (the work), onnx, onnxruntime and the case
library are imported when a test uses the marker or a fixture.

Example::

    import pytest

    @pytest.mark.passcheck(cases=["optional-input/*"], passes=[MyFusionPass()])
    def test_my_fusion(passcheck_case):        # test_my_fusion[optional-input/conv-mul:empty-name]
        passcheck_case.assert_ok()

The marker parametrizes the test over (case, form); ``passcheck_case.assert_ok()`` runs each pass on
every form of the case (parity and acceptance compare the forms), keeps this form's findings and
fails with their text. Options (group ``passcheck``): ``--passcheck-cases GLOB`` narrows the
selection, ``--passcheck-baseline FILE`` turns known findings into xfail, ``--passcheck-write-baseline
FILE`` records this session's findings, ``--passcheck-strict-baseline`` fails a test whose known
finding is gone. Passes and model runs go through one isolated worker per session (a segfaulting
pass fails its tests with a ``crashed`` finding; the session goes on): ``--passcheck-timeout
SECONDS`` (ini ``passcheck_timeout``) bounds each pass, ``--passcheck-no-isolation`` runs them in
the test process. Findings are attached to the JUnit report as ``passcheck_finding`` properties.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from passcheck.pytest_support import PasscheckCase, PasscheckRequest, _Session

_STATE = pytest.StashKey["_Session"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("passcheck", "passcheck: every form of a case against your pass")
    group.addoption(
        "--passcheck-cases",
        action="append",
        default=[],
        metavar="GLOB",
        help="only parametrize over cases whose id or tag matches GLOB; 'family/name:form' picks one form (repeatable)",
    )
    group.addoption(
        "--passcheck-baseline",
        metavar="FILE",
        default=None,
        help='known findings, JSON {"known": [{"id": ..., "reason": ...}]}: a test whose findings are all known is '
        "xfail",
    )
    group.addoption(
        "--passcheck-strict-baseline",
        action="store_true",
        default=False,
        help="fail a test when a baseline entry for it no longer matches (the bug is fixed: remove the entry)",
    )
    group.addoption(
        "--passcheck-write-baseline",
        metavar="FILE",
        default=None,
        help="write every finding of this session to FILE as a baseline (then edit each reason)",
    )
    group.addoption(
        "--passcheck-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="wall time one pass may take on one form before it is killed (a timeout finding; default 300)",
    )
    group.addoption(
        "--passcheck-no-isolation",
        action="store_true",
        default=False,
        help="run passes and models in the test process (a crashing pass then ends the session)",
    )
    parser.addini("passcheck_timeout", "default for --passcheck-timeout (seconds)", default=None)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "passcheck(cases=GLOBS, forms=GLOBS, passes=PASSES, oracles=NAMES, unknown_dim_param=REGEX): "
        "parametrize the test over the passcheck "
        "case library (fixture passcheck_case); ids are 'family/name:form'",
    )
    if config.getoption("passcheck_write_baseline"):
        from passcheck.pytest_support import check_write_baseline

        check_write_baseline(config)


def _state(config: pytest.Config, create: bool = True) -> _Session | None:
    s = config.stash.get(_STATE, None)
    if s is None and create:
        from passcheck.pytest_support import _Session

        s = config.stash[_STATE] = _Session(config)
    return s


def pytest_unconfigure(config: pytest.Config) -> None:
    s = _state(config, create=False)
    if s is not None:
        s.close()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """A ``--passcheck-cases`` glob that matches no case (or no form), a bad ``--passcheck-timeout``
    or ``--passcheck-baseline`` is a usage error (exit 4)."""
    if (
        config.getoption("passcheck_baseline")
        or config.getoption("passcheck_timeout") is not None
        or (config.getini("passcheck_timeout"))
    ):
        from passcheck.pytest_support import check_options

        check_options(config)
    if config.getoption("passcheck_cases"):
        from passcheck.pytest_support import check_case_patterns

        check_case_patterns(config)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("passcheck") is not None:
        from passcheck.pytest_support import parametrize

        parametrize(metafunc)


@pytest.fixture
def passcheck(request: pytest.FixtureRequest) -> PasscheckRequest:
    """Judge passes or models inside any test, with the session's baseline and JUnit properties.

    Example::

        def test_exported_model(passcheck):
            passcheck.assert_model_ok(export_my_model(), passes=["ort:basic"], bind={"batch": 4})
    """
    from passcheck.pytest_support import PasscheckRequest

    return PasscheckRequest(request, _state(request.config))


@pytest.fixture
def passcheck_case(request: pytest.FixtureRequest) -> PasscheckCase:
    """One (case, form) of the library, parametrized by ``@pytest.mark.passcheck(...)``.

    Example::

        @pytest.mark.passcheck(cases=["optional-input/*"])
        def test_fusion(passcheck_case):
            passcheck_case.assert_ok(MyFusionPass())
    """
    from passcheck.pytest_support import PasscheckCase, PasscheckRequest, _usage

    if not hasattr(request, "param"):
        _usage(f"{request.node.name} uses passcheck_case without @pytest.mark.passcheck(cases=[...])")
    return PasscheckCase(request.param, PasscheckRequest(request, _state(request.config)))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    s = _state(config, create=bool(config.getoption("passcheck_write_baseline")))
    if s is not None:
        s.summary(terminalreporter)
