"""onnxruntime's float16 conversion, ``OnnxModel.convert_float_to_float16`` (``onnxruntime/transformers/
onnx_model.py``, over ``float16.convert_float_to_float16``): every ``tensor(float)`` value, initializer and
attribute tensor becomes ``tensor(float16)``, except

- the nodes whose op type is in ``float16.DEFAULT_OP_BLOCK_LIST`` (TopK, Range, CumSum, Min, Max, Upsample,
  NonMaxSuppression, RoiAlign, the ONNX-ML ops …): they stay float, a ``Cast`` to float before each float16
  input they read and a ``Cast`` to float16 after each output;
- the inputs ``float16.ALWAYS_FLOAT_INPUTS`` names (Resize's ``scales``, GroupNorm's gamma/beta), kept float
  behind a ``Cast``;
- with ``keep_io_types=True`` (this method's default) the graph inputs and outputs, which stay float behind a
  ``Cast`` each.

The types it reads are the ones symbolic shape inference states (the method's default); it then removes
cascaded and same-type Casts. The result is taken after ``save_model_to_file``, which sorts the nodes
topologically (the Casts are appended at the end of the graph).

The pass keeps the interface and the computation at float16 precision (:attr:`precision`): the numeric oracle
judges it at float16's tolerance (:func:`passcheck.oracles.numeric.pass_tolerance`), every other oracle applies
as it is (validity: every value used where its type is stated; annotations: each ``value_info`` elem_type the
pass rewrote must hold at run time).
"""

from __future__ import annotations

import functools
from pathlib import Path

from passcheck.passes._base import PassAdapter

ID = "ort-transformers:float16"


class OrtFloat16Adapter(PassAdapter):
    """``ort-transformers:float16``: ``OnnxModel(model).convert_float_to_float16(keep_io_types=True)`` (the
    method's defaults otherwise), the model returned after ``save_model_to_file``.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever the conversion raises."""

    id = ID
    tools = ("onnxruntime", "onnx")
    optimizes = True  # it inserts Casts by a rule: both forms of one computation must get the same ones
    precision = "float16"
    doc = (
        "onnxruntime.transformers.onnx_model.OnnxModel(model).convert_float_to_float16(keep_io_types=True), "
        "then save_model_to_file (topological sort)"
    )

    @property
    def by_type(self) -> frozenset[str]:
        """The ops the conversion treats by type (:func:`declared`: block list, always-float inputs)."""
        d = declared()
        return frozenset(d.get("op_block_list", ())) | frozenset(d.get("always_float_inputs", {}))

    def apply(self, model, workdir: Path):
        import logging

        from onnxruntime.transformers.onnx_model import OnnxModel

        logging.getLogger("onnxruntime.transformers").setLevel(logging.ERROR)
        wrapped = OnnxModel(model)
        wrapped.convert_float_to_float16(keep_io_types=True)
        wrapped.save_model_to_file(str(Path(workdir) / "float16.onnx"))  # sorts the appended Casts into place
        return wrapped.model


@functools.cache
def declared() -> dict[str, object]:
    """What the installed release's ``float16`` module says it leaves float: ``{"op_block_list": [...],
    "always_float_inputs": {op: [input index, ...]}}`` (``DEFAULT_OP_BLOCK_LIST``, ``ALWAYS_FLOAT_INPUTS``); the
    hunt aims at those ops. Empty when onnxruntime is missing."""
    try:
        from onnxruntime.transformers import float16
    except ImportError:
        return {}
    return {
        "op_block_list": sorted(float16.DEFAULT_OP_BLOCK_LIST),
        "always_float_inputs": {k: list(v) for k, v in float16.ALWAYS_FLOAT_INPUTS.items()},
    }


ADAPTERS = (OrtFloat16Adapter(),)
