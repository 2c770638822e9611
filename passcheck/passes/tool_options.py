"""onnxsim's and onnxslim's own options as passes: the stages a default run never reaches.

``onnxsim:simplify`` and ``onnxslim:slim`` (:mod:`passcheck.passes.python_tools`) call each tool with its defaults.
Both tools document keyword options that switch a whole stage on or off, and a stage reached only through an option is
code no default run exercises (the reasoning of :mod:`passcheck.passes.ort_config` for onnxruntime's session keys).
:data:`OPTIONS` holds the options whose value keeps the computation the model states, each read where the tool's own
source documents it:

- ``onnxsim.simplify`` (onnxsim 0.8.1, ``onnxsim/onnx_simplifier.py``, its docstring): ``include_subgraph`` (simplify
  the bodies of If / Loop / Scan too), ``inline_functions`` (onnx's inliner first), ``initializers_as_constants=False``
  (initializers treated as non-constant), ``mutable_initializer`` (initializers also kept as graph inputs),
  ``skip_fuse_bn``, ``skip_constant_folding``, ``skip_shape_inference``, ``perform_optimization=False`` (no onnx
  optimizer pass), ``range_opt`` (range-driven rewrites proven over the annotated input box: with no box, over every
  input), ``gemm_fusion_backend='unrestricted'`` (MatMul+Add → Gemm for every dtype), and ``extra_optimizers=[NAME]``
  for the optimizer passes onnxsim registers outside its default set (``onnxsim --list-other-optimizers``) whose name
  states an equivalent rewrite (:data:`EXACT_EXTRA`);
- ``onnxslim.slim`` (onnxslim 0.1.98, ``onnxslim/cli/_main.py`` and ``core/__init__.py``): ``no_shape_infer``,
  ``skip_optimizations=[KEY]`` for each key of ``OptimizationSettings`` (``constant_folding``, ``graph_fusion``,
  ``dead_node_elimination``, ``subexpression_elimination``, ``weight_tying``: the other stages still run), and
  ``size_threshold`` (constants larger than it are not folded, ``fold_constants(size_threshold=)``).

Left out, since they change what the model computes or its interface: onnxsim's quantizers, pruners and dtype rewrites
among the other optimizers (``quantize_*``, ``*_quantize_*``, ``magnitude_pruning_*``, ``float16_to_float32``,
``rewrite_input_dtype``, ``defuse_matmul_integer_to_float``: its header says it drops a dynamic quantization), the
interface edits ``rank0_to_rank1`` (a rank-0 graph output made rank 1, its header) and ``lift_lexical_references``
(writes ``__control_inputs``, "a graph that does not conform to the ONNX spec", onnx optimizer's own header; it raises
"Unresolved value references" on any main graph that reads an initializer), the renaming ones (``rename_input_output``,
``set_unique_name_for_nodes``), the model splitters (``split_init``, ``split_predict``), ``overwrite_input_shapes`` and
``target_opset_version`` (a binding and an opset conversion: :mod:`.ort_dim_fix` and ``onnx:convert-opset-N`` judge
those); onnxslim's ``dtype`` (a float16 conversion) and ``input_shapes`` / ``inputs`` / ``outputs`` (interface edits).
``no_constant_folding``, which onnxslim's ``OptimizationArguments`` docstring lists, is read by neither ``slim`` nor
its CLI (``skip_optimizations=['constant_folding']`` is that stage's switch).

A pass id is the plain id, ``+``, the option and its value: ``onnxsim:simplify+include_subgraph`` (a flag set to the
value that departs from its default), ``onnxsim:simplify+extra_optimizers=neg_to_mul``,
``onnxslim:slim+skip_optimizations=constant_folding``. Each declares the plain pass its step: a defect documented for
the default run that shows the same way under an option is that row's (:func:`passcheck.hunt.documented.which`), and
``report.rootcause.pass_family`` groups every option under its plain pass.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from passcheck.passes.python_tools import OnnxsimAdapter, OnnxslimAdapter

SIMPLIFY = OnnxsimAdapter.id
SLIM = OnnxslimAdapter.id

#: onnxsim's optimizer passes outside its default set whose name states a rewrite to an equivalent graph
#: (``onnxsim --list-other-optimizers``, onnxsim 0.8.1): the defusions, explicit paddings, gather/scatter respellings.
EXACT_EXTRA: tuple[str, ...] = (
    "adjust_add",
    "adjust_slice_and_matmul",
    "dilated_conv_to_taps",
    "explicit_auto_pad",
    "explicit_conv_padding",
    "fuse_matmul_add_bias_into_gemm_batched",
    "fuse_matmul_into_conv",
    "fuse_reduce_sum_into_conv",
    "gemm_transA_to_transpose",
    "maxpool_rowmajor_when_indices_unused",
    "neg_to_mul",
    "pow2_to_mul",
    "replace_einsum_with_matmul",
    "rewrite_gather_over_concat",
    "rewrite_gatherelements_to_gather",
    "rewrite_gathernd_to_gather",
    "rewrite_implicit_broadcast",
    "rewrite_scatterelements_to_scatternd",
    "rewrite_tensor_scatter_to_scatter_elements",
    "split_large_gather",
)
#: onnxslim's ``OptimizationSettings.keys()``: each stage ``skip_optimizations`` can switch off.
SLIM_STAGES: tuple[str, ...] = (
    "constant_folding",
    "graph_fusion",
    "dead_node_elimination",
    "subexpression_elimination",
    "weight_tying",
)


def keyed_id(base: str, name: str, value: Any) -> str:
    """The id of pass ``base`` with one option set: ``base+name`` for a flag set True, else ``base+name=value``
    (``onnxsim:simplify+include_subgraph``, ``ort-quant:quantize-dynamic+MatMulConstBOnly=False``)."""
    return f"{base}+{name}" if value is True else f"{base}+{name}={value}"


@dataclasses.dataclass(frozen=True)
class Option:
    """One keyword option of a tool's entry point, set to the value that departs from its default.

    Attributes:
        base: the plain pass id (``onnxsim:simplify`` / ``onnxslim:slim``).
        name / value: the keyword and its value; a list-valued keyword (``extra_optimizers``,
            ``skip_optimizations``) holds one name and is passed as a one-element list.
        listed: the keyword takes a list.
        reason: what the tool's own source says the option does.
        folds: the option leaves the tool's constant folding on (False: switched off or narrowed, so a kept
            constant-only node is what the option asks for, not a missed fold: the adapter's ``folds_constants``).
    """

    base: str
    name: str
    value: Any
    reason: str
    listed: bool = False
    folds: bool = True

    @property
    def pass_id(self) -> str:
        return keyed_id(self.base, self.name, self.value)

    @property
    def kwargs(self) -> dict[str, Any]:
        return {self.name: [self.value] if self.listed else self.value}


OPTIONS: tuple[Option, ...] = (
    Option(SIMPLIFY, "include_subgraph", True, "simplify the If / Loop / Scan bodies, not only the main graph"),
    Option(SIMPLIFY, "inline_functions", True, "inline model-local functions (onnx's inliner) before simplifying"),
    Option(
        SIMPLIFY,
        "initializers_as_constants",
        False,
        "initializers are not constants: no folding from them",
        folds=False,
    ),
    Option(SIMPLIFY, "mutable_initializer", True, "initializers are kept as graph inputs too"),
    Option(SIMPLIFY, "skip_fuse_bn", True, "the default optimizer set without fuse_bn_into_conv"),
    Option(
        SIMPLIFY,
        "skip_constant_folding",
        True,
        "no constant folding: shape inference and the optimizer alone",
        folds=False,
    ),
    # observed, not read in its source: without inferred shapes onnxsim leaves a constant Expand unfolded (library
    # cases broadcast/implicit-vs-expand, broadcast-expand/pow-15.second); judged as not folding
    Option(
        SIMPLIFY, "skip_shape_inference", True, "no shape inference between the optimizer and the folding", folds=False
    ),
    Option(SIMPLIFY, "perform_optimization", False, "no onnx optimizer pass: shape inference and folding alone"),
    Option(SIMPLIFY, "range_opt", True, "range-driven rewrites (dead Relu/Clip/Min/Max, decided Where/If)"),
    Option(SIMPLIFY, "gemm_fusion_backend", "unrestricted", "MatMul+Add -> Gemm fused for every operand dtype"),
    *(
        Option(SIMPLIFY, "extra_optimizers", name, "an optimizer pass outside the default set", listed=True)
        for name in EXACT_EXTRA
    ),
    Option(SLIM, "no_shape_infer", True, "no shape inference between the optimization rounds"),
    *(
        Option(
            SLIM,
            "skip_optimizations",
            key,
            "OptimizationSettings: this stage off, the others on",
            listed=True,
            folds=key != "constant_folding",
        )
        for key in SLIM_STAGES
    ),
    Option(SLIM, "size_threshold", 64, "constants of more than 64 bytes are not folded", folds=False),
)


def _call(option: Option, model):
    if option.base == SIMPLIFY:
        import onnxsim

        simplified, _check = onnxsim.simplify(model, **option.kwargs)
        return simplified
    import onnxslim

    return onnxslim.slim(model, **option.kwargs)


class ToolOptionAdapter(OnnxsimAdapter):
    """The plain pass's tool called with one :class:`Option` set; see the module docs.

    The capabilities are the plain pass's (both tools fold and optimize; no option here approximates) but
    ``folds_constants``, False for an option that switches folding off or narrows it (:attr:`Option.folds`); the extra
    install too; its step is the plain pass. Whatever the tool raises is recorded as the plain pass's is."""

    def __init__(self, option: Option):
        plain = OnnxsimAdapter if option.base == SIMPLIFY else OnnxslimAdapter
        self.option = option
        self.id = option.pass_id
        self.tools = plain.tools
        self.extra = plain.extra  # type: ignore[misc]
        self.steps = (option.base,)
        self.folds_constants = option.folds  # type: ignore[misc]
        args = ", ".join(f"{k}={v!r}" for k, v in option.kwargs.items())
        self.doc = f"{plain.doc.split(' with its defaults')[0]} with {args}: {option.reason}"

    def apply(self, model, workdir: Path):
        return _call(self.option, model)


ADAPTERS: tuple[ToolOptionAdapter, ...] = tuple(ToolOptionAdapter(o) for o in OPTIONS)


def option_of(pass_id: str) -> Option | None:
    """The :class:`Option` an option pass id sets, or None for any other id."""
    return next((o for o in OPTIONS if o.pass_id == pass_id), None)
