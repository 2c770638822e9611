"""What the engine works on: :class:`Subject`, the named forms of one computation and how to feed
them, and how a case's forms are built into one (:meth:`Subject.from_case`). A form the installed
onnx itself cannot build skips the case in this environment with the reason; a builder that
raises elsewhere, or returns no ModelProto, is a case-definition error (``PasscheckError``, exit 2).
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck.errors import PasscheckError
from passcheck.oracles._context import Expected
from passcheck.records import brief

if TYPE_CHECKING:
    import onnx

    from passcheck.case_model import Case, Expectation


@dataclasses.dataclass
class Subject:
    """What :func:`evaluate` works on: named forms of one computation and how to feed them."""

    id: str
    forms: dict[str, onnx.ModelProto]
    bindings: Sequence[Mapping[str, int]]
    feeds: Callable[[Mapping[str, int], int], dict[str, Any]] | None = None
    expect: Sequence[Expectation] = ()
    parity: frozenset[str] = frozenset({"ops", "precision"})
    rtol: float | None = None
    atol: float | None = None
    passes: Sequence[str] = ()
    repro: str = ""  # command reproducing this subject; ``{pass}`` is filled in
    form_repro: Mapping[str, str] = dataclasses.field(
        default_factory=dict
    )  # form → a command reproducing that form alone (as ``repro``)
    skip: str | None = None
    feed_sets: Sequence[Mapping[str, Any]] | None = None  # given feeds (one dict per run) instead of synthesized ones
    unknown_dim_param: str | None = None  # regex: dim_param names meaning "unknown dim" (see shape_annotations.check)
    expected: Expected | None = None  # the outputs a source states for ``feed_sets`` (a case's reference)

    @classmethod
    def from_case(cls, case: Case, onnx_version: str | None, cases_from: Sequence[str] = ()) -> Subject:
        skip = case.skip_reason(onnx_version)
        feed_sets, expected = loaded_reference(case) if not skip else (None, None)
        forms: dict = {}
        for name in case.forms if not skip else ():
            try:
                forms[name] = _build(case, name)
            except _OnnxCannotBuild as exc:  # this onnx cannot express the form: skip the case here
                skip, forms = str(exc), {}
                break
        return cls(
            id=case.id,
            forms=forms or dict.fromkeys(case.forms),
            bindings=case.bindings,
            feeds=case.feeds,
            expect=case.expect,
            parity=case.parity,
            rtol=case.rtol,
            atol=case.atol,
            passes=case.passes,
            repro="passcheck run"
            + "".join(f" --cases-from {shlex.quote(str(p))}" for p in cases_from)
            + f" --case {shlex.quote(case.id)} --pass {{pass}}",
            skip=skip,
            feed_sets=feed_sets,
            expected=expected,
        )


def loaded_reference(case: Case) -> tuple[list[dict[str, Any]] | None, Expected | None]:
    """(feed sets, :class:`Expected`) of ``case``'s :class:`~passcheck.case_model.Reference`, read
    now; (None, None) when it has none."""
    if case.reference is None:
        return None, None
    feed_sets, outputs = case.reference.load()
    return feed_sets, Expected(outputs, case.reference.source, case.reference.rtol, case.reference.atol)


class _OnnxCannotBuild(Exception):
    """The installed onnx raised while building a form (e.g. its parser predates a spelling)."""


def _raised_in_onnx(exc: BaseException) -> bool:
    """True when the innermost Python frame of ``exc``'s traceback is inside the onnx package."""
    import onnx

    tb, root = exc.__traceback__, str(Path(onnx.__file__).parent)
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()).startswith(root)


def _build(case: Case, form: str) -> onnx.ModelProto:
    """Build one form.

    Raises:
        _OnnxCannotBuild: the installed onnx itself raised (parser, helper, checker): the case is
            skipped in this environment with that reason.
        PasscheckError: the builder raised elsewhere or returned no ModelProto: a case-definition
            error (exit 2).
    """
    import onnx

    try:
        model = case.build(form)
    except Exception as exc:  # noqa: BLE001 - a user's case module is input to passcheck
        if _raised_in_onnx(exc):
            text = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
            text = " ".join(line.strip() for line in text.splitlines() if line.strip())
            raise _OnnxCannotBuild(
                f"onnx {onnx.__version__} cannot build form {form!r}: {type(exc).__name__}: {brief(text, 400)}"
            ) from None
        raise PasscheckError(
            f"case {case.id} form {form!r}: its build function raised {type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(model, onnx.ModelProto):
        raise PasscheckError(
            f"case {case.id} form {form!r}: its build function returned {type(model).__name__}, not a ModelProto"
        )
    return model
