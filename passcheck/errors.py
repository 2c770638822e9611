"""The two error families of passcheck.

A pass that misbehaves is never an error: it is a finding (see :mod:`passcheck.records`).
Exceptions mean either that passcheck was given bad input (:class:`PasscheckError`, exit code
2, one line, no traceback) or that passcheck itself is broken (:class:`PasscheckInternalError`,
exit code 3, with a traceback).
"""

from __future__ import annotations


class PasscheckError(Exception):
    """Bad input to passcheck: unreadable model, unknown id, bad flag, bad feed.

    The message is one line that says what is wrong, where, and what to do.
    """

    exit_code = 2


class UnknownIdError(PasscheckError, KeyError):
    """An id (case, form, pass, environment) that no registry knows.

    Args:
        kind: what the id names, e.g. ``"pass"``.
        given: the id the user typed.
        known: the ids that exist; the closest ones are suggested, else the first :data:`SHOWN` listed,
            followed by the command that lists them all (:data:`LISTED_BY`) when there are more.
    """

    #: ids listed when none is close.
    SHOWN = 12
    #: the command that lists every id of a kind, named when the listing is cut.
    LISTED_BY = {"pass": "passcheck list --passes", "case": "passcheck list", "environment": "passcheck matrix --list"}

    def __init__(self, kind: str, given: str, known: list[str] | tuple[str, ...]):
        import difflib

        self.kind, self.given = kind, given
        close = difflib.get_close_matches(given, list(known), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        more = f" … ({len(known)} in all" + (f": {self.LISTED_BY[kind]})" if kind in self.LISTED_BY else ")")
        listing = (
            ""
            if close
            else f"; known: {', '.join(sorted(known)[: self.SHOWN])}{more if len(known) > self.SHOWN else ''}"
        )
        super().__init__(f"unknown {kind} id {given!r}{hint}{listing}")

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]


class RegistryError(PasscheckError):
    """A registry was given a duplicate or malformed id (a case or adapter definition error)."""


class ModelLoadError(PasscheckError):
    """A model file could not be read as an ONNX ModelProto."""


class FeedError(PasscheckError):
    """Feeds could not be synthesized or read for a model (bad binding, dtype, rank or name)."""


class PassUnavailableError(PasscheckError):
    """A pass that cannot run here at all (its command or package is missing): not a finding."""


class WorkerDied(Exception):
    """A job sent to an isolation worker (:meth:`passcheck.execution.Worker.call`) killed its
    worker or ran out of time; the message says how (signal name or timeout) and ends with the
    worker's last output. Raised by :mod:`passcheck.execution`; caught by whoever judges the job
    (the validity oracle's :class:`~passcheck.oracles.validity.Checker`, reduce's predicates)."""


class PasscheckInternalError(Exception):
    """A bug in passcheck itself (exit code 3). Deliberately not a PasscheckError."""

    exit_code = 3


class WorkerStartError(PasscheckError):
    """The isolation worker did not start (twice): passcheck cannot run anything isolated here. No
    cell is judged; the message says what to do (exit 2, one line)."""
