"""One reproducer bundle on disk: ``repro.py``, ``REPORT.md`` and the form(s) it rebuilds, checked here.

- :func:`build`: the script text, the models, ``REPORT.md`` and how each model is spelled, for one finding
  (an ``ort:<level>`` missed optimization through :mod:`passcheck.repro.script`, any other through
  :mod:`passcheck.repro.generic`);
- :func:`write`: write them into a folder, run the script here (it must exit 1), and keep them only then.

``passcheck repro`` and ``passcheck triage`` both write their bundles through these two functions.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from passcheck.errors import PasscheckError
from passcheck.records import Finding

#: The tools a reproducer's environment section names.
VERSIONED = ("onnx", "onnxruntime", "numpy", "onnxscript")


def build(
    f: Finding,
    versions: Mapping[str, str | None],
    cases_from: Sequence[str] = (),
    bisected: str = "",
    attribution: Sequence[str] | None = None,
) -> tuple[str, dict, str, dict[str, str]]:
    """(script text, file name → ModelProto, ``REPORT.md`` text, file name → how it is spelled) for ``f``.

    Args:
        versions: tool → version for the environment section (``passcheck._versions.environment()``).
        cases_from: case module files or folders ``f``'s case comes from.
        bisected: Markdown naming the first bad version (:func:`passcheck.repro.bisected.first_bad`), or "".
        attribution: for an ``ort:<level>`` missed optimization, the transformers held responsible
            (default: those stored in the finding).

    Raises:
        PasscheckError: the forms cannot be rebuilt here, or the finding cannot be scripted faithfully
            (the reason, one line).
    """
    from passcheck.repro.plan import is_ort_parity

    versions = {k: v for k, v in versions.items() if k in VERSIONED}
    if is_ort_parity(f):
        names = list(f.attribution if attribution is None else attribution)
        return _ort_parity(f, versions, cases_from, bisected, names)
    return _generic(f, versions, cases_from, bisected)


def write(
    out: str | Path,
    text: str,
    models: Mapping[str, object],
    md: str,
    timeout: float = 600,
    python: str | Path | None = None,
) -> str:
    """Write ``repro.py``, the models and ``REPORT.md`` into ``out`` and return the script's ``BUG:`` line.

    The script is run first, here or with ``python`` (:func:`passcheck.repro.plan.verify`); when it does not
    exit 1 what was written is removed again (the folder too when this call created it).

    Raises:
        PasscheckError: ``out`` exists and is not a folder; the script does not reproduce the finding
            here, or ran past ``timeout`` seconds.
        AssertionError: the script imports passcheck (a passcheck bug).
    """
    import onnx

    from passcheck.repro.plan import verify

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PasscheckError(f"--out {out}: exists and is not a folder")
    if "import passcheck" in text or "from passcheck" in text:
        raise AssertionError("the reproducer must not import passcheck")
    fresh = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "repro.py", out / "REPORT.md", *(out / n for n in models)]
    (out / "repro.py").write_text(text, encoding="utf-8")
    for name, m in models.items():
        onnx.save(m, str(out / name))
    try:
        bug = verify(out / "repro.py", timeout, python)
    except PasscheckError:
        for p in written:
            p.unlink(missing_ok=True)
        if fresh:
            shutil.rmtree(out, ignore_errors=True)
        raise
    (out / "REPORT.md").write_text(md, encoding="utf-8")
    return bug


def pair_files(form: str, other, this) -> dict:
    """File name → model for a two-form finding on form ``form``: ``this`` is that form, ``other`` the one it is
    compared with. ``common.onnx`` holds the form named ``common`` whichever side the finding is on (a parity
    finding can sit on ``common``: its shape less precise than the uncommon form's), ``uncommon.onnx`` the other;
    REPORT.md's "Actual" line names the forms by those names, so the files must agree with it."""
    if form == "common":
        return {"common.onnx": this, "uncommon.onnx": other}
    return {"common.onnx": other, "uncommon.onnx": this}


def _ort_parity(f, versions, cases_from, bisected, attribution):
    from passcheck.attribution.forms import form_models
    from passcheck.repro.script import report_md, script

    a, b = form_models(f, cases_from)
    text, how = script(f, a, b, attribution)
    ort_versions = {k: v for k, v in versions.items() if k != "onnxscript"}
    return text, pair_files(f.form, a, b), report_md(f, how, attribution, ort_versions, bisected), how


def _generic(f, versions, cases_from, bisected):
    from passcheck.attribution.forms import form_model
    from passcheck.repro import generic
    from passcheck.repro.claims import claim
    from passcheck.repro.plan import case_feeds
    from passcheck.repro.tools import tool_call

    b = form_model(f, f.form, cases_from)
    c = claim(f)
    a = form_model(f, c.other or f.details["other_form"], cases_from) if c.two_forms else None
    call = tool_call(f.pass_id, b)
    if call is None:
        raise PasscheckError(
            f"finding {f.id!r}: repro cannot script it faithfully: {f.pass_id} has no target opset for form {f.form!r}"
        )
    if a is not None and tool_call(f.pass_id, a) != call:
        raise PasscheckError(
            f"finding {f.id!r}: repro cannot script it faithfully: "
            f"{f.pass_id} converts the two forms to different opsets"
        )
    feeds, rtol, atol = case_feeds(f, b, cases_from) if c.feeds else ([], None, None)
    c = claim(f, rtol, atol)
    text, how = generic.script(f, c, call, a, b, feeds)
    if "onnxscript" not in call.needs:
        versions = {k: v for k, v in versions.items() if k != "onnxscript"}
    models = pair_files(f.form, a, b) if a is not None else {"form.onnx": b}
    return text, models, generic.report_md(f, c, call, how, versions, bisected), how
