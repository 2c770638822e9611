"""The ``passcheck`` command line: a thin front end over the Python API.

Every module in this package not starting with ``_`` is a subcommand: it defines
``add_parser(subparsers)`` and sets ``handler`` (``args → exit code``) on its parser.

Exit codes: 0 nothing unexpected and everything checked, 1 findings or unchecked cells, 2 usage or input error (one
line on stderr, no
traceback), 3 internal error (traceback), 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import pkgutil
import re
import sys
import traceback
from collections.abc import Sequence

from passcheck import __version__, interrupts
from passcheck.errors import PasscheckError


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors and exit code 2, and no abbreviated options: a prefix of
    an option (``list --cases``) is an unknown option, not silently the one it begins (``--cases-from``)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        # "-3m" is a value (a negative --budget, refused by its type naming the accepted forms), as
        # Python 3.13's argparse reads it; 3.11-3.12 took it for an unknown option ("expected one argument")
        self._negative_number_matcher = re.compile(r"-\.?\d")
        #: subcommand name -> its parser (the top parser's, set by build_parser): an unknown command is guessed from it
        self.commands: dict[str, argparse.ArgumentParser] = {}

    def error(self, message: str):  # type: ignore[override]
        command = self.prog.removeprefix("passcheck").strip()  # "passcheck: error:" already names the program
        hint = ""
        if self.commands and (word := _unknown_command(message)) is not None:
            from passcheck.cli._suggest import command_hint

            hint = command_hint(word, self.commands)
        raise PasscheckError(f"{command + ': ' if command else ''}{message}{hint} (see '{self.prog} --help')")


def _unknown_command(message: str) -> str | None:
    """The word argparse's ``invalid choice`` error for the subcommand names, else None."""
    found = re.match(r"argument COMMAND: invalid choice: '([^']*)'", message)
    return found.group(1) if found else None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="passcheck", description="Find the bugs ONNX graph passes hide behind a working default case."
    )
    parser.add_argument("--version", action="version", version=f"passcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}").add_parser(sub)
    parser.commands = sub.choices
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, p in sub.choices.items():  # `passcheck CMD --help` opens with what the listing says
        p.description = p.description or helps.get(name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it).

    With ``argv`` None (the program itself: arguments from ``sys.argv``), SIGINT and SIGTERM
    raise KeyboardInterrupt (see :mod:`passcheck.interrupts`): the command cleans up and 130 is
    returned. With ``argv`` given, the caller's signal handlers are left alone.
    """
    import faulthandler

    from passcheck.cases.scope import user_modules_scoped
    from passcheck.cli._common import progress_mode
    from passcheck.progress import default_mode

    if not faulthandler.is_enabled():  # a tool crashing passcheck's own process (--no-isolation) says where
        faulthandler.enable()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help(sys.stderr)
            return 2
        # As the program (argv from the command line): SIGINT and SIGTERM both end in cleanup and
        # exit 130. Called with argv (tests, scripts), the caller's signal handling stays.
        with (
            interrupts.handled() if argv is None else contextlib.nullcontext(),
            user_modules_scoped(),
            default_mode(progress_mode(args)),
        ):
            code = int(args.handler(args))
            interrupts.check()  # a signal whose KeyboardInterrupt was lost still ends in 130
        return code
    except PasscheckError as exc:
        print(f"passcheck: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("passcheck: interrupted; results written so far are kept", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if exc.filename is None:
            raise
        where = exc.filename if exc.filename2 is None else f"{exc.filename} -> {exc.filename2}"
        print(
            f"passcheck: error: {where}: {exc.strerror or exc}; choose a path passcheck can read or write",
            file=sys.stderr,
        )
        return 2
    except Exception:  # noqa: BLE001 - a bug in passcheck: show everything
        traceback.print_exc()
        print(
            "passcheck: internal error (a bug in passcheck); please report it with the traceback above", file=sys.stderr
        )
        return 3


def run() -> None:
    """The program: :func:`main`, then exit with its code.

    What is left is frozen first (:func:`gc.freeze`): the interpreter's collection at exit
    then skips every object the run made (the case library with the generated set's 3,356
    cases loaded: 0.14-0.19 s of CPU, 0.00-0.03 s frozen, at load 18). The run's files are
    closed by then; objects alive at exit are promised no ``__del__`` (Python's data model)."""
    code = main()
    import gc

    gc.freeze()
    sys.exit(code)
