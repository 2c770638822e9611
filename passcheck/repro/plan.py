"""Which findings ``passcheck repro`` scripts, what it needs for one, and the check of what it wrote.

- :func:`refusal`: why a finding cannot be scripted faithfully (one line), or None;
- :func:`choose`: the finding a report's ``--finding`` names, or the first of the highest :func:`rank`;
- :func:`case_feeds`: the feeds (one dict per binding) and tolerances the engine used;
- :func:`verify`: run the written script here (or with another interpreter); it must exit 1 (the finding is
  present there);
- :func:`interpreter_versions`: the tools' versions another interpreter has installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import Finding, brief


def is_ort_parity(f: Finding) -> bool:
    """An ``ort:<level>`` missed optimization (:mod:`passcheck.repro.script` writes it, attribution included)."""
    return (
        f.pass_id.startswith("ort:")
        and f.pass_id != "ort:symbolic-shape-infer"
        and f.oracle == "parity"
        and f.kind == "missed-optimization"
    )


#: Passes whose tool call depends on the form (the neighbouring opset boundary): :func:`tool_call` spells
#: them only given the model.
PER_MODEL = (
    "onnx:convert-opset-up",
    "onnx:convert-opset-down",
    "onnxscript:convert-opset-up",
    "onnxscript:convert-opset-up-ir",
)


def refusal(f: Finding) -> str | None:
    """Why ``f`` cannot be scripted faithfully, or None."""
    from passcheck.repro.claims import Claim, claim
    from passcheck.repro.tools import tool_call

    if is_ort_parity(f):
        return None if f.details.get("other_form") else "it compares no two forms"
    c = claim(f)
    if not isinstance(c, Claim):
        return c
    per_model = f.pass_id in PER_MODEL  # the call's target depends on the form: spelled per form
    if not per_model and tool_call(f.pass_id) is None:
        return f"no standalone script calls pass {f.pass_id!r} (a command or a plugin's adapter)"
    return None


#: Finding ranks, most severe first (issue 31): what ``repro`` picks without ``--finding``.
RANKS = ("crash", "wrong result", "invalid output", "wrong shape or type", "missed optimization", "other")


def rank(f: Finding) -> str:
    """The rank of ``f`` in :data:`RANKS`: ``crash`` (the tool died or raised: ``rejected`` with
    status ``crashed``), ``wrong result``, ``invalid output`` (the checker rejects it), ``wrong
    shape or type`` (an annotation violated or less precise), ``missed optimization``, else ``other``."""
    if f.kind == "rejected" and (f.details or {}).get("status") == "crashed":
        return "crash"
    return {
        "wrong-result": "wrong result",
        "invalid-model": "invalid output",
        "annotation-violated": "wrong shape or type",
        "less-precise": "wrong shape or type",
        "missed-optimization": "missed optimization",
    }.get(f.kind, "other")


def choose(cells, finding_id: str | None) -> tuple[Finding, str]:
    """The finding ``finding_id``, or the first unexpected finding of the highest :func:`rank`
    that :func:`refusal` accepts, and a line saying which was chosen and why (empty when named).

    Raises:
        PasscheckError: no such finding, none scriptable (the unexpected ids listed), or the named
            one cannot be scripted faithfully (the reason, one line).
    """
    from passcheck.attribution.forms import choice, find

    if finding_id:
        f = find(cells, finding_id)
        why = refusal(f)
        if why:
            raise PasscheckError(f"finding {f.id!r}: repro cannot script it faithfully: {why}")
        return f, ""
    findings = [f for c in cells for f in c.findings if not f.expected]
    fit = [f for f in findings if refusal(f) is None]
    if not fit:
        raise PasscheckError(
            "no unexpected finding in the report that repro can script; unexpected: "
            + (", ".join(sorted({f.id for f in findings})[:12]) or "none")
        )
    best = min(fit, key=lambda f: RANKS.index(rank(f)))  # min keeps report order among equals
    said = f"chose {choice(best, fit)} ({rank(best)}: the first of the highest rank of {len(fit)} findings repro "
    said += "can script; "
    return best, (said + "--finding ID for another)" if len(fit) > 1 else "")


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
_WITHOUT_PASSCHECK = (
    "import runpy, sys; sys.modules['passcheck'] = None; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], "
    "run_name='__main__')"
)


def verify(path: Path, timeout: float = 600, python: str | Path | None = None) -> str:
    """Run the script at ``path`` with ``python`` (default: this interpreter), isolated (``-I``: no PYTHONPATH,
    no user site) and with ``import passcheck`` made to fail, and return its ``BUG:`` line.

    Raises:
        PasscheckError: it did not exit 1 (0: the symptom is absent there; 2: its set-up or a
            premise failed), or it ran past ``timeout`` seconds.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = "here" if python is None else f"with {python}"
    path = Path(path).resolve()  # it runs from its own folder: a relative path would name another file there
    try:
        r = subprocess.run(
            [str(python or sys.executable), "-I", "-c", _WITHOUT_PASSCHECK, str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=path.parent,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise PasscheckError(f"{path}: the script ran past {timeout:g} s {where}; not kept") from None
    bug = next((ln for ln in r.stdout.splitlines() if ln.startswith("BUG:")), "")
    if r.returncode == 1 and bug:
        return bug
    last = (r.stderr.strip().splitlines() or r.stdout.strip().splitlines() or [""])[-1]
    raise PasscheckError(
        f"the script does not reproduce the finding {where} (exit {r.returncode}: {brief(last, 300)}); not kept"
    )


#: Prints the installed version (or null) of each distribution named in argv, as one JSON object.
_VERSIONS = (
    "import json, sys; from importlib import metadata as m\n"
    "def v(n):\n    try:\n        return m.version(n)\n    except m.PackageNotFoundError:\n        return None\n"
    "print(json.dumps({n: v(n) for n in sys.argv[1:]}))"
)


def interpreter_versions(python: str | Path, names: Sequence[str]) -> dict[str, str | None]:
    """The installed version of each distribution in ``names`` for the interpreter ``python`` (None: not
    installed there), read from its package metadata (``importlib.metadata``, nothing imported).

    Raises:
        PasscheckError: ``python`` cannot be run or does not answer (one line).
    """
    try:
        r = subprocess.run([str(python), "-I", "-c", _VERSIONS, *names], capture_output=True, text=True, timeout=120)
        got = json.loads(r.stdout) if r.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise PasscheckError(f"--python {python}: cannot be run ({type(exc).__name__}: {exc})") from None
    if not isinstance(got, dict):
        last = (r.stderr.strip().splitlines() or [""])[-1]
        raise PasscheckError(f"--python {python}: exit {r.returncode} reading its versions ({brief(last, 200)})")
    return {n: got.get(n) for n in names}
