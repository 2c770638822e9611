"""A case module (for ``--cases-from``) holding a reduced pair, spelled with onnx.helper."""

from __future__ import annotations

import re

from passcheck.repro.source import model_source


def case_slug(finding) -> str:
    """``<case>-<form>-<pass>-<oracle>-<kind>`` in case-id characters (the case is ``reduced/<slug>``): two
    findings of one cell (a parity and a folding finding of the same case, form and pass) reduce to two
    modules and two case ids, so neither overwrites nor shadows the other in one ``--out``."""
    where = f"{finding.case.split('/')[-1]}-{finding.form}-{finding.pass_id}-{finding.oracle}-{finding.kind}"
    return re.sub(r"[^a-z0-9_.+-]+", "-", where.lower()).strip("-")


def case_module(
    finding,
    a,
    b,
    *,
    case_id: str | None = None,
    origin: str = "passcheck reduce",
    rtol: float | None = None,
    atol: float | None = None,
    bindings=None,
    feeds: tuple[str, str] | None = None,
) -> str:
    """Python source registering case ``case_id`` (default ``reduced/<case-form-pass-oracle-kind>``) with forms
    ``common`` (``a``, the form the finding compares with) and the finding's form (``b``; ``uncommon``
    when it is named ``common`` or is no valid form name), targeting the finding's pass; for a
    one-form finding (``a`` None) ``b`` is both (a case needs an uncommon form). ``origin`` says what made it,
    ``rtol`` / ``atol`` are the case's tolerances, ``bindings`` its binding maps (symbol → size, one per run) and
    ``feeds`` its feed function as (import statement, expression over ``build_uncommon``)."""
    case_id = case_id or "reduced/" + case_slug(finding)
    form_b = (
        finding.form
        if finding.form != "common" and re.fullmatch(r"[a-z0-9][a-z0-9_.+-]*", finding.form)
        else "uncommon"
    )
    src_b, how_b = model_source(b, "build_uncommon")
    if a is None:
        src_a, how_a = "build_common = build_uncommon", how_b
        forms = (  # a case needs an uncommon form: the same model, the form a one-form finding is scripted on
            f'{{"common": Form(build_uncommon), {form_b!r}: Form(build_uncommon, '
            f"{('the same model (a one-form finding of ' + finding.pass_id + ')')!r})}}"
        )
    else:
        src_a, how_a = model_source(a, "build_common")
        forms = (
            f'{{"common": Form(build_common), {form_b!r}: Form(build_uncommon, '
            f"{('the form showing ' + finding.pass_id + ' ' + finding.oracle + ' ' + finding.kind)!r})}}"
        )
    opset = next((o.version for o in b.opset_import if o.domain in ("", "ai.onnx")), 0)
    doc = (f"Reduced by {origin} from finding {finding.id}: {finding.message}").replace('"""', "'''")
    tolerances = "".join(f"\n    {k}={v!r}," for k, v in (("rtol", rtol), ("atol", atol)) if v is not None)
    if bindings:
        tolerances += f"\n    bindings={tuple(dict(b) for b in bindings)!r},"
    if feeds:
        tolerances += f"\n    feeds={feeds[1]},"
    imports = f"{feeds[0]}\n" if feeds else ""
    return f'''"""{case_id}: a minimal {"pair" if a is not None else "model"} showing one finding \
(common: {how_a}, {form_b}: {how_b})."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register
{imports}

{src_b}

{src_a}

register(Case(
    id={case_id!r},
    forms={forms},
    doc={doc!r},
    opset={opset},
    passes=({finding.pass_id!r},),
    tags=frozenset({{"reduced"}}),{tolerances}
))
'''
