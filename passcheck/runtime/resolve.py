"""onnxruntime's graph resolution of a model, without running it (M382).

onnxruntime checks a model when it creates a session, before it assigns kernels: every node against its schema
(onnx's or its own contrib schemas, ``core/graph/contrib_ops/*_defs.cc``) and the schema's type and shape inference
function, whose results it merges with the model's own annotations. With the session option
``session.strict_shape_type_inference`` = ``1`` (``onnxruntime_session_options_config_keys.h``) a merge that
fails (a declared dim or rank the inference contradicts) refuses the model instead of logging a warning. Kernel
assignment comes after: a model whose only refusal is "Could not find an implementation for Op(N)"
(``NOT_IMPLEMENTED``, :func:`passcheck.runtime.limits.missing_kernel`) passed every check of the schema, and its
annotations agree with what onnxruntime's own inference states, though no kernel of this build runs it.

So for an op onnxruntime registers a schema for but no CPU kernel (its CUDA / ROCm ops: NhwcConv, GroupNorm,
PackedAttention, ...), this is the one judge of a model's validity and of its annotations there is without a GPU.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

#: onnxruntime's session option that makes a failed merge of inferred and declared shapes an error
STRICT = "session.strict_shape_type_inference"


def resolve(data: bytes) -> str:
    """onnxruntime's refusal of the serialized model ``data`` when it creates a strict CPU session (module docs), or
    "" when it creates one. Runs onnxruntime in this process (see :func:`resolve_all` for another process)."""
    import onnxruntime as ort

    from passcheck.runtime.session import session_options

    so = session_options()
    so.add_session_config_entry(STRICT, "1")
    try:
        ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the answer
        return str(exc) or type(exc).__name__
    return ""


def resolve_all(models: Sequence[bytes], timeout: float = 300) -> list[str]:
    """:func:`resolve` of each serialized model, in one child Python process (a model that kills onnxruntime costs
    the batch, not passcheck's process): each answer is "" or onnxruntime's refusal; every answer is
    "onnxruntime's process died: …" when the child dies or times out."""
    if not models:
        return []
    with tempfile.TemporaryDirectory(prefix="passcheck-resolve-") as d:
        paths = []
        for k, data in enumerate(models):
            p = Path(d) / f"{k}.onnx"
            p.write_bytes(data)
            paths.append(str(p))
        code = (
            "import json, sys, pathlib\n"
            "from passcheck.runtime.resolve import resolve\n"
            "print(json.dumps([resolve(pathlib.Path(p).read_bytes()) for p in sys.argv[1:]]))\n"
        )
        try:
            done = subprocess.run(
                [sys.executable, "-c", code, *paths], capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return [f"onnxruntime's process died: no answer in {timeout:g} s"] * len(models)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("[")]
        if done.returncode != 0 or not lines:
            why = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            return [f"onnxruntime's process died: {why[:300]}"] * len(models)
        return json.loads(lines[-1])


__all__ = ["STRICT", "resolve", "resolve_all"]
