"""Which findings ``passcheck repro`` scripts, what it needs for one, and the check of what it wrote.

- :func:`refusal`: why a finding cannot be scripted faithfully (one line), or None;
- :func:`choose`: the finding a report's ``--finding`` names, or its only scriptable one;
- :func:`case_feeds`: the feeds (one dict per binding) and tolerances the engine used;
- :func:`verify`: run the written script here; it must exit 1 (the finding is present here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import Finding, brief


def is_ort_parity(f: Finding) -> bool:
    """An ``ort:<level>`` missed optimization (:mod:`passcheck.repro.script` writes it, attribution included)."""
    return f.pass_id.startswith("ort:") and f.pass_id != "ort:symbolic-shape-infer" and f.oracle == "parity" and f.kind == "missed-optimization"


def refusal(f: Finding) -> str | None:
    """Why ``f`` cannot be scripted faithfully, or None."""
    from passcheck.repro.claims import Claim, claim
    from passcheck.repro.tools import tool_call

    if is_ort_parity(f):
        return None if f.details.get("other_form") else "it compares no two forms"
    c = claim(f)
    if not isinstance(c, Claim):
        return c
    spec = f.pass_id.removeprefix("onnx:convert-opset-")
    if spec not in ("up", "down") and tool_call(f.pass_id) is None:
        return f"no standalone script calls pass {f.pass_id!r} (a command or a plugin's adapter)"
    return None


def choose(cells, finding_id: str | None) -> Finding:
    """The finding ``finding_id``, or the report's only unexpected finding :func:`refusal` accepts.

    Raises:
        PasscheckError: no such finding, none or several scriptable (ids listed), or the chosen
            one cannot be scripted faithfully (the reason, one line).
    """
    from passcheck.attribution.forms import find

    if finding_id:
        f = find(cells, finding_id)
        why = refusal(f)
        if why:
            raise PasscheckError(f"finding {f.id!r}: repro cannot script it faithfully: {why}")
        return f
    findings = [f for c in cells for f in c.findings if not f.expected]
    fit = [f for f in findings if refusal(f) is None]
    if len(fit) != 1:
        raise PasscheckError(f"{len(fit)} unexpected findings in the report that repro can script; choose one with --finding ID: "
                             + (", ".join(sorted({f.id for f in fit or findings})[:12]) or "none"))
    return fit[0]


def case_feeds(f: Finding, model, cases_from=()) -> tuple[list[dict], float | None, float | None]:
    """(feeds, rtol, atol) as the engine made them for ``f``'s case (its feed function or feeds
    synthesized from ``model``'s inputs, seeded by case id and binding); a model's finding gets
    feeds synthesized for two default bindings, its tolerances None (passcheck's defaults).

    Raises:
        FeedError: feeds cannot be synthesized from the model's input annotations.
    """
    from passcheck.engine import feeds_for
    from passcheck.runtime import default_bindings

    if f.case.startswith("model/"):
        return feeds_for(model, f.case, default_bindings(model)), None, None
    from passcheck.attribution.forms import form_model
    from passcheck.cases._registry import load_builtin

    case = load_builtin().get(f.case)
    first = form_model(f, next(iter(case.forms)), cases_from)
    return feeds_for(first, case.id, case.bindings, feed_fn=case.feeds), case.rtol, case.atol


#: Runs the script named by argv[1] as __main__ with passcheck unimportable (sys.modules entry None).
_WITHOUT_PASSCHECK = "import runpy, sys; sys.modules['passcheck'] = None; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"


def verify(path: Path, timeout: float = 600) -> str:
    """Run the script at ``path`` with this interpreter, isolated (``-I``: no PYTHONPATH, no user
    site) and with ``import passcheck`` made to fail, and return its ``BUG:`` line.

    Raises:
        PasscheckError: it did not exit 1 (0: the symptom is absent here; 2: its set-up or a
            premise failed), or it ran past ``timeout`` seconds.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    path = Path(path).resolve()  # it runs from its own folder: a relative path would name another file there
    try:
        r = subprocess.run([sys.executable, "-I", "-c", _WITHOUT_PASSCHECK, str(path)], capture_output=True, text=True, timeout=timeout,
                           cwd=path.parent, env=env)
    except subprocess.TimeoutExpired:
        raise PasscheckError(f"{path}: the script ran past {timeout:g} s here; not kept") from None
    bug = next((ln for ln in r.stdout.splitlines() if ln.startswith("BUG:")), "")
    if r.returncode == 1 and bug:
        return bug
    last = (r.stderr.strip().splitlines() or r.stdout.strip().splitlines() or [""])[-1]
    raise PasscheckError(f"the script does not reproduce the finding here (exit {r.returncode}: {brief(last, 300)}); not kept")
