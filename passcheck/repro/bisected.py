"""``REPORT.md``'s "First bad version" section, from a ``bisect.json`` that ``passcheck bisect`` wrote."""

from __future__ import annotations

import json
from pathlib import Path

from passcheck.errors import PasscheckError


def not_bisected(package: str = "onnxruntime") -> str:
    """What the section says when no bisection is given, for the tool ``package`` (a pip name)."""
    return (
        f"not bisected (run `passcheck bisect RUN.json --finding ID --package {package} --from VERSION --out DIR`, "
        "then `passcheck repro … --bisect DIR/bisect.json`)"
    )


#: What the section says for an onnxruntime finding when no bisection is given.
NOT_BISECTED = not_bisected()


def first_bad(path: str | Path | None, finding_id: str, package: str = "onnxruntime") -> str:
    """Markdown for the section: the first bad and last good versions of a regression, the fixing
    version of a fix, or that no change was found in the range; :func:`not_bisected` for no ``path`` (``package``: the tool under test).
    A bisection of another finding (e.g. the unreduced one) is named.

    Raises:
        PasscheckError: ``path`` cannot be read or is not a ``bisect.json``.
    """
    if path is None:
        return not_bisected(package)
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        package, direction, versions = doc["package"], doc["direction"], list(doc["range"])
        old, new, skipped = doc.get("last_old"), doc.get("first_new"), list(doc.get("skipped_between") or [])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PasscheckError(
            f"--bisect {path}: not a bisect.json written by 'passcheck bisect' ({type(exc).__name__}: {exc})"
        ) from None
    span = (
        f"{package} {versions[0]} … {versions[-1]}, {len(versions)} releases, {len(doc.get('probes') or [])} probed"
        if versions
        else package
    )
    if direction == "regression":
        text = f"**{package} {new}** (last good: {old})"
    elif direction == "fix":
        text = f"present up to {package} {old}, **fixed in {new}** (the first bad version is older than the range)"
    else:
        text = f"no change in the range: {doc.get('conclusion') or 'not determined'}"
    if skipped:
        text += f"; untestable releases between them, where the change may lie: {', '.join(skipped)}"
    other = doc.get("finding")
    who = f" on finding `{other}`" if other and other != finding_id else ""
    return f"{text} (bisected{who} over {span})."
