"""JUnit XML (one testcase per case/form/pass/env), written with junitparser."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from passcheck.records import CellResult

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml(text: str) -> str:
    """Text XML 1.0 can carry: tool output often holds ANSI escapes and other control bytes."""
    return _NOT_XML.sub("", text)


def write_junit(
    path: str | Path,
    cells: Iterable[CellResult],
    suite: str = "passcheck",
    *,
    partial: str = "",
    environments: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """One ``<testcase>`` per cell: ``classname`` = case id, ``name`` = ``form | pass | env``.

    Unexpected findings are failures, expected ones are skipped with the baseline reason,
    skipped/unavailable cells are skipped with theirs; each testcase carries the tool versions of its
    pass and the hash of the model it received (properties), the suite those of ``environments``
    (``ENV.TOOL``).
    ``partial``: the run was interrupted, and why its report is incomplete; a failing testcase
    ``interrupted`` says so, so that the cells it holds never read as a whole, passing run.
    """
    from junitparser import Failure, JUnitXml, Properties, Property, Skipped, TestCase, TestSuite

    from passcheck.report.json_report import atomic_write

    ts = TestSuite(suite)
    for env, versions in (environments or {}).items():
        for tool, version in versions.items():
            if isinstance(version, str):
                ts.add_property(f"{env}.{tool}", version)
    for c in cells:
        tc = TestCase(f"{c.form} | {c.pass_id} | {c.env}", classname=c.case, time=c.seconds)
        said = [(k, v) for k, v in [("model_sha256", c.model_sha256), *c.versions.items()] if isinstance(v, str) and v]
        if said:
            props = Properties()
            for name, value in said:
                props.add_property(Property(name, value))
            tc.append(props)
        new = [f for f in c.findings if not f.expected]
        if new:
            tc.result = [
                Failure(
                    _xml("; ".join(f"[{f.kind}] {f.message}" for f in new)[:2000]),
                    type_=",".join(sorted({f.kind for f in new})),
                )
            ]
            tc.system_out = _xml(
                "\n".join(
                    f"{f.headline()}"
                    + (f"\n  attributed to: {', '.join(f.attribution)}" if f.attribution else "")
                    + f"\n  reproduce: {f.repro}"
                    for f in new
                )
            )
        elif c.unchecked and not c.unchecked_known:
            tc.result = [
                Failure(
                    _xml("not checked: " + "; ".join(f"{k}: {v}" for k, v in c.unchecked.items())[:2000]),
                    type_="unchecked",
                )
            ]
        elif c.status in ("skipped", "unavailable"):
            tc.result = [Skipped(_xml(f"{c.status}: {c.error or ''}"))]
        elif c.findings:
            tc.result = [Skipped(_xml("expected: " + "; ".join(f.reason for f in c.findings)))]
        ts.append(tc)  # add_testcase recounts the suite on every call: quadratic on a big matrix
    if partial:
        tc = TestCase("interrupted", classname=suite)
        tc.result = [Failure(_xml(f"interrupted: {partial}"), type_="interrupted")]
        ts.append(tc)
    ts.update_statistics()
    xml = JUnitXml()
    xml.add_testsuite(ts)
    tmp = Path(str(path) + ".tmp")
    xml.write(str(tmp), pretty=False)  # pretty printing goes through minidom: slow on a big matrix
    atomic_write(path, tmp.read_text(encoding="utf-8"))
    tmp.unlink()
