"""onnxruntime's ``tools/qdq_helpers/optimize_qdq_model.py``: the command that once gave each consumer of a shared
``DequantizeLinear`` its own copy, so every QDQ node group is one a QDQ-aware kernel can take.

Its source (onnxruntime 1.32; its notice dates the change to 1.15) only loads the model (``onnx.load``), prints
"As of ORT 1.15, the fixing up of DQ nodes with multiple consumers is done by an ORT graph transformer" and saves
it (``onnx.save``): the duplication moved into onnxruntime's own graph transformer (``EnsureUniqueDQForNodeUnit``).
``ort-tools:optimize-qdq`` runs that command's function as its ``__main__`` does (``sys.argv`` set to the input and
output paths in ``workdir``) and returns the model it saved; what it is judged on is the load / save round trip
(the output must compute what the given model computes). It declares no optimization.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from unittest import mock

from passcheck.passes._base import PassAdapter

ID = "ort-tools:optimize-qdq"


class OptimizeQdqModelAdapter(PassAdapter):
    """``ort-tools:optimize-qdq`` (see the module docstring)."""

    id = ID
    tools = ("onnxruntime", "onnx")
    doc = "onnxruntime.tools.qdq_helpers.optimize_qdq_model.optimize_qdq_model() on {in} {out} (load and save)"

    def apply(self, model, workdir: Path):
        import onnx
        from onnxruntime.tools.qdq_helpers.optimize_qdq_model import optimize_qdq_model

        src, dst = Path(workdir) / "qdq_in.onnx", Path(workdir) / "qdq_out.onnx"
        onnx.save(model, str(src))
        with mock.patch.object(sys, "argv", ["optimize_qdq_model.py", str(src), str(dst)]):
            with contextlib.redirect_stdout(io.StringIO()):  # its one notice
                optimize_qdq_model()
        return onnx.load(str(dst))


ADAPTERS = (OptimizeQdqModelAdapter(),)
