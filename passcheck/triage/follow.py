"""What triage does for a candidate besides scripting it (issue 31), each step within the budget and never fatal:

- :func:`reduce`: the pair shrunk to the fewest nodes that still show the finding (:mod:`passcheck.reduce`, the
  steps and predicates of ``passcheck reduce``), written as a case module into the bundle's folder;
- :func:`attribute`: the transformer, rewrite rule or node held responsible
  (:func:`passcheck.attribution.dispatch.attribute`: ``disabled_optimizers`` bisection for onnxruntime's levels,
  onnxscript's rule-name tags, the node where shape inference falls behind);
- :func:`recheck`: what the script's run here says about the version of the tool installed here;
- :func:`not_bisected`: why no first bad version is named (``--bisect`` builds environments, so it is opt-in);
- :func:`model_md`: the bundle's models as ONNX text, so a maintainer reads the graph without running anything.

:func:`set_section` puts each answer into ``REPORT.md``'s "Attribution", "First bad version" and "Model" sections.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import Finding, brief

#: Seconds one candidate's reduction may take at most (the triage budget may leave less).
REDUCE_SECONDS = 30.0
#: A form with this many nodes or fewer is not reduced (nothing to gain).
SMALL = 3
#: The tools whose released versions a finding is re-checked and bisected over.
RELEASED = ("onnx", "onnxruntime", "onnxscript")


@dataclasses.dataclass
class Reduction:
    """``finding``: the one to script (the reduced pair's, or the original); ``module``: the reduced case module
    (None when not reduced); ``said``: one line for REPORT.md and candidate.json; ``nodes``: (before, after)."""

    finding: Finding
    module: str | None
    said: str
    nodes: tuple[int, int] | None = None


def reduce(f: Finding, folder: Path, cases_from: Sequence[str], executor, seconds: float) -> Reduction:
    """Shrink ``f``'s pair within ``seconds`` and register the smaller pair as case
    ``reduced/<case-form-pass-oracle-kind>-<hash>``
    from a module written into ``folder``. Never raises: a pair that cannot be reduced is said (``Reduction.said``)."""
    from passcheck.attribution.forms import form_model
    from passcheck.reduce.case_module import case_module, case_slug
    from passcheck.reduce.finding import case_settings, source_for
    from passcheck.reduce.pair import PairReducer
    from passcheck.reduce.predicates import predicate_for
    from passcheck.user_modules import load_file

    if seconds <= 1:
        return Reduction(f, None, "no (no time left in the budget)")
    try:
        n = len(form_model(f, f.form, cases_from).graph.node)
        if n <= SMALL:
            return Reduction(f, None, f"no (the form has {n} node(s) already)")
        settings = case_settings(f, cases_from)
        source, _ = source_for(f, cases_from, executor)
        reducer = PairReducer(source, predicate_for(f, executor, **settings), executor)
        red = reducer.reduce(time.monotonic() + seconds)
    except PasscheckError as exc:
        return Reduction(f, None, f"no ({brief(str(exc), 200)})")
    except Exception as exc:  # noqa: BLE001 - the reducer failing is said, never a crash of triage
        return Reduction(f, None, f"no (the reducer failed: {type(exc).__name__}: {brief(str(exc), 200)})")
    m = len(red.b.graph.node)
    if m >= n:
        return Reduction(f, None, f"no (no smaller pair shows it within {seconds:g} s)")
    digest = hashlib.sha256(f.id.encode() + red.b.SerializeToString()).hexdigest()[:12]
    digest += hashlib.sha256(red.a.SerializeToString() if red.a is not None else b"").hexdigest()[:4]
    case_id = f"reduced/{case_slug(f)[:60].rstrip('-.+_')}-{digest[:8]}"  # the case, form and pass stay readable
    folder.mkdir(parents=True, exist_ok=True)
    module = folder / f"reduced_{digest}.py"
    tol = {k: settings[k] for k in ("rtol", "atol") if settings.get(k) is not None}
    module.write_text(case_module(f, red.a, red.b, case_id=case_id, origin="passcheck triage", **tol), "utf-8")
    try:
        load_file(module)
    except PasscheckError as exc:
        return Reduction(f, None, f"no (the reduced case module does not load: {brief(str(exc), 200)})")
    details = dict(f.details)  # the module's forms: 'common' (a, or b again for a one-form finding) and b's
    form = f.form if f.form != "common" and re.fullmatch(r"[a-z0-9][a-z0-9_.+-]*", f.form) else "uncommon"
    if red.a is not None:
        details["other_form"] = "common"
    else:
        details.pop("other_form", None)
    done = "1-minimal" if red.finished else "the budget ran out before 1-minimal"
    reduced = dataclasses.replace(f, case=case_id, form=form, details=details, repro="")
    return Reduction(reduced, str(module), f"{n} → {m} nodes ({done}; case `{case_id}` in {module.name})", (n, m))


def attribute(f: Finding, executor, cases_from: Sequence[str]) -> tuple[list[str], str]:
    """(names, note) for ``f``; never raises (a finding attribution does not cover, or whose forms no longer
    build, gives no names and says why)."""
    from passcheck.attribution.dispatch import attribute as dispatch
    from passcheck.attribution.dispatch import covered

    if not covered(f):
        return [], (
            f"not attributed: attribution covers missed optimizations of onnxruntime and onnxscript, shape-inference "
            f"precision findings and failures of onnxruntime's optimizer, not a {f.kind} ({f.oracle}) of {f.pass_id}"
        )
    try:
        names, note = dispatch(f, executor, cases_from)
    except PasscheckError as exc:
        return [], f"not attributed: {brief(str(exc), 300)}"
    except Exception as exc:  # noqa: BLE001 - a tool dying under attribution is said, never a crash of triage
        return [], f"not attributed: {type(exc).__name__}: {brief(str(exc), 300)}"
    return names, note if names else f"not attributed: {note}"


def attribution_md(names: Sequence[str], note: str) -> str:
    """The body of REPORT.md's "Attribution" section."""
    return f"{', '.join(f'`{n}`' for n in names)} ({note})" if names else note


def recheck(tool: str, status: str, why: str, versions: Mapping[str, str | None]) -> str:
    """One line on the version installed here: ``still in <tool> <version>`` when its script exits 1 here."""
    from passcheck._versions import tool_version

    version = versions.get(tool) if tool in RELEASED else (tool_version(tool) if tool != "cmd" else None)
    named = f"{tool} {version}" if version else ("the command as given" if tool == "cmd" else tool)
    if status == "reproduced":
        return f"still in {named} (repro.py exits 1 here)"
    if status == "not reproduced":
        return f"not reproduced in {named} here ({brief(why, 200)})"
    return f"not re-checked ({status}: {brief(why, 200)})"


def not_bisected(tool: str, status: str, bisect_given: bool) -> str:
    """``not bisected: <why>`` (REPORT.md's "First bad version" when no bisection was run)."""
    if tool == "cmd":
        return "not bisected: cmd has no released versions passcheck can install"
    if tool not in RELEASED:
        return (
            f"not bisected: passcheck bisects only over the {', '.join(RELEASED)} versions its pinned environments "
            f"name (ci/envs/*.txt), not {tool}'s"
        )
    if status != "reproduced":
        return "not bisected: it does not reproduce here"
    if not bisect_given:
        return (
            "not bisected: --bisect was not given (it builds one environment per version of "
            f"{tool} the pinned environments name, ci/envs/*.txt)"
        )
    return "not bisected: no bisection was run"


def set_section(md: str, heading: str, body: str) -> str:
    """``md`` with the body of its ``## <heading>`` section replaced by ``body`` (the section appended when
    absent)."""
    pattern = re.compile(rf"(^## {re.escape(heading)}\n)(.*?)(?=^## |\Z)", re.M | re.S)
    if pattern.search(md):
        return pattern.sub(lambda m: m.group(1) + body.rstrip("\n") + "\n\n", md, count=1).rstrip("\n") + "\n"
    return md.rstrip("\n") + f"\n\n## {heading}\n{body.rstrip()}\n"


#: A line of a model's text longer than this (an initializer's values) is cut, and a model's text is cut after
#: :data:`MODEL_LINES` lines: the full model is the ``.onnx`` file next to REPORT.md.
MODEL_LINE_CHARS = 160
MODEL_LINES = 60


def model_md(folder: Path) -> str:
    """Markdown of each ``*.onnx`` file in ``folder`` (sorted by name) as ``onnx.printer`` text, each line at most
    :data:`MODEL_LINE_CHARS` characters and each model at most :data:`MODEL_LINES` lines (cuts marked ``…``);
    a file onnx cannot read or print is named with the reason. Empty when the folder holds no model."""
    import onnx
    import onnx.printer

    parts = []
    for path in sorted(folder.glob("*.onnx")):
        try:
            model = onnx.load(str(path), load_external_data=False)
            lines = onnx.printer.to_text(model).splitlines()
        except Exception as exc:  # noqa: BLE001 - a model the printer cannot show is said, never fatal
            parts.append(f"`{path.name}`: not shown ({type(exc).__name__}: {brief(str(exc))})")
            continue
        cut = [ln if len(ln) <= MODEL_LINE_CHARS else ln[: MODEL_LINE_CHARS - 1] + "…" for ln in lines[:MODEL_LINES]]
        if len(lines) > MODEL_LINES:
            cut.append(f"… ({len(lines) - MODEL_LINES} more lines in {path.name})")
        nodes = len(model.graph.node)
        parts.append(f"`{path.name}` ({nodes} node{'s' if nodes != 1 else ''}):\n\n```\n" + "\n".join(cut) + "\n```")
    return "\n\n".join(parts)
