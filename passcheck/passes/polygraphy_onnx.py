"""``polygraphy:*``: NVIDIA Polygraphy's ONNX-side transformations (``polygraphy.backend.onnx.loader``), run as its
command line chains them (``polygraphy/tools/args/backend/onnx/loader.py``, ``tools/surgeon/subtool/sanitize.py``).

Polygraphy is a prototyping and debugging toolkit; these loaders are graph passes users run before TensorRT or
onnxruntime. Each promises a model that computes what the given one does:

- ``polygraphy:sanitize`` — ``polygraphy surgeon sanitize IN -o OUT`` with no option: the model loaded through
  ``InferShapes`` (``OnnxInferShapesArgs(default=True)``; ``allow_onnxruntime`` defaults to True, so onnxruntime's
  ``SymbolicShapeInference.infer_shapes(model, auto_merge=True)`` first, ``onnx.shape_inference`` when that raises,
  the model as given when both do: ``error_ok`` defaults to True) and saved.
- ``polygraphy:sanitize-fold`` (``--fold-constants``), ``polygraphy:sanitize-fold-no-shapes`` (``… --no-fold-shapes``)
  and ``polygraphy:sanitize-fold-recursive`` (``… --partitioning recursive``): the same load, then ``FoldConstants``
  (onnx-graphsurgeon's ``fold_constants`` evaluating constant subgraphs with onnxruntime, ``cleanup``, shape inference
  between passes, repeated until the node count stops falling). Its docstring: it folds "subgraphs whose values are
  not dependent on runtime inputs", and with ``fold_shapes`` the ``Shape`` nodes of static shapes.
- ``polygraphy:infer-shapes`` — ``InferShapes(model, allow_onnxruntime=False)``: ``onnx.shape_inference.infer_shapes``
  (errors suppressed); ``polygraphy:infer-shapes-ort`` — ``InferShapes(model)``, onnxruntime's symbolic shape
  inference with ``auto_merge=True`` and the onnx fallback.
- ``polygraphy:fp16`` — ``ConvertToFp16(model)`` (``polygraphy convert --fp-to-fp16``): onnxconverter-common's
  ``float16.convert_float_to_float16(model, keep_io_types=True, disable_shape_infer=True)``; judged at float16's
  precision (:attr:`PassAdapter.precision`) as ``ort-transformers:float16`` is.
- ``polygraphy:mark-all-outputs`` — ``polygraphy run --onnx-outputs mark all --shape-inference``: ``InferShapes`` then
  ``ModifyOutputs(model, outputs=constants.MARK_ALL)``: every non-``Constant`` node output becomes a graph output,
  declared from the model's ``value_info`` (``backend/onnx/util.py``: ``mark_outputs``), so the annotations oracle
  checks the type the inference gave every intermediate at run time.

The Python API is called rather than the command line (the same loader objects, in the order the command line's
script builds them); a missing ``polygraphy`` (or the package a step imports) makes every id ``unavailable``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from passcheck.passes._base import PassAdapter, PassUnsupported

PREFIX = "polygraphy:"
#: How onnxconverter-common words its documented refusal (``check_if_fp16_ready``, ``check_fp16_ready=True`` by
#: default): a model that already holds float16 values or Casts is not converted again (a stated limit).
STATED = ("The model is already converted to float16",)


@dataclasses.dataclass(frozen=True)
class Variant:
    """One id: which loaders run, with which arguments (the command line's spelling in ``doc``)."""

    name: str
    doc: str
    infer: bool = True  # the load's InferShapes (allow_onnxruntime as ``ort_infer``)
    ort_infer: bool = True
    fold: dict | None = None  # FoldConstants keyword arguments, or None: no folding
    fp16: bool = False
    mark_all: bool = False
    steps: tuple[str, ...] = ()


#: What every ``--fold-constants`` id runs whole: gs's round trip, then (:data:`fold_steps`) its fold and the load's
#: ``InferShapes``; a finding both gs and onnxruntime's inference show (a dropped doc_string) stays gs's row 1278.
GS_ROUND_TRIP = ("onnx-gs:round-trip",)


def fold_steps(gs_fold: str) -> tuple[str, ...]:
    """The ``steps`` of a ``--fold-constants`` id whose FoldConstants is the gs pass ``gs_fold``."""
    return (*GS_ROUND_TRIP, gs_fold, "ort:symbolic-shape-infer")


VARIANTS = (
    Variant(
        "sanitize",
        "polygraphy surgeon sanitize IN -o OUT (InferShapes, onnxruntime's inference allowed)",
        steps=("ort:symbolic-shape-infer",),
    ),
    # The --fold-constants chain: the load's InferShapes (onnxruntime's inference first), then FoldConstants, which is
    # onnx-graphsurgeon's Graph.fold_constants(fold_shapes, partitioning) + cleanup on gs.import_onnx's graph,
    # exported back (polygraphy/backend/onnx/loader.py): what those calls show is onnxruntime's or onnx-graphsurgeon's
    # documented row (round 21i: the value_float Constant lowered to DOUBLE is gs's row 1271 either way).
    Variant(
        "sanitize-fold",
        "polygraphy surgeon sanitize --fold-constants (InferShapes, FoldConstants)",
        fold={},
        steps=fold_steps("onnx-gs:fold-constants"),
    ),
    Variant(
        "sanitize-fold-no-shapes",
        "polygraphy surgeon sanitize --fold-constants --no-fold-shapes",
        fold={"fold_shapes": False},
        steps=fold_steps("onnx-gs:fold-constants-no-shapes"),
    ),
    Variant(
        "sanitize-fold-recursive",
        "polygraphy surgeon sanitize --fold-constants --partitioning recursive",
        fold={"partitioning": "recursive"},
        steps=fold_steps("onnx-gs:fold-constants-partition"),
    ),
    Variant(
        "infer-shapes",
        "InferShapes(model, allow_onnxruntime=False): onnx.shape_inference, errors suppressed",
        ort_infer=False,
        steps=("onnx:infer-shapes",),
    ),
    Variant(
        "infer-shapes-ort",
        "InferShapes(model): onnxruntime SymbolicShapeInference(auto_merge=True), onnx fallback",
        steps=("ort:symbolic-shape-infer",),
    ),
    Variant(
        "fp16",
        "ConvertToFp16(model) (polygraphy convert --fp-to-fp16)",
        infer=False,
        fp16=True,
        # ConvertToFp16 is onnxconverter-common's convert_float_to_float16(keep_io_types=True) called whole: a defect
        # that call shows is that package's documented row (polygraphy/backend/onnx/loader.py).
        steps=("occ:float16-keep-io",),
    ),
    Variant(
        "mark-all-outputs", "InferShapes then ModifyOutputs(outputs=MARK_ALL) (--onnx-outputs mark all)", mark_all=True
    ),
)


class PolygraphyAdapter(PassAdapter):
    """``polygraphy:<variant>`` (see module docs): Polygraphy's loaders applied to the model, written to ``workdir``
    first and loaded by path as the command line does.

    Raises (from :meth:`apply`, recorded as ``crashed``): whatever a loader raises (``FoldConstants`` and
    ``InferShapes`` suppress their own errors by default, so a failing fold or inference returns the model
    unfolded / un-inferred, which the missed-folding and parity oracles then judge)."""

    tools = ("polygraphy", "onnx-graphsurgeon", "onnxruntime", "onnx")
    extra = "polygraphy onnx-graphsurgeon"
    warm = ("sympy",)  # onnxruntime's symbolic inference imports it (onnxruntime itself starts threads: not warmed)

    def __init__(self, variant: Variant):
        self.variant = variant
        self.id = f"{PREFIX}{variant.name}"
        self.doc = variant.doc
        self.steps = variant.steps
        if variant.fp16:
            self.tools = ("polygraphy", "onnxconverter-common", "onnx")
            self.extra = "polygraphy onnxconverter-common"

    @property
    def folds_constants(self) -> bool:  # type: ignore[override]
        return self.variant.fold is not None

    @property
    def folds_shapes(self) -> bool:  # type: ignore[override]
        """False for ``--no-fold-shapes`` ("Disable folding Shape nodes and subgraphs that operate on shapes")."""
        return (self.variant.fold or {}).get("fold_shapes", True)

    @property
    def optimizes(self) -> bool:  # type: ignore[override]
        # folding rewrites the graph; the float16 conversion inserts Casts by a rule (as ort-transformers:float16)
        return self.variant.fold is not None or self.variant.fp16

    @property
    def precision(self) -> str | None:  # type: ignore[override]
        return "float16" if self.variant.fp16 else None

    @property
    def by_type(self) -> frozenset[str]:
        """The op types onnxconverter-common's conversion keeps float by type (its ``DEFAULT_OP_BLOCK_LIST``)."""
        if not self.variant.fp16:
            return frozenset()
        try:
            from onnxconverter_common import float16
        except ImportError:
            return frozenset()
        return frozenset(float16.DEFAULT_OP_BLOCK_LIST)

    def apply(self, model, workdir: Path):
        import onnx
        from polygraphy.logger import G_LOGGER

        G_LOGGER.module_severity = G_LOGGER.CRITICAL  # its warnings go to stdout; failures are the outcome
        from polygraphy import constants
        from polygraphy.backend.onnx import ConvertToFp16, FoldConstants, InferShapes, ModifyOutputs

        v = self.variant
        path = Path(workdir) / "model.onnx"
        onnx.save(model, str(path))
        here = os.getcwd()
        os.chdir(workdir)  # onnxruntime's symbolic inference may write sym_shape_infer_temp.onnx into the cwd
        try:
            out = InferShapes(str(path), allow_onnxruntime=v.ort_infer)() if v.infer else model
            if v.fold is not None:
                out = FoldConstants(out, **v.fold)()
            if v.mark_all:
                out = ModifyOutputs(out, outputs=constants.MARK_ALL)()
            if v.fp16:
                try:
                    out = ConvertToFp16(out)()
                except ValueError as exc:
                    if any(w in str(exc) for w in STATED):
                        raise PassUnsupported(str(exc)) from exc
                    raise
        finally:
            os.chdir(here)
        return out


ADAPTERS = tuple(PolygraphyAdapter(v) for v in VARIANTS)
