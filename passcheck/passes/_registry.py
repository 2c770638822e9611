"""Pass ids → adapters. Fixed ids, parametrized ids (``onnx:convert-opset-N``, ``onnxscript:rule-NAME``,
``onnxoptimizer:pass-NAME``,
``cmd:'TOOL {in} {out}'``, the ``cmd+fold:onnxsim`` / ``cmd+fold:onnxslim`` recipes, ``PASS+external-data``),
user-registered adapters and adapters other packages ship (:mod:`passcheck.passes.plugins`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from passcheck.errors import PasscheckError, RegistryError, UnknownIdError
from passcheck.passes import onnxoptimizer_passes, onnxscript_rules
from passcheck.passes._base import PassAdapter, default_opset, set_step_lookup
from passcheck.passes.command import RECIPES, CommandAdapter, recipe
from passcheck.passes.external_data import SUFFIX as EXTERNAL_DATA
from passcheck.passes.external_data import wrap as external_data
from passcheck.passes.occ_float16 import ADAPTERS as OCC_FLOAT16
from passcheck.passes.occ_optimizer import ADAPTERS as OCC_OPTIMIZER
from passcheck.passes.onnx_external_load import ADAPTERS as ONNX_EXTERNAL_LOAD
from passcheck.passes.onnx_graphsurgeon import ADAPTERS as ONNX_GS
from passcheck.passes.onnx_inliner import ADAPTERS as INLINERS
from passcheck.passes.onnx_ir_common import PREFIX as ONNX_IR_PREFIX
from passcheck.passes.onnx_model_utils import ADAPTERS as ONNX_MODEL_UTILS
from passcheck.passes.onnx_shape_inference import VARIANTS, OnnxShapeInferenceAdapter
from passcheck.passes.onnxscript_onnx_fusions import ID as ONNX_FUSIONS
from passcheck.passes.onnxscript_onnx_fusions import OnnxscriptOnnxFusionsAdapter
from passcheck.passes.onnxscript_optimizer import (
    OnnxscriptOptimizerAdapter,
    OnnxscriptOrtFusionAdapter,
    OnnxscriptRewriteAdapter,
)
from passcheck.passes.onnxscript_version_converter import (
    OnnxscriptVersionConverterAdapter,
    OnnxscriptVersionConverterIrAdapter,
)
from passcheck.passes.onnxtool_passes import ADAPTERS as ONNX_TOOL
from passcheck.passes.ort_config import ADAPTERS as ORT_CONFIG
from passcheck.passes.ort_config import WITHOUT as ORT_WITHOUT
from passcheck.passes.ort_dim_fix import ADAPTERS as ORT_DIM_FIX
from passcheck.passes.ort_float16 import ADAPTERS as ORT_FLOAT16
from passcheck.passes.ort_format import ADAPTERS as ORT_FORMAT
from passcheck.passes.ort_optimizer import LEVELS, OrtOptimizerAdapter
from passcheck.passes.ort_qdq_helpers import ADAPTERS as ORT_QDQ_HELPERS
from passcheck.passes.ort_qnn_preprocess import ADAPTERS as ORT_QNN
from passcheck.passes.ort_quant_options import ADAPTERS as ORT_QUANT_OPTIONS
from passcheck.passes.ort_quant_preprocess import ADAPTERS as ORT_QUANT
from passcheck.passes.ort_quantize import ADAPTERS as ORT_QUANTIZE
from passcheck.passes.ort_remove_initializer_input import ADAPTERS as ORT_REMOVE_INIT_INPUT
from passcheck.passes.ort_symbolic_shape_infer import OrtSymbolicShapeInferAdapter
from passcheck.passes.ort_transformers import ADAPTERS as ORT_TRANSFORMERS
from passcheck.passes.ort_transformers import PREFIX as ORT_TRANSFORMERS_PREFIX
from passcheck.passes.ort_transformers_options import ADAPTERS as ORT_TRANSFORMERS_OPTIONS
from passcheck.passes.ort_weight_quant import ADAPTERS as ORT_WEIGHT_QUANT
from passcheck.passes.polygraphy_onnx import ADAPTERS as POLYGRAPHY
from passcheck.passes.python_tools import ADAPTERS as PYTHON_TOOLS
from passcheck.passes.tool_options import ADAPTERS as TOOL_OPTIONS
from passcheck.passes.version_converter import OpsetBoundaryAdapter, VersionConverterAdapter, opset_boundary
from passcheck.user_modules import loading

_FIXED: dict[str, PassAdapter] = {}
for _level in LEVELS:
    _FIXED[f"ort:{_level}"] = OrtOptimizerAdapter(_level)
for _variant in VARIANTS:
    _FIXED[f"onnx:{_variant}"] = OnnxShapeInferenceAdapter(_variant)
_FIXED["onnxscript:optimize"] = OnnxscriptOptimizerAdapter()
_FIXED["onnxscript:rewrite"] = OnnxscriptRewriteAdapter()
_FIXED["onnxscript:optimize-for-ort"] = OnnxscriptOrtFusionAdapter()
_FIXED[ONNX_FUSIONS] = OnnxscriptOnnxFusionsAdapter()
_FIXED[onnxscript_rules.OPT_IN] = onnxscript_rules.OnnxscriptRuleAdapter(onnxscript_rules.OPT_IN)
_FIXED[onnxoptimizer_passes.OPT_IN] = onnxoptimizer_passes.OnnxoptimizerPassAdapter(onnxoptimizer_passes.OPT_IN)
_FIXED["ort:symbolic-shape-infer"] = OrtSymbolicShapeInferAdapter()
_FIXED["onnxscript:convert-opset-up"] = OnnxscriptVersionConverterAdapter()
_FIXED["onnxscript:convert-opset-up-ir"] = OnnxscriptVersionConverterIrAdapter()
for _direction in ("down", "up"):
    _FIXED[f"onnx:convert-opset-{_direction}"] = OpsetBoundaryAdapter(_direction)
for _adapter in PYTHON_TOOLS:  # onnxsim / onnxslim / onnxoptimizer through their Python API (extra installs)
    _FIXED[_adapter.id] = _adapter
# onnx.inliner; onnxruntime.transformers' Python fusions and float16 conversion; onnx.compose / onnx.utils;
# onnx's external-data loader; quant_pre_process and the quantizers (8-bit, weight-only); qnn's pre-processing;
# onnxruntime's make_dynamic_shape_fixed and remove_initializer_from_input; the ORT format round trip;
# onnxconverter-common's float16 conversion and mixed-precision search; onnx-graphsurgeon
for _adapter in (
    *INLINERS,
    *ORT_TRANSFORMERS,
    *ORT_FLOAT16,
    *ONNX_MODEL_UTILS,
    *ONNX_EXTERNAL_LOAD,
    *ORT_QUANT,
    *ORT_QUANTIZE,
    *ORT_DIM_FIX,
    *ORT_REMOVE_INIT_INPUT,
    *ORT_WEIGHT_QUANT,
    *ORT_QNN,
    *ORT_FORMAT,
    *OCC_FLOAT16,
    *OCC_OPTIMIZER,  # onnxconverter-common's graph optimizer (optimize_onnx_model)
    *ORT_QDQ_HELPERS,  # onnxruntime.tools.qdq_helpers.optimize_qdq_model (a load / save since ORT 1.15)
    *ORT_CONFIG,  # ort:<level>+<session config key>=<value>
    *ONNX_GS,
    *ONNX_TOOL,  # onnx-tool's shape inference, folding, Conv+BN fusion and reordering (extra install)
    *POLYGRAPHY,  # Polygraphy's ONNX loaders (sanitize, fold, infer, fp16, mark all)
    *TOOL_OPTIONS,  # onnxsim:simplify+<option> / onnxslim:slim+<option>: one documented option set (extra installs)
    *ORT_TRANSFORMERS_OPTIONS,  # ort-transformers:<type>+<FusionOptions flag / opt_level>
    *ORT_QUANT_OPTIONS,  # ort-quant:<variant>+<extra_options key>
):
    _FIXED[_adapter.id] = _adapter
_USER: dict[str, PassAdapter] = {}
_ORIGIN: dict[str, str] = {}  # pass id -> the user module (--cases-from) that registered it
_PLUGINS: dict[str, PassAdapter] | None = None  # read on first need (entry points)
_ONNX_IR: dict[str, PassAdapter] | None = None  # onnx_ir's common passes, introspected on first need

#: The baseline every pass output is compared with.
BASELINE = "ort:disabled"
#: What ``run`` and ``check`` use when no ``--pass`` is given.
DEFAULT_PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "onnx:infer-shapes-data-prop",
    "onnxscript:optimize",
    "ort:symbolic-shape-infer",
)
#: What ``matrix`` adds to every case's passes when no ``--pass`` is given: a version-converter
#: sweep to the neighbouring opset boundaries, which differ between the pinned onnx releases.
MATRIX_SWEEP = ("onnx:convert-opset-down", "onnx:convert-opset-up")
_CONVERT = re.compile(r"^onnx:convert-opset-(\d+)$")


def register_pass(adapter: PassAdapter) -> PassAdapter:
    """Make ``adapter`` reachable by its id.

    Raises:
        RegistryError: the id is empty or already taken.
    """
    if (
        not adapter.id
        or adapter.id in _FIXED
        or _taken_onnx_ir(adapter.id)
        or adapter.id in _USER
        or adapter.id in _plugins()
    ):
        raise RegistryError(f"pass id {adapter.id!r} is empty or already registered")
    _USER[adapter.id] = adapter
    if (module := loading()) is not None:
        _ORIGIN[adapter.id] = module
    return adapter


def unregister_pass(pass_id: str) -> None:
    _USER.pop(pass_id, None)
    _ORIGIN.pop(pass_id, None)


def forget_modules(modules: set[str]) -> None:
    """Unregister the passes the user modules ``modules`` registered."""
    for pass_id in [i for i, m in _ORIGIN.items() if m in modules]:
        unregister_pass(pass_id)


def get_pass(pass_id: str) -> PassAdapter:
    """The adapter for an id a user typed.

    Raises:
        UnknownIdError: no such id (close matches suggested).
        PasscheckError: a malformed parametrized id.
    """
    if pass_id in _FIXED:
        return _FIXED[pass_id]
    if _taken_onnx_ir(pass_id):
        return _onnx_ir()[pass_id]
    if pass_id in _USER:
        return _USER[pass_id]
    if pass_id in _plugins():
        return _plugins()[pass_id]
    if pass_id.endswith(EXTERNAL_DATA):  # any pass, its model's initializers in an external data file
        return external_data(pass_id, get_pass)
    if m := _CONVERT.match(pass_id):
        target = int(m.group(1))
        if not 7 <= target <= 30:
            raise PasscheckError(f"pass {pass_id!r}: target opset must be between 7 and 30")
        return VersionConverterAdapter(target)
    if ORT_WITHOUT.match(pass_id):  # ort:<level>-without-<TransformerName>
        from passcheck.passes import ort_config

        return ort_config.without(pass_id)
    if pass_id.startswith(onnxscript_rules.PREFIX):
        return onnxscript_rules.adapter(pass_id)
    if pass_id.startswith(onnxoptimizer_passes.PREFIX):
        return onnxoptimizer_passes.adapter(pass_id)
    if pass_id.startswith(ORT_TRANSFORMERS_PREFIX):  # the model types beyond the fixed ones, read on first need
        from passcheck.passes import ort_transformers

        return ort_transformers.adapter(pass_id)
    for prefix, folds in (("cmd:", False), ("cmd+fold:", True)):
        if pass_id.startswith(prefix):
            template = pass_id[len(prefix) :].strip().strip("'\"")
            if template in RECIPES:
                return recipe(template, folds)
            return CommandAdapter(template, folds_constants=folds)
    raise UnknownIdError(
        "pass",
        pass_id,
        list(known_pass_ids())
        + [
            "onnx:convert-opset-N",
            "onnxscript:rule-NAME",
            "onnxoptimizer:pass-NAME",
            "ort:LEVEL-without-TRANSFORMER",
            "cmd:'TOOL {in} {out}'",
            f"PASS{EXTERNAL_DATA}",
        ],
    )


set_step_lookup(get_pass)  # PassAdapter.stated_limit reads a step's limit through it (M519)


def imports_of(pass_ids: Iterable[str]) -> tuple[str, ...]:
    """The thread-free modules the fixed passes among ``pass_ids`` import when they run (their
    adapters' :attr:`~passcheck.passes.PassAdapter.warm`), once each, in order; other ids (unknown,
    parametrized, user and plugin passes) name none, and nothing is imported to find them."""
    return tuple(dict.fromkeys(m for i in pass_ids if (a := _FIXED.get(i)) is not None for m in a.warm))


def known_pass_ids() -> tuple[str, ...]:
    """Every fixed, registered and plugin id (parametrized ids and recipes are not listed)."""
    return tuple(_FIXED) + tuple(_onnx_ir()) + tuple(_USER) + tuple(i for i in _plugins() if i not in _USER)


def boundary_passes() -> dict[str, str]:
    """The fixed ids whose target is each model's neighbouring ai.onnx opset boundary
    (:func:`~passcheck.passes.version_converter.opset_boundary`) → its direction (``"up"`` / ``"down"``): every
    fixed adapter that converts the opset (``converts_opset``) and states a ``direction``, in registry order.
    Every entry point of a converter is listed, since each converts through its own code (the onnxscript
    converter's ModelProto and ``ir.Model`` entry points: :mod:`~passcheck.passes.onnxscript_version_converter`)."""
    return {i: a.direction for i, a in _FIXED.items() if a.converts_opset and getattr(a, "direction", None)}


def conversion(pass_id: str, model) -> str | None:
    """The conversion a per-model boundary pass (:func:`boundary_passes`: ``onnx:convert-opset-down`` / ``-up``,
    ``onnxscript:convert-opset-up`` / ``-up-ir``) asks of ``model`` (``"20->19"``, from
    :func:`~passcheck.passes.version_converter.opset_boundary`), or None for any other pass (a fixed target
    is the same request for every model). Two forms given different conversions were asked
    different things: a limit the converter states on one says nothing about the other. The external-data
    carrier of a boundary pass (``onnx:convert-opset-down+external-data``) asks what its inner pass asks."""
    direction = boundary_passes().get(pass_id.removesuffix(EXTERNAL_DATA))
    if direction is None:
        return None
    target, _ = opset_boundary(model, direction)
    return f"{default_opset(model)}->{target}"


def parametrized_pass_ids() -> tuple[str, ...]:
    """The parametrized ids the installed tools list one by one: ``onnxoptimizer:pass-NAME`` for each pass
    ``onnxoptimizer.get_available_passes()`` lists (less the ones left out,
    :data:`~passcheck.passes.onnxoptimizer_passes.NOT_COMPUTATION_PRESERVING`) and ``ort-transformers:TYPE`` for
    each offered model type of ``onnxruntime.transformers.optimizer.MODEL_TYPES`` beyond the fixed ones. Empty
    for a tool that is not installed. ``onnx:convert-opset-N``, ``onnxscript:rule-NAME`` and ``cmd:`` ids are
    not listed (a target opset, a rule or a command is the user's choice)."""
    from passcheck.passes import ort_transformers

    try:
        more = ort_transformers.extra_pass_ids()
    except ImportError:
        more = []
    return (*onnxoptimizer_passes.pass_ids(), *more)


def _taken_onnx_ir(pass_id: str) -> bool:
    return pass_id.startswith(ONNX_IR_PREFIX) and pass_id in _onnx_ir()


def _onnx_ir() -> dict[str, PassAdapter]:
    """``onnx-ir:*`` ids (:mod:`passcheck.passes.onnx_ir_common`): introspecting the module imports
    onnx_ir (about a second), so it happens on first need, not when the registry loads."""
    global _ONNX_IR
    if _ONNX_IR is None:
        from passcheck.passes import onnx_ir_common

        _ONNX_IR = {a.id: a for a in onnx_ir_common.adapters()}
    return _ONNX_IR


def _plugins() -> dict[str, PassAdapter]:
    global _PLUGINS
    if _PLUGINS is None:
        from passcheck.passes import plugins

        _PLUGINS = plugins.load(set(_FIXED))
    return _PLUGINS
