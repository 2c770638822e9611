"""Argument groups and helpers shared by subcommands."""

from __future__ import annotations

import argparse
import re

from passcheck.errors import PasscheckError


def report_file(path):
    """``path`` when it may be a stored report (``RUN.json`` or a stream); a hunt's folder (or its state file), a
    ``--save-run`` folder or any other folder is refused naming the command that reads it, since every
    report-reading command (``report``, ``repro``, ``reduce``, ``attribute``, ``bisect``) takes the file
    ``run``/``check``/``compare --json`` write, while ``triage`` and ``report --rejudge`` take those folders.

    Raises:
        PasscheckError: ``path`` is a folder, or a hunt's ``hunt-state.json``."""
    from pathlib import Path

    from passcheck.hunt.store import STATE
    from passcheck.saved_runs import LINES

    p = Path(path)
    folder = p.parent if p.name == STATE and p.is_file() else p
    if (folder / STATE).is_file():
        raise PasscheckError(
            f"{path}: a hunt's output, not a report (RUN.json); its summary is {folder / 'summary.md'}, and "
            f"'passcheck triage {folder} --out DIR' reproduces its pairs (a repro.py each)"
        )
    if p.is_dir() and (p / LINES).is_file():
        raise PasscheckError(
            f"{path}: a --save-run folder, not a report (RUN.json); "
            f"'passcheck report --rejudge {path} --format json --out RUN.json' writes one"
        )
    if p.is_dir():
        raise PasscheckError(f"{path}: a folder, not a report (RUN.json, as run/check/compare --json write it)")
    return path


def read_run(path):
    """The cells and environments of a stored report (:func:`passcheck.report.json_report.read_report`), saying on
    stderr, as ``report`` does, when it is an interrupted run's (``"partial": true``): the cells it had not reached
    are not in it, so a "nothing to attribute" (exit 0) read from it is about the cells it holds only.

    Raises:
        PasscheckError: not a readable passcheck report (``read_report``'s errors)."""
    import sys

    from passcheck.report.json_report import is_partial, read_report
    from passcheck.report.partial import PARTIAL

    cells, envs = read_report(report_file(path))
    if is_partial(path):
        print(f"passcheck: {path}: {PARTIAL}", file=sys.stderr)
    return cells, envs


def bind_arg(text: str) -> tuple[str, int]:
    """Parse ``SYM=N`` (N a non-negative integer)."""
    m = re.fullmatch(r"\s*([^=\s]+)\s*=\s*(\d+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected SYM=N with N a non-negative integer, got {text!r}")
    return m.group(1), int(m.group(2))


class AppendUnique(argparse.Action):
    """``action="append"`` that keeps the first of repeated values (``--pass X --pass X`` runs X once)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        items = list(getattr(namespace, self.dest, None) or [])
        if values not in items:
            items.append(values)
        setattr(namespace, self.dest, items)


def add_pass_args(p: argparse.ArgumentParser, default: str = "every default pass") -> None:
    """``--pass ID`` (repeatable; a repeated id runs once) into ``args.passes``; ``default`` says what runs
    without it."""
    p.add_argument(
        "--pass",
        dest="passes",
        action=AppendUnique,
        default=[],
        metavar="ID",
        help='pass id (repeatable): ort:basic, onnx:infer-shapes, onnx:convert-opset-18, "cmd:TOOL {in} {out}" …; '
        f"default: {default}; a repeated id runs once",
    )


def add_allow_unavailable_arg(p: argparse.ArgumentParser) -> None:
    """``--allow-unavailable``: a ``--pass`` that does not run on a form is ``n/a`` (exit 0), not ``unchecked``."""
    p.add_argument(
        "--allow-unavailable",
        action="store_true",
        help="a --pass that cannot run on a form (outside what its tool supports, e.g. ort:symbolic-shape-infer "
        "below opset 7) is n/a with its reason, not unchecked (which exits 1)",
    )


def regex_arg(text: str) -> str:
    """argparse type: a valid Python regex (kept as text)."""
    try:
        re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"not a valid regex {text!r}: {exc}") from None
    return text


def add_unknown_dim_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--unknown-dim-param",
        type=regex_arg,
        metavar="REGEX",
        help="dim_param names fully matching REGEX mean 'unknown dim' and assert nothing (e.g. '\\?' or 'unk__\\d+', "
        "spellings some tools write on unrelated axes); default: every dim_param is a symbol",
    )


def add_output_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "output", "FILE '-' is standard output (one output at most; the human report then goes to stderr)"
    )
    g.add_argument("--json", metavar="FILE", help="write the canonical JSON report")
    g.add_argument("--junit", metavar="FILE", help="write JUnit XML (one testcase per case/form/pass)")
    g.add_argument("--markdown", metavar="FILE", help="write a Markdown report (CI step summary)")
    g.add_argument(
        "--baseline", metavar="FILE", help="known findings (JSON): matched findings are expected, not failures"
    )
    g.add_argument("--write-baseline", metavar="FILE", help="write every finding of this run as a baseline file")
    g.add_argument(
        "-q", "--quiet", action="store_true", help="print findings and the summary only, not the grid (no progress)"
    )
    add_progress_arg(g)


def add_progress_arg(p, quiet: bool = False) -> None:
    """``--progress auto|bar|lines|none`` (see :mod:`passcheck.progress`); with ``quiet``, ``-q`` too, for a
    command whose only chatter is its progress (the README's ``-q silences it`` holds for every command)."""
    from passcheck.progress import MODES

    if quiet:
        p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr (same as --progress none)")

    p.add_argument(
        "--progress",
        choices=MODES,
        default="auto",
        help="progress on stderr: a bar when stderr is a terminal, else a line every $PASSCHECK_PROGRESS_EVERY "
        "seconds (default 5); none for silence, also the default with -q (default: %(default)s)",
    )


def load_cases_from(paths) -> None:
    """Load each ``--cases-from`` path (a case module or a folder of them).

    Raises:
        PasscheckError: a path that registers no case and no pass (an empty folder, a module without
            ``passcheck.cases.register(...)``): the command would otherwise act on the built-in library alone.
    """
    from passcheck.cases import load_path, registry
    from passcheck.passes import _registry as passes
    from passcheck.user_modules import imported

    for p in paths:  # loading is idempotent: a module this process imported before registered already
        cases, user_passes, seen = len(registry()), len(passes._USER), imported(p)
        load_path(p)
        if not seen and len(registry()) == cases and len(passes._USER) == user_passes:
            raise PasscheckError(
                f"--cases-from {p}: registers no case (nor pass); a case module calls "
                "passcheck.cases.register(...) at import; nothing was run"
            )


def pass_count(passes) -> int:
    """Passes a run of ``passes`` (or the defaults) applies, ``input`` aside.

    Raises:
        UnknownIdError: an unknown pass id (before any work, and before progress starts).
    """
    from passcheck.engine import INPUT
    from passcheck.passes import DEFAULT_PASSES, get_pass

    ids = [p for p in dict.fromkeys(passes or DEFAULT_PASSES) if p != INPUT]
    for p in ids:
        get_pass(p)
    return len(ids)


def progress_mode(args) -> str:
    """The progress mode the arguments ask for: an explicit ``--progress``, else ``none`` with ``-q``, else ``auto``."""
    mode = getattr(args, "progress", "auto")
    return "none" if mode == "auto" and getattr(args, "quiet", False) else mode


def progress(args, total: int, unit: str, done: int = 0):
    """A :class:`passcheck.progress.Progress` for a subcommand (``passcheck <command>`` lines)."""
    from passcheck.progress import Progress

    return Progress(total, done, progress_mode(args), label=f"passcheck {args.command}", unit=unit)


def bindings_from(args) -> dict[str, int]:
    out: dict[str, int] = {}
    for sym, n in getattr(args, "bind", None) or []:
        if sym in out and out[sym] != n:
            raise PasscheckError(f"--bind {sym} given twice with different sizes ({out[sym]}, {n})")
        out[sym] = n
    return out


def console(stderr: bool = False):
    """:func:`passcheck.report.terminal.make_console` (imported on use: rich loads only when printing)."""
    from passcheck.report.terminal import make_console

    return make_console(stderr)


def positive(kind):
    """argparse type: a finite number in (0, 10^7) of ``kind`` (int or float)."""

    def parse(text: str):
        import argparse

        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
        if not (0 < value < 10**7):  # also refuses nan and inf
            raise argparse.ArgumentTypeError(f"expected a positive number below 10^7, got {text!r}")
        return value

    return parse


#: Options naming a file passcheck writes (argparse dest → flag).
OUTPUT_OPTIONS = {
    "json": "--json",
    "junit": "--junit",
    "markdown": "--markdown",
    "write_baseline": "--write-baseline",
    "stream": "--stream",
    "out": "--out",
}


def check_out_folder(flag: str, value: str) -> None:
    """Refuse an output folder that cannot be made or written, before any work and without creating it.

    Raises:
        PasscheckError: ``value`` is a file, or its nearest existing folder is not writable (read-only
            file system, permissions).
    """
    from pathlib import Path

    from passcheck.report.outpath import can_create_in

    p = Path(value).absolute()
    if p.exists() and not p.is_dir():
        raise PasscheckError(f"{flag} {value}: exists and is not a folder; choose a folder path")
    nearest = next(f for f in (p, *p.parents) if f.exists())
    if not nearest.is_dir() or not can_create_in(nearest):
        raise PasscheckError(f"{flag} {value}: {nearest} is not writable; choose a folder passcheck can write")


def check_outputs(args, *, stdout_ok=("json", "junit", "markdown", "write_baseline", "out")) -> bool:
    """Refuse output paths that cannot be written, before any work is done.

    A path must not be a directory, and its folder must exist and be writable; ``-`` (standard
    output) is allowed for the options in ``stdout_ok``, for one of them at most.

    Returns:
        True when an output is ``-`` (human output must then go to stderr).

    Raises:
        PasscheckError: an unwritable path, ``-`` where it is not allowed, or twice; one path for two outputs.
    """
    import os

    from passcheck.report.outpath import file_problem

    dashes, seen = [], {}
    for dest, flag in OUTPUT_OPTIONS.items():
        value = getattr(args, dest, None)
        if not isinstance(value, str) or not value:
            continue
        if value != "-":  # two outputs into one file: the later would overwrite the earlier
            key = os.path.realpath(value)
            if key in seen:
                raise PasscheckError(f"{seen[key]} and {flag} both name {value}: give each output its own file")
            seen[key] = flag
        if value == "-":
            if dest not in stdout_ok:
                raise PasscheckError(f"{flag} -: this output cannot go to standard output; give a file")
            dashes.append(flag)
            continue
        problem = file_problem(value)
        if problem:
            raise PasscheckError(f"{flag} {value}: {problem}")
    if len(dashes) > 1:
        raise PasscheckError(f"{' and '.join(dashes)} all say '-': only one output can go to standard output")
    return bool(dashes)
