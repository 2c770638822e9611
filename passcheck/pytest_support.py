"""The pytest plugin's work: its session state, marker checking, and the two fixtures' classes.

:mod:`passcheck.pytest_plugin` (the ``pytest11`` entry point) stays small and imports this module
only when a test uses the marker or a fixture, so installing passcheck costs pytest nothing.
Passes and model runs go through one :class:`passcheck.session.Session` per pytest session.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import onnx

    from passcheck.cases import Case
    from passcheck.records import CellResult, Finding
    from passcheck.report.baseline import Known

#: Keyword arguments the ``passcheck`` marker accepts.
MARKER_ARGS = ("cases", "forms", "oracles", "passes", "unknown_dim_param")


@dataclasses.dataclass
class _Session:
    """Per-session state: the baseline, which entries matched, findings seen, evaluated cells."""

    config: pytest.Config
    _known: list[Known] | None = None
    used: set[Known] = dataclasses.field(default_factory=set)
    relevant: set[Known] = dataclasses.field(default_factory=set)
    findings: list[Finding] = dataclasses.field(default_factory=list)
    cache: dict[tuple, tuple[Any, list[CellResult]]] = dataclasses.field(default_factory=dict)
    run: Any = None  # the passcheck Session of this pytest session, started on first use

    @property
    def executor(self) -> Any:
        """The session's executor: one isolated worker reused by every test (started on first use)."""
        if self.run is None:
            from passcheck.session import Session

            self.run = Session(
                isolation=not self.config.getoption("passcheck_no_isolation"), timeout=timeout_of(self.config)
            ).__enter__()
        return self.run.executor

    def summary(self, terminalreporter: Any) -> None:
        summary(self, terminalreporter)

    def close(self) -> None:
        if self.run is not None:
            self.run.__exit__(None, None, None)
            self.run = None

    @property
    def known(self) -> list[Known]:
        if self._known is None:
            self._known = known_of(self.config)
        return self._known

    def cells(self, pass_: Any, case: Case, unknown_dim_param: str | None = None) -> list[CellResult]:
        """The pass's cells on every form of ``case``, evaluated once per (case, pass object, unknown-dim regex)."""
        from passcheck.testing import run_pass

        key = (case.id, id(pass_) if not isinstance(pass_, str) else pass_, unknown_dim_param)
        if key not in self.cache:  # the pass is kept so its id() stays unique
            self.cache[key] = (
                pass_,
                run_pass(pass_, case, executor=self.executor, unknown_dim_param=unknown_dim_param),
            )
        return self.cache[key][1]


def _as_list(value: Any, name: str) -> list[Any] | None:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Sequence):
        return (
            [value]
            if name == "passes" or isinstance(value, str)
            else _usage(f"{name} must be a string or a list, got {value!r}")
        )
    return list(value)


def _usage(message: str):
    # from None: raised inside an ``except``, pytest would print the caught error and "During handling
    # of the above exception, another exception occurred" above this one line
    raise pytest.fail.Exception(f"@pytest.mark.passcheck: {message}", pytrace=False) from None


def _marker_args(marker: pytest.Mark) -> dict[str, list[Any] | None]:
    if marker.args:
        _usage(f"takes keyword arguments only ({', '.join(MARKER_ARGS)}), got positional {list(marker.args)!r}")
    unknown = sorted(set(marker.kwargs) - set(MARKER_ARGS))
    if unknown:
        _usage(
            f"unknown argument{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; allowed: {', '.join(MARKER_ARGS)}"
        )
    args = {k: _as_list(marker.kwargs.get(k), k) for k in MARKER_ARGS if k != "unknown_dim_param"}
    if args["passes"]:  # a pass named twice runs once (ids or callables, first-seen order)
        args["passes"] = [p for i, p in enumerate(args["passes"]) if p not in args["passes"][:i]]
    unknown_dim = marker.kwargs.get("unknown_dim_param")
    if unknown_dim is not None:
        import re

        try:
            re.compile(unknown_dim)
        except (re.error, TypeError) as exc:
            _usage(f"unknown_dim_param must be a regex string, got {unknown_dim!r}: {exc}")
    args["unknown_dim_param"] = unknown_dim
    for p in args["passes"] or ():
        if isinstance(p, str) and p != "input":
            from passcheck.errors import PasscheckError
            from passcheck.passes import get_pass

            try:
                why = get_pass(p).unavailable_reason()
            except PasscheckError as exc:
                _usage(str(exc))
            if why:
                _usage(f"pass {p!r} cannot run here: {why}")
    if args["oracles"]:
        from passcheck.testing import ORACLES

        bad = [o for o in args["oracles"] if o not in ORACLES]
        if bad:
            _usage(f"unknown oracle {', '.join(map(repr, bad))}; allowed: {', '.join(ORACLES)}")
    return args


@contextlib.contextmanager
def _input_errors(what: str):
    """A :class:`~passcheck.errors.PasscheckError` (a model that cannot be read, a ``bind`` symbol the model lacks,
    an unknown pass or case) fails the test with its one-line message, as the CLI exits 2 with it: a user's input
    error, not a traceback through passcheck's code (DESIGN.md, two error families)."""
    from passcheck.errors import PasscheckError

    try:
        yield
    except PasscheckError as exc:
        pytest.fail(f"passcheck.{what}: {exc}", pytrace=False)


def _wanted(case: Case, form: str, patterns: Sequence[str]) -> bool:
    """``case:form`` matches a pattern ``GLOB[:FORMGLOB]`` (GLOB against the id or a tag)."""
    from passcheck.cases import form_wanted

    return form_wanted(case, form, patterns)


@dataclasses.dataclass(frozen=True)
class _Param:
    case: Case
    form: str
    passes: list[Any]
    oracles: list[str] | None
    unknown_dim_param: str | None = None


class PasscheckRequest:
    """The ``passcheck`` fixture: run passes and judge them inside a test, applying the session's
    baseline and attaching findings to the JUnit report."""

    def __init__(self, request: pytest.FixtureRequest, session: _Session):
        self._request = request
        self._session = session

    def assert_pass_ok(
        self, pass_: Any, case: Case | str, *, forms: Sequence[str] | None = None, oracles: Sequence[str] | None = None
    ) -> list[Finding]:
        """Run ``pass_`` on every form of ``case`` and fail with the finding text (xfail when all are known).

        Returns:
            The (known) findings when the test was not failed.
        """
        from passcheck.testing import resolve_case, select

        if isinstance(case, str) and ":" in case and forms is None:
            forms = [case.split(":", 1)[1]]
        with _input_errors("assert_pass_ok"):
            c = resolve_case(case)
            cells = [
                x
                for x in self._session.cells(pass_, c)
                if forms is None or any(fnmatch.fnmatchcase(x.form, g) for g in forms)
            ]
        found = select((f for x in cells for f in x.findings), oracles=oracles)
        return self._judge(cells, found, f"{cells[0].pass_id if cells else pass_} on {c.id}", oracles=oracles)

    def assert_model_ok(self, model: onnx.ModelProto | str, passes: Sequence[Any] = (), **kw: Any) -> list[Finding]:
        """Run ``passes`` (the defaults when empty) on ``model``; fail with the finding text.

        Keyword arguments go to :func:`passcheck.testing.check_model_passes` (``bind``, ``oracles``, ...).
        """
        from passcheck.testing import judged_model, pass_id_of

        with _input_errors("assert_model_ok"):
            found, unchecked = judged_model(model, passes, **{"executor": self._session.executor, **kw})
        name = model if isinstance(model, str) else (model.graph.name or "model")
        return self._judge(
            [], found, f"{name} under {', '.join(map(pass_id_of, passes)) or 'the default passes'}", unchecked=unchecked
        )

    def _judge(
        self,
        cells: list[CellResult],
        found: list[Finding],
        title: str,
        *,
        oracles: Sequence[str] | None = None,
        unchecked: Sequence[str] | None = None,
    ) -> list[Finding]:
        """Fail on an unexpected finding; skip, with why, when no oracle could judge some part
        (never a green pass: e.g. the form itself does not run, so no output was compared);
        xfail when every finding is known."""
        from passcheck.records import CellResult
        from passcheck.report import baseline
        from passcheck.testing import format_findings, format_unchecked, unchecked_parts

        s, node = self._session, self._request.node
        known = s.known
        keys = {(f"{c.case}:{c.form}", c.pass_id) for c in cells} | {(f"{f.case}:{f.form}", f.pass_id) for f in found}
        relevant = {k for k in known if any(_entry_covers(k.id, cf, p) for cf, p in keys)}
        unmatched = set(baseline.apply([CellResult("", "", "", "changed", findings=found)], known)) if known else set()
        s.used |= set(known) - unmatched
        s.relevant |= relevant
        s.findings += found
        for f in found:
            node.user_properties.append(("passcheck_finding", f"{'KNOWN ' if f.expected else ''}{f.headline()}"))
        unexpected = [f for f in found if not f.expected]
        blind = list(unchecked) if unchecked is not None else unchecked_parts(cells, oracles=oracles)
        if unexpected:
            hint = [f"rerun: pytest '{node.nodeid}'"]
            hint.append(
                "accept as known: --passcheck-write-baseline FILE, then edit each reason and run with "
                "--passcheck-baseline FILE"
            )
            pytest.fail(format_findings(found, title) + format_unchecked(blind) + "\n" + "\n".join(hint), pytrace=False)
        if blind:  # not a pass: reported as skipped, with why (e.g. onnxruntime cannot run the form itself)
            pytest.skip(f"passcheck: {title}: no finding, but not everything was checked" + format_unchecked(blind))
        gone = sorted(k.id for k in relevant & unmatched if not any(ch in k.id for ch in "*?["))
        if gone and self._request.config.getoption("passcheck_strict_baseline"):
            pytest.fail(
                f"passcheck: known finding no longer found (fixed?): {', '.join(gone)}; remove it from the baseline",
                pytrace=False,
            )
        if found:
            pytest.xfail("known: " + "; ".join(f"{f.id}: {f.reason}" for f in found))
        return found


def _entry_covers(entry_id: str, case_form: str, pass_id: str) -> bool:
    parts = entry_id.split("|")
    return fnmatch.fnmatchcase(case_form, parts[0]) and (len(parts) < 2 or fnmatch.fnmatchcase(pass_id, parts[1]))


class PasscheckCase:
    """The ``passcheck_case`` fixture: one (case, form) of the library chosen by the marker.

    Attributes:
        case: the :class:`~passcheck.cases.Case`.
        form: the form name (``common`` or an uncommon form).
        id: ``family/name:form``.
    """

    def __init__(self, param: _Param, helper: PasscheckRequest):
        self.case, self.form, self._param, self._helper = param.case, param.form, param, helper
        self.id = f"{self.case.id}:{self.form}"

    @property
    def model(self) -> onnx.ModelProto:
        """This form's ModelProto (built fresh on each access)."""
        return self.case.build(self.form)

    def assert_ok(self, *passes: Any) -> list[Finding]:
        """Judge each pass (the marker's ``passes`` when none given) on this form; fail with the findings.

        Every form of the case is run (parity and acceptance compare them); only this form's
        findings count, from the marker's ``oracles`` when given.
        """
        chosen = list(passes) or self._param.passes
        if not chosen:
            _usage("no pass to check: give passes=[...] to the marker or call passcheck_case.assert_ok(my_pass)")
        skip = self.case.skip_reason(_onnx_version())
        if skip:
            pytest.skip(f"{self.id}: {skip}")
        from passcheck.testing import pass_id_of, select

        cells, found = [], []
        for p in chosen:
            mine = [
                c
                for c in self._helper._session.cells(p, self.case, self._param.unknown_dim_param)
                if c.form == self.form
            ]
            cells += mine
            found += select((f for c in mine for f in c.findings), oracles=self._param.oracles)
        return self._helper._judge(
            cells, found, f"{', '.join(map(pass_id_of, chosen))} on {self.id}", oracles=self._param.oracles
        )


def _onnx_version() -> str | None:
    from passcheck._versions import tool_version

    return tool_version("onnx")


def timeout_of(config: pytest.Config) -> float | None:
    """``--passcheck-timeout``, else the ini ``passcheck_timeout``: seconds per pass, None for the default.

    Raises:
        pytest.UsageError: not a finite number above 0.
    """
    import math

    raw = config.getoption("passcheck_timeout")
    flag = "--passcheck-timeout"
    if raw is None:
        raw, flag = config.getini("passcheck_timeout"), "passcheck_timeout"
        if not raw:
            return None
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise pytest.UsageError(f"{flag}: expected seconds above 0, got {raw!r}")
    return seconds


def known_of(config: pytest.Config) -> list[Known]:
    """The entries of ``--passcheck-baseline`` (none without it).

    Raises:
        pytest.UsageError: the file cannot be read or is not a baseline.
    """
    path = config.getoption("passcheck_baseline")
    if not path:
        return []
    from passcheck.errors import PasscheckError
    from passcheck.report import baseline

    try:
        return baseline.load(path)
    except PasscheckError as exc:
        raise pytest.UsageError(f"--passcheck-baseline: {exc}") from None


def check_options(config: pytest.Config) -> None:
    """The timeout and the baseline file are usage errors (exit 4) before any test runs, never a
    traceback in the first test that judges something while the others run without them."""
    timeout_of(config)
    known_of(config)


def check_write_baseline(config: pytest.Config) -> None:
    """A ``--passcheck-write-baseline`` path that cannot be written is a usage error (exit 4) before the
    session starts, never a traceback in its summary once every test has run."""
    from passcheck.report.outpath import file_problem

    out = config.getoption("passcheck_write_baseline")
    problem = file_problem(out)
    if problem:
        raise pytest.UsageError(f"--passcheck-write-baseline {out}: {problem}")


def check_case_patterns(config: pytest.Config) -> None:
    """A ``--passcheck-cases`` glob that matches no case (or no form) is a typo: usage error (exit 4),
    as ``passcheck run --case`` exits 2, never a run that skips everything and passes. Checked once
    collection has imported every test module, so cases they register count."""
    patterns = config.getoption("passcheck_cases")
    from passcheck.cases import registry
    from passcheck.errors import PasscheckError

    for p in patterns:
        try:
            cases = registry().select([p])
        except PasscheckError as exc:
            raise pytest.UsageError(f"--passcheck-cases {p!r} matches nothing: {exc}") from None
        if not any(_wanted(c, form, [p]) for c in cases for form in c.forms):
            forms = sorted({f for c in cases for f in c.forms})
            raise pytest.UsageError(
                f"--passcheck-cases {p!r}: no form of the matching cases matches; their forms: {', '.join(forms)}"
            )


def _check_marker_forms(cases: Sequence[Case], mine: Sequence[str], forms: Sequence[str]) -> None:
    """A ``forms=`` glob matching no form of the marker's cases, or marker globs whose cells share
    no form, is a collection error (as ``passcheck run --case GLOB:FORM`` exits 2), never a test
    parametrized over nothing and skipped."""
    from passcheck.errors import UnknownIdError

    known = sorted({f for c in cases for f in c.forms})
    for g in forms:
        if not any(fnmatch.fnmatchcase(f, g) for f in known):
            _usage(str(UnknownIdError("form", g, known)))
    if forms and not any(
        _wanted(c, f, mine) and _wanted(c, f, [f"*:{g}" for g in forms]) for c in cases for f in c.forms
    ):
        _usage(f"no form of {list(mine)} matches forms {list(forms)}")


def parametrize(metafunc: pytest.Metafunc) -> None:
    """Parametrize a test carrying the ``passcheck`` marker over (case, form)."""
    marker = metafunc.definition.get_closest_marker("passcheck")
    args = _marker_args(marker)
    if "passcheck_case" not in metafunc.fixturenames:
        _usage(f"{metafunc.function.__name__} must take the passcheck_case fixture")
    from passcheck.cases import registry
    from passcheck.errors import PasscheckError

    mine, cli = args["cases"] or [], metafunc.config.getoption("passcheck_cases")
    try:
        cases = registry().select(mine)
    except PasscheckError as exc:
        _usage(str(exc))
    _check_marker_forms(cases, mine, args["forms"] or [])
    params, ids = [], []
    for case in cases:
        for form in case.forms:
            if (
                _wanted(case, form, mine)
                and _wanted(case, form, cli)
                and _wanted(case, form, [f"*:{g}" for g in args["forms"] or ()])
            ):
                params.append(_Param(case, form, args["passes"] or [], args["oracles"], args["unknown_dim_param"]))
                ids.append(f"{case.id}:{form}")
    metafunc.parametrize("passcheck_case", params, ids=ids, indirect=True)


def summary(s: _Session, terminalreporter: Any) -> None:
    """The baseline entries no longer found, and the ``--passcheck-write-baseline`` file."""
    config = s.config
    fixed = sorted(k.id for k in s.relevant - s.used)
    if fixed:
        terminalreporter.write_sep("-", "passcheck baseline")
        for entry in fixed:
            terminalreporter.write_line(
                f"FIXED? known finding not found any more: {entry} (remove it from "
                f"{config.getoption('passcheck_baseline')})"
            )
    out = config.getoption("passcheck_write_baseline")
    if out:
        from pathlib import Path

        from passcheck.report.baseline import from_findings

        Path(out).write_text(from_findings(s.findings), encoding="utf-8")
        terminalreporter.write_line(f"passcheck: wrote {len({f.id for f in s.findings})} finding ids to {out}")
