"""Argument groups and helpers shared by subcommands."""

from __future__ import annotations

import argparse
import re

from passcheck.errors import PasscheckError


def bind_arg(text: str) -> tuple[str, int]:
    """Parse ``SYM=N`` (N a non-negative integer)."""
    m = re.fullmatch(r"\s*([^=\s]+)\s*=\s*(\d+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected SYM=N with N a non-negative integer, got {text!r}")
    return m.group(1), int(m.group(2))


def add_pass_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pass", dest="passes", action="append", default=[], metavar="ID",
                   help="pass id (repeatable): ort:basic, onnx:infer-shapes, onnx:convert-opset-18, \"cmd:TOOL {in} {out}\" …; default: every default pass")


def regex_arg(text: str) -> str:
    """argparse type: a valid Python regex (kept as text)."""
    try:
        re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"not a valid regex {text!r}: {exc}") from None
    return text


def add_unknown_dim_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unknown-dim-param", type=regex_arg, metavar="REGEX",
                   help="dim_param names fully matching REGEX mean 'unknown dim' and assert nothing (e.g. '\\?' or 'unk__\\d+', "
                        "spellings some tools write on unrelated axes); default: every dim_param is a symbol")


def add_output_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    g.add_argument("--json", metavar="FILE", help="write the canonical JSON report")
    g.add_argument("--junit", metavar="FILE", help="write JUnit XML (one testcase per case/form/pass)")
    g.add_argument("--markdown", metavar="FILE", help="write a Markdown report (CI step summary)")
    g.add_argument("--baseline", metavar="FILE", help="known findings (JSON): matched findings are expected, not failures")
    g.add_argument("--write-baseline", metavar="FILE", help="write every finding of this run as a baseline file")
    g.add_argument("-q", "--quiet", action="store_true", help="print findings and the summary only, not the grid")


def bindings_from(args) -> dict[str, int]:
    out: dict[str, int] = {}
    for sym, n in getattr(args, "bind", None) or []:
        if sym in out and out[sym] != n:
            raise PasscheckError(f"--bind {sym} given twice with different sizes ({out[sym]}, {n})")
        out[sym] = n
    return out


def console():
    """A rich Console: the terminal's width on a terminal, 200 columns in logs and pipes."""
    import sys

    from rich.console import Console

    return Console(soft_wrap=True, width=None if sys.stdout.isatty() else 200)


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
