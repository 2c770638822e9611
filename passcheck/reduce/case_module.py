"""A case module (for ``--cases-from``) holding a reduced pair, spelled with onnx.helper."""

from __future__ import annotations

import re

from passcheck.repro.source import model_source


def case_slug(finding) -> str:
    """``<case>-<form>-<pass>`` in case-id characters (the case is ``reduced/<slug>``)."""
    return re.sub(r"[^a-z0-9_.+-]+", "-", f"{finding.case.split('/')[-1]}-{finding.form}-{finding.pass_id}".lower()).strip("-")


def case_module(finding, a, b) -> str:
    """Python source registering case ``reduced/<case-form-pass>`` with forms ``common`` (``a``,
    the form the pass optimized) and the finding's form (``b``; ``uncommon`` when it is named
    ``common``), targeting the finding's pass."""
    slug = case_slug(finding)
    form_b = finding.form if finding.form != "common" and re.fullmatch(r"[a-z0-9][a-z0-9_.+-]*", finding.form) else "uncommon"
    src_a, how_a = model_source(a, "build_common")
    src_b, how_b = model_source(b, "build_uncommon")
    opset = next((o.version for o in a.opset_import if o.domain in ("", "ai.onnx")), 0)
    doc = (f"Reduced by passcheck reduce from finding {finding.id}: {finding.message}").replace('"""', "'''")
    return f'''"""reduced/{slug}: a minimal pair showing one finding (common: {how_a}, {form_b}: {how_b})."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


{src_a}

{src_b}

register(Case(
    id={"reduced/" + slug!r},
    forms={{"common": Form(build_common), {form_b!r}: Form(build_uncommon, {("the form " + finding.pass_id + " misses")!r})}},
    doc={doc!r},
    opset={opset},
    passes=({finding.pass_id!r},),
    tags=frozenset({{"reduced"}}),
))
'''
