"""Assertion helpers for a test suite: throw every form of a case at one pass, or every pass at
one model, and fail with the structured finding text.

A *pass* here is a pass id (``ort:basic``, ``cmd:'TOOL {in} {out}'``), a
:class:`~passcheck.passes.PassAdapter`, a callable ``ModelProto -> ModelProto``, or an
``onnx_ir.passes`` pass instance. Only the pass's own cells are judged; the forms themselves
(pseudo-pass ``input``) are checked by the case library's tests.

Example::

    from passcheck.testing import assert_pass_ok

    def test_my_fusion():
        assert_pass_ok(MyFusionPass(), "optional-input/conv-mul")
"""

from __future__ import annotations

import contextlib
import fnmatch
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from passcheck.errors import PasscheckError, UnknownIdError
from passcheck.records import NOT_RUN, CellResult, Finding

if TYPE_CHECKING:
    import onnx

    from passcheck.cases import Case
    from passcheck.engine import Executor
    from passcheck.passes import PassAdapter

#: What may be passed where a pass is expected.
PassLike = Union[str, "PassAdapter", Callable[..., Any]]


def __getattr__(name: str) -> Any:
    if name == "ORACLES":  # computed on use: the registry may hold an oracle added by a test or plugin
        return oracle_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def oracle_names() -> tuple[str, ...]:
    """Oracle names a test may restrict itself to (``ORACLES``): every id in
    :mod:`passcheck.oracles.registry`, and the name each reports its findings under."""
    from passcheck.oracles import registry

    return tuple(registry.ids())


#: The oracle that could not judge an unchecked part, by the part's first word (CellResult.unchecked keys).
_UNCHECKED_BY = {"output": "numeric", "annotation": "annotations"}


class FindingsError(AssertionError):
    """Raised by the ``assert_*`` helpers; ``findings`` holds what was found, ``unchecked`` what
    could not be judged (``case:form | pass: what: why``); the message renders both."""

    def __init__(self, findings: Sequence[Finding], title: str, unchecked: Sequence[str] = ()):
        self.findings, self.unchecked = list(findings), list(unchecked)
        text = (
            format_findings(self.findings, title)
            if self.findings or not self.unchecked
            else f"passcheck: nothing found for {title}, but"
        )
        super().__init__(text + format_unchecked(self.unchecked))


def unchecked_parts(
    cells: Iterable[CellResult], *, forms: Sequence[str] | None = None, oracles: Sequence[str] | None = None
) -> list[str]:
    """``case:form | pass: what: why`` for each part of ``cells`` an oracle of ``oracles`` (all when
    None) had to judge and could not (see :attr:`CellResult.unchecked`; a named pass that did not run,
    :data:`~passcheck.records.NOT_RUN`, left every oracle unjudged), on the given forms (globs)."""
    return [
        f"{c.case}:{c.form} | {c.pass_id}: {what}: {why}"
        for c in cells
        for what, why in c.unchecked.items()
        if (forms is None or any(fnmatch.fnmatchcase(c.form, g) for g in forms))
        and (oracles is None or what == NOT_RUN or _UNCHECKED_BY.get(what.split(" ", 1)[0]) in oracles)
    ]


def format_unchecked(lines: Sequence[str]) -> str:
    """The text appended to a failure for parts not checked ('' when none)."""
    if not lines:
        return ""
    return "\nnot checked (passcheck could not judge these, so the pass is not shown correct):\n" + "\n".join(
        f"- {x}" for x in lines
    )


def pass_id_of(pass_: PassLike) -> str:
    """The id a pass is reported under: its id, or ``user:<qualified name>`` for a callable/IR pass."""
    if isinstance(pass_, str):
        return pass_
    if getattr(pass_, "id", None) and isinstance(pass_.id, str):
        return pass_.id
    target = pass_ if callable(pass_) and hasattr(pass_, "__qualname__") else type(pass_)
    return f"user:{target.__qualname__.replace('.<locals>.', '.')}"


def as_adapter(pass_: PassLike, id: str | None = None) -> PassAdapter:
    """Resolve ``pass_`` to an adapter (a callable or IR pass is wrapped in a FunctionAdapter).

    Raises:
        UnknownIdError: an unknown pass id.
        PasscheckError: ``pass_`` is neither an id, an adapter nor callable.
    """
    from passcheck.passes import FunctionAdapter, PassAdapter, get_pass

    if isinstance(pass_, str):
        return get_pass(pass_)
    if isinstance(pass_, PassAdapter):
        return pass_
    if not callable(pass_):
        raise PasscheckError(
            f"pass {pass_!r}: expected a pass id, a PassAdapter, a callable ModelProto -> ModelProto or an onnx_ir pass"
        )
    return FunctionAdapter(id or pass_id_of(pass_), pass_)


@contextlib.contextmanager
def registered(adapter: PassAdapter) -> Iterator[str]:
    """Make ``adapter`` reachable by id for the duration of the block (unregistered after).

    Raises:
        PasscheckError: another pass already holds that id.
    """
    from passcheck.passes import FunctionAdapter, get_pass, register_pass, unregister_pass

    try:
        existing = get_pass(adapter.id)
    except PasscheckError:
        existing = None
    if existing is not None and (existing is adapter or not isinstance(adapter, FunctionAdapter)):
        yield adapter.id
        return
    if existing is not None:
        raise PasscheckError(f"pass id {adapter.id!r} is already taken by another pass; pass id='...' to name yours")
    register_pass(adapter)
    try:
        yield adapter.id
    finally:
        unregister_pass(adapter.id)


def resolve_case(case: Case | str) -> Case:
    """A Case, or the registered case with this id (a ``:form`` suffix is ignored).

    Raises:
        UnknownIdError: no case has this id.
    """
    if not isinstance(case, str):
        return case
    from passcheck.cases import registry

    return registry().get(case.split(":", 1)[0])


def run_pass(
    pass_: PassLike,
    case: Case | str,
    *,
    id: str | None = None,
    env: str = "local",
    executor: Executor | None = None,
    isolation: bool = True,
    timeout: float | None = None,
    unknown_dim_param: str | None = None,
) -> list[CellResult]:
    """Run one pass on every form of ``case`` and judge it: one cell per form, ``input`` cells excluded.
    ``unknown_dim_param``: regex of dim_param names meaning "unknown dim" (they assert nothing).

    The pass and the model runs are isolated as in :func:`passcheck.run` (``executor``,
    ``isolation``, ``timeout``): a pass that segfaults or hangs is a ``crashed`` / ``timeout`` cell with a finding.

    Raises:
        UnknownIdError: an unknown case or pass id.
        PassUnavailableError: the pass cannot run here (its command is not found).
        PasscheckError: the pass id is taken, or the case's forms cannot be fed.
    """
    from passcheck._versions import tool_version
    from passcheck.api import require_available
    from passcheck.engine import Subject
    from passcheck.session import Session

    case = resolve_case(case)
    adapter = as_adapter(pass_, id)
    with registered(adapter) as pid, Session(env=env, executor=executor, isolation=isolation, timeout=timeout) as s:
        require_available([pid])
        subject = Subject.from_case(case, tool_version("onnx"))
        subject.unknown_dim_param = unknown_dim_param
        cells = s.evaluate(subject, [pid], check_input=False, required=[pid])  # named: a form it skips is unchecked
    limit = timeout if timeout is not None else getattr(executor, "timeout", None)  # the plugin's executor's
    for c in cells:
        # a finding about the time limit reproduces under that limit (as the CLI's --timeout)
        repro = _python_repro(pass_, case.id, limit if c.status == "timeout" else None)
        for f in c.findings if repro else ():
            f.repro = repro
    return cells


def select(
    findings: Iterable[Finding], *, forms: Sequence[str] | None = None, oracles: Sequence[str] | None = None
) -> list[Finding]:
    """Findings on the given forms (globs) from the given oracles; ``None`` keeps all.

    Raises:
        UnknownIdError: an oracle name not in :func:`oracle_names`.
    """
    names = oracle_names() if oracles else ()
    for o in oracles or ():
        if o not in names:
            raise UnknownIdError("oracle", o, list(names))
    return [
        f
        for f in findings
        if (forms is None or any(fnmatch.fnmatchcase(f.form, g) for g in forms))
        and (oracles is None or f.oracle in oracles)
    ]


def check_pass(
    pass_: PassLike,
    case: Case | str,
    *,
    forms: Sequence[str] | None = None,
    oracles: Sequence[str] | None = None,
    id: str | None = None,
    executor: Executor | None = None,
    isolation: bool = True,
    timeout: float | None = None,
) -> list[Finding]:
    """Every finding the oracles report for ``pass_`` on the forms of ``case``.

    ``case`` may be ``"family/name:form"`` to keep one form's findings (all forms still run, since
    parity and acceptance compare them). ``executor`` / ``isolation`` / ``timeout``: see :func:`run_pass`.

    Raises:
        UnknownIdError: an unknown case, pass or oracle.
    """
    return _judged_pass(
        pass_, case, forms=forms, oracles=oracles, id=id, executor=executor, isolation=isolation, timeout=timeout
    )[0]


def _judged_pass(
    pass_: PassLike,
    case: Case | str,
    *,
    forms: Sequence[str] | None = None,
    oracles: Sequence[str] | None = None,
    id: str | None = None,
    **run: Any,
) -> tuple[list[Finding], list[str]]:
    """(findings, unchecked parts) of :func:`check_pass`; ``run``: keywords of :func:`run_pass`."""
    if isinstance(case, str) and ":" in case and forms is None:
        forms = [case.split(":", 1)[1]]
    cells = run_pass(pass_, case, id=id, **run)
    return (
        select((f for c in cells for f in c.findings), forms=forms, oracles=oracles),
        unchecked_parts(cells, forms=forms, oracles=oracles),
    )


def assert_pass_ok(pass_: PassLike, case: Case | str, **kw: Any) -> None:
    """Fail with the finding text if :func:`check_pass` finds anything, or if an oracle could not
    judge part of a form (e.g. the unoptimized form does not run, so no output was compared).

    Raises:
        FindingsError: (an AssertionError) listing each finding, the tolerance that would have
            passed where one exists, and a command reproducing it; and each part not checked, with why.
    """
    found, unchecked = _judged_pass(pass_, case, **kw)
    if found or unchecked:
        raise FindingsError(found, f"{pass_id_of(pass_)} on {case if isinstance(case, str) else case.id}", unchecked)


def check_model_passes(
    model: onnx.ModelProto | str | Path,
    passes: Sequence[PassLike] = (),
    *,
    bind: Mapping[str, int] | None = None,
    oracles: Sequence[str] | None = None,
    include_input: bool = True,
    executor: Executor | None = None,
    isolation: bool = True,
    timeout: float | None = None,
) -> list[Finding]:
    """Findings for ``model`` under ``passes`` (the defaults when empty), via :func:`passcheck.check_model`.

    With ``include_input`` the model itself is judged too (checker, runnable, its own value_info
    and output annotations hold at run time; seed 000). ``executor`` / ``isolation`` / ``timeout``: see
    :func:`run_pass`.

    Raises:
        ModelLoadError / FeedError / UnknownIdError: see :func:`passcheck.check_model`.
    """
    return judged_model(
        model,
        passes,
        bind=bind,
        oracles=oracles,
        include_input=include_input,
        executor=executor,
        isolation=isolation,
        timeout=timeout,
    )[0]


def judged_model(
    model: onnx.ModelProto | str | Path,
    passes: Sequence[PassLike] = (),
    *,
    bind: Mapping[str, int] | None = None,
    oracles: Sequence[str] | None = None,
    include_input: bool = True,
    executor: Executor | None = None,
    isolation: bool = True,
    timeout: float | None = None,
    unknown_dim_param: str | None = None,
) -> tuple[list[Finding], list[str]]:
    """(findings, unchecked parts) for ``model`` under ``passes``; see :func:`check_model_passes`
    and :func:`unchecked_parts`.

    Raises:
        ModelLoadError / FeedError / UnknownIdError: see :func:`passcheck.check_model`.
    """
    from passcheck.api import check_model

    adapters = [as_adapter(p) for p in passes]
    with contextlib.ExitStack() as stack:
        ids = [stack.enter_context(registered(a)) for a in adapters]
        report = check_model(
            model,
            ids,
            bind=bind,
            executor=executor,
            isolation=isolation,
            timeout=timeout,
            unknown_dim_param=unknown_dim_param,
        )
    cells = [c for c in report.cells if include_input or c.pass_id != "input"]
    return select((f for c in cells for f in c.findings), oracles=oracles), unchecked_parts(cells, oracles=oracles)


def assert_model_ok(model: onnx.ModelProto | str | Path, passes: Sequence[PassLike] = (), **kw: Any) -> None:
    """Fail with the finding text if :func:`check_model_passes` finds anything, or if part of a
    cell could not be judged (see :func:`assert_pass_ok`). Keywords as :func:`judged_model`.

    Raises:
        FindingsError: as for :func:`assert_pass_ok`.
    """
    found, unchecked = judged_model(model, passes, **kw)
    if found or unchecked:
        name = str(model) if isinstance(model, (str, Path)) else (model.graph.name or "model")
        raise FindingsError(
            found, f"{name} under {', '.join(map(pass_id_of, passes)) or 'the default passes'}", unchecked
        )


def format_findings(findings: Sequence[Finding], title: str = "") -> str:
    """The structured text of findings: one block each with what differed, the tolerance that
    would have passed (numeric findings) and the command that reproduces it."""
    lines = [
        f"passcheck: {len(findings)} finding{'s' if len(findings) != 1 else ''}" + (f" for {title}" if title else "")
    ]
    for f in findings:
        lines.append(f"- {f.case}:{f.form} | {f.pass_id} | {f.oracle}: [{f.kind}] {f.message}")
        if f.expected:
            lines.append(f"    known: {f.reason}")
        if "max_abs" in f.details:
            lines.append(f"    would pass with: {_loosest(f.details)}")
        for key in ("kept_nodes", "output", "node", "value", "error"):
            if f.details.get(key) not in (None, "", []):
                text = str(f.details[key]).strip().splitlines()[0]
                lines.append(f"    {key}: {text}")
        lines.append(f"    baseline id: {f.id}")
        if f.repro:
            lines.append(f"    reproduce: {f.repro}")
    return "\n".join(lines)


def _loosest(details: dict) -> str:
    """The tolerances that would have passed a numeric finding. ``max_rel`` divides by ``max(|expected|, tiny)``
    (passcheck/oracles/numeric.py), so an element expected 0 that differs gives ~1e307: no ``rtol`` alone bounds
    it (``|a - e| <= atol + rtol * |e|``), and the hint says so instead of printing that figure."""
    atol = f"atol >= {details['max_abs']:.3g}"
    rel = float(details.get("max_rel", 0.0))
    if rel > 1e300:
        return f"{atol} (no rtol alone: an element expected 0 differs)"
    return f"{atol} or rtol >= {rel:.3g}"


def _python_repro(pass_: PassLike, case_id: str, timeout: float | None = None) -> str:
    """A one-line command re-running a user pass importable by name (with ``timeout``, the limit a
    finding about it needs); '' when it is not."""
    if isinstance(pass_, str) or getattr(pass_, "id", None):
        return ""
    target = pass_ if hasattr(pass_, "__qualname__") else type(pass_)
    limit = f", timeout={timeout:g}" if timeout else ""
    mod, name = getattr(target, "__module__", ""), target.__qualname__
    if not mod or mod == "__main__" or "<" in name:
        return f"from passcheck.testing import assert_pass_ok; assert_pass_ok(<your {name}>, '{case_id}'{limit})"
    call = name if target is pass_ else f"{name}()"
    return (
        f'python -c "from passcheck.testing import assert_pass_ok; from {mod} import {name.split(".")[0]}; '
        f"assert_pass_ok({call}, '{case_id}'{limit})\""
    )
