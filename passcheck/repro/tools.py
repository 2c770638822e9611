"""How a reproducer runs the pass under test: the tool call an adapter makes, as Python source.

:func:`tool_call` gives, for a pass id, the source of ``def apply(model) -> onnx.ModelProto``
calling the tool exactly as the adapter in :mod:`passcheck.passes` does (same function, same
flags), the packages it needs beyond onnx, onnxruntime and numpy, and the tool whose versions
the script prints; a ``cmd:`` command is run as the adapter runs it (its own signal death is the
script's child's). Passes it cannot spell (plugins) give None.
"""

from __future__ import annotations

import dataclasses
import shlex


@dataclasses.dataclass(frozen=True)
class ToolCall:
    """``source``: ``def apply(model)`` (needs ``onnx``, ``ort``, ``os``, ``tempfile`` imported);
    ``imports``: extra import lines; ``needs``: extra pip packages; ``doc``: the call in words."""

    source: str
    doc: str
    imports: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()


_ORT_OPTIMIZE = '''def apply(model):
    """The model onnxruntime writes after optimizing it at {level} (optimized_model_filepath)."""
    with tempfile.TemporaryDirectory() as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.{level}
        so.optimized_model_filepath = os.path.join(d, "optimized.onnx")
        so.log_severity_level = 3  # errors only
        so.intra_op_num_threads = 1
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return onnx.load(so.optimized_model_filepath)
'''


def _load_external_source() -> str:
    """A reproducer's ``apply`` for ``onnx:load-external-data``: the adapter's own walker and writer
    (:mod:`passcheck.passes.onnx_external_load`, their source), then onnx's loader on the folder they wrote."""
    import inspect

    from passcheck.passes import onnx_external_load as m

    parts = [f"NUMERIC = {sorted(m.NUMERIC)!r}\nLOCATION = {m.LOCATION!r}\n"]
    parts += [inspect.getsource(f) for f in (m.tensors, m._graph_tensors, m._node_tensors, m.as_raw, m.externalize)]
    parts.append(
        "def apply(model):\n    with tempfile.TemporaryDirectory() as d:\n        externalize(model, Path(d))\n"
        "        external_data_helper.load_external_data_for_model(model, d)\n        return model\n"
    )
    return "\n\n".join(parts)


_SYMBOLIC = '''def apply(model):
    """onnxruntime's symbolic shape inference, as its command line runs it (no auto-merge, no guessed ranks)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)  # the tool may write a temporary model into the current folder
        try:
            out = SymbolicShapeInference.infer_shapes(model, auto_merge=False, guess_output_rank=False)
        finally:
            os.chdir(here)
    if out is None:
        raise RuntimeError("SymbolicShapeInference.infer_shapes returned None")
    return out
'''


_ORT_FUSIONS = '''def apply(model):
    """optimize_for_ort on the IR this onnxscript uses (onnx_ir, or the onnxscript.ir older releases bundle,
    whose optimize_for_ort rewrites in place and returns None)."""
    try:
        import onnx_ir as ir
    except ImportError:
        import onnxscript.ir as ir
    m = ir.serde.deserialize_model(model)
    result = optimize_for_ort(m)
    return ir.serde.serialize_model(result[0] if isinstance(result, tuple) else m)
'''

_ONNX_IR_PASS = '''def apply(model):
    """onnx_ir.passes.common.{cls}() with its defaults, on the IR of the model."""
    result = onnx_ir.passes.common.{cls}()(onnx_ir.serde.deserialize_model(model))
    return onnx_ir.serde.serialize_model(result.model)
'''

_ORT_TRANSFORMERS = '''def apply(model):
    """onnxruntime's transformer optimizer, Python fusions only (opt_level=0), heads and hidden size detected;
    the model as save_model_to_file leaves it (it adds the com.microsoft import). The fusions rewrite the
    ModelProto they are given: they get a copy, as passcheck's adapter does."""
    given = onnx.ModelProto()
    given.CopyFrom(model)
    optimized = optimize_model(given, {model_type!r}, num_heads=0, hidden_size=0, opt_level=0{options})
    with tempfile.TemporaryDirectory() as d:
        optimized.save_model_to_file(os.path.join(d, "optimized.onnx"))
    return optimized.model
'''

_FORM_RUN = '''def apply(model):
    """The form itself, once onnxruntime has run it on every feed set (as passcheck runs each form)."""
    for feeds in feed_sets():
        run(model, feeds)
    return model
'''

_COMMAND = '''def apply(model):
    """The model the command writes to {{out}} when given the model at {{in}} (as passcheck's cmd: adapter runs it)."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.onnx"), os.path.join(d, "out.onnx")
        onnx.save(model, src)
        argv = [a.replace("{{in}}", src).replace("{{out}}", dst) for a in {argv!r}]
        r = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if r.returncode < 0:  # the tool's own death: this (child) process dies of the same signal
            import signal
            signal.signal(-r.returncode, signal.SIG_DFL)
            os.kill(os.getpid(), -r.returncode)
        if r.returncode != 0:
            raise RuntimeError(f"exit {{r.returncode}}: " + " ".join((r.stderr or r.stdout).split())[-400:])
        return onnx.load(dst)
'''


#: The Python-API optimizers (:mod:`passcheck.passes.python_tools`): the call each adapter makes, and its package
#: (also its module, and the one whose ``__version__`` the script prints).
_PYTHON_TOOLS = {
    "onnxsim:simplify": ("onnxsim.simplify(model)[0]", "onnxsim"),
    "onnxslim:slim": ("onnxslim.slim(model)", "onnxslim"),
    "onnxoptimizer:optimize": ("onnxoptimizer.optimize(model)", "onnxoptimizer"),
}
#: Packages whose version a script prints beside onnx's (imported as the name with ``-`` → ``_``).
VERSIONED_EXTRAS = ("onnxscript", "onnx-ir", "onnx-graphsurgeon", *(package for _, package in _PYTHON_TOOLS.values()))


def _weight_quant_call(name: str) -> ToolCall | None:
    """The call of ``ort-quant:matmul-nbits*`` / ``matmul-bnb4`` (:mod:`passcheck.passes.ort_weight_quant`) and
    ``ort-quant:qnn-preprocess*`` (:mod:`passcheck.passes.ort_qnn_preprocess`), as their adapters make it."""
    from passcheck.passes.ort_qnn_preprocess import VARIANTS as QNN
    from passcheck.passes.ort_weight_quant import BLOCK, NBITS

    if name in QNN:
        args = "".join(f", {k}={v!r}" for k, v in QNN[name].items())
        source = (
            "def apply(model):\n    with tempfile.TemporaryDirectory() as d:\n"
            "        out = os.path.join(d, 'qnn_preprocessed.onnx')\n"
            f"        if not qnn_preprocess_model(model, out{args}):\n"
            "            return model  # it writes nothing when it changed nothing\n"
            "        return onnx.load(out)\n"
        )
        imports = ("from onnxruntime.quantization.execution_providers.qnn.preprocess import qnn_preprocess_model",)
        return ToolCall(source, f"qnn_preprocess_model(model, out{args})", imports)
    if name == "matmul-bnb4":
        call = f"MatMulBnb4Quantizer(model, MatMulBnb4Quantizer.FP4, {BLOCK})"
        imports = ("from onnxruntime.quantization.matmul_bnb4_quantizer import MatMulBnb4Quantizer",)
    elif name in NBITS:
        opts = dict(NBITS[name])
        fmt = opts.pop("quant_format", None)
        args = "".join(f", {k}={v!r}" for k, v in opts.items()) + (f", quant_format=QuantFormat.{fmt}" if fmt else "")
        call = f"MatMulNBitsQuantizer(model, block_size={BLOCK}{args})"
        imports = (
            "from onnxruntime.quantization import QuantFormat",
            "from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer",
        )
    else:
        return None
    source = (
        "def apply(model):\n    model = onnx.ModelProto.FromString(model.SerializeToString())  # edited in place\n"
        f"    q = {call}\n    q.process()\n    return q.model.model\n"
    )
    return ToolCall(source, f"{call}.process()", imports)


def _graphsurgeon_call(name: str) -> ToolCall | None:
    """The call of ``onnx-gs:NAME`` (:mod:`passcheck.passes.onnx_graphsurgeon`), on a copy as the adapter is given."""
    from passcheck.passes.onnx_graphsurgeon import VARIANTS, call_text

    if name not in VARIANTS:
        return None
    call = call_text(name)
    source = (
        "def apply(model):\n    model = onnx.ModelProto.FromString(model.SerializeToString())  # the adapter's copy\n"
        f"    graph = gs.import_onnx(model)\n    return {call}\n"
    )
    return ToolCall(
        source,
        f"{call}, graph = gs.import_onnx(model)",
        ("import onnx_graphsurgeon", "import onnx_graphsurgeon as gs"),
        ("onnx-graphsurgeon",),
    )


def tool_call(pass_id: str, model=None) -> ToolCall | None:
    """The tool call of ``pass_id`` (``model``: a form, for a pass whose target depends on it —
    ``onnx:convert-opset-up|down``); None for a pass a standalone script cannot call."""
    if pass_id == "input":  # the form itself: the run that fails is the tool call
        return ToolCall(_FORM_RUN, "onnxruntime running the form itself (InferenceSession.run on each feed set)")
    family, _, name = pass_id.partition(":")
    if family == "onnx" and name.startswith("infer-shapes"):
        from passcheck.passes.onnx_shape_inference import VARIANTS

        if name not in VARIANTS:
            return None
        flags = ", ".join(f"{k}={v}" for k, v in VARIANTS[name].items())
        return ToolCall(
            f"def apply(model):\n    return onnx.shape_inference.infer_shapes(model, {flags})\n",
            f"onnx.shape_inference.infer_shapes(model, {flags})",
        )
    if family == "onnx" and name.startswith("convert-opset-"):
        target = _opset_target(name.removeprefix("convert-opset-"), model)
        if target is None:
            return None
        return ToolCall(
            f"def apply(model):\n    return onnx.version_converter.convert_version(model, {target})\n",
            f"onnx.version_converter.convert_version(model, {target})",
            ("import onnx.version_converter",),
        )
    if family == "polygraphy":
        return _polygraphy_call(name)
    if pass_id == "ort-transformers:float16":
        source = (
            "def apply(model):\n    m = OnnxModel(model)\n    m.convert_float_to_float16(keep_io_types=True)\n"
            "    with tempfile.TemporaryDirectory() as d:\n"
            "        m.save_model_to_file(os.path.join(d, 'float16.onnx'))  # sorts the appended Casts\n"
            "    return m.model\n"
        )
        imports = ("from onnxruntime.transformers.onnx_model import OnnxModel",)
        return ToolCall(source, "OnnxModel(model).convert_float_to_float16(keep_io_types=True)", imports, ("sympy",))
    if pass_id == "occ:float16-keep-io":  # the other occ:* ids retype the interface (the adapter restores it): ours
        call = "float16.convert_float_to_float16(model, keep_io_types=True)"
        source = f"def apply(model):\n    warnings.simplefilter('ignore')\n    return {call}\n"
        return ToolCall(
            source, call, ("import warnings", "from onnxconverter_common import float16"), ("onnxconverter-common",)
        )
    if family == "ort-quant" and name.startswith("quantize-"):
        from passcheck.passes.ort_quantize import VARIANTS as QUANTIZE

        if name not in QUANTIZE or QUANTIZE[name][0] == "quantize_static":
            return None  # calibrated on the case's feeds (a reader the script does not build): passcheck's own call
        fn = QUANTIZE[name][0]
        source = (
            "def apply(model):\n    with tempfile.TemporaryDirectory() as d:\n"
            "        src, out = os.path.join(d, 'float.onnx'), os.path.join(d, 'quantized.onnx')\n"
            f"        onnx.save(model, src)\n        {fn}(src, out)\n        return onnx.load(out)\n"
        )
        return ToolCall(
            source, f"onnxruntime.quantization.{fn}(src, out)", (f"from onnxruntime.quantization import {fn}",)
        )
    if family == "ort-quant" and (name.startswith("matmul-") or name.startswith("qnn-")):
        return _weight_quant_call(name)
    if family == "ort-quant":
        from passcheck.passes.ort_quant_preprocess import VARIANTS

        if name not in VARIANTS:
            return None
        args = "".join(f", {k}={v!r}" for k, v in VARIANTS[name].items())
        source = (
            "def apply(model):\n    here = os.getcwd()\n    with tempfile.TemporaryDirectory() as d:\n"
            "        out = os.path.join(d, 'preprocessed.onnx')\n"
            "        os.chdir(d)  # its symbolic shape inference writes a temporary model into the current folder\n"
            f"        try:\n            quant_pre_process(model, out{args})\n        finally:\n"
            "            os.chdir(here)\n        return onnx.load(out)\n"
        )
        imports = ("from onnxruntime.quantization.shape_inference import quant_pre_process",)
        return ToolCall(source, f"quant_pre_process(model, out{args})", imports, ("sympy",))
    if pass_id == "onnx:add-prefix":
        from passcheck.passes.onnx_model_utils import PREFIX

        call = f"onnx.compose.add_prefix(model, {PREFIX!r}, rename_inputs=False, rename_outputs=False)"
        return ToolCall(f"def apply(model):\n    return {call}\n", call, ("import onnx.compose",))
    if pass_id == "onnx:load-external-data":
        source = _load_external_source()
        return ToolCall(
            source,
            "onnx.external_data_helper.load_external_data_for_model(model, d), every numeric tensor written to d",
            (
                "from onnx import external_data_helper",
                "from pathlib import Path",
                "from collections.abc import Iterator",
            ),
        )
    if pass_id == "onnx:extract-model":
        source = (
            "def apply(model):\n"
            "    initializers = {t.name for t in model.graph.initializer}\n"
            "    inputs = [i.name for i in model.graph.input if i.name not in initializers]\n"
            "    return onnx.utils.Extractor(model).extract_model(inputs, [o.name for o in model.graph.output])\n"
        )
        return ToolCall(source, "onnx.utils.Extractor(model).extract_model(inputs, outputs)", ("import onnx.utils",))
    if family == "onnx" and name.startswith("inline-"):
        return _inliner_call(name)
    if family == "onnx-ir":
        from passcheck.passes.onnx_ir_common import pass_classes
        from passcheck.passes.onnx_ir_common import pass_id as ir_pass_id

        cls = next((c for c in pass_classes() if ir_pass_id(c) == pass_id), None)
        if cls is None:
            return None
        return ToolCall(
            _ONNX_IR_PASS.format(cls=cls),
            f"onnx_ir.passes.common.{cls}() on onnx_ir.serde.deserialize_model(model)",
            ("import onnx_ir", "import onnx_ir.passes.common"),
            ("onnx-ir",),
        )
    if family == "ort-transformers":
        from passcheck.passes.ort_transformers import MODEL_TYPES, disabled_flags, more_types

        if name not in MODEL_TYPES and more_types().get(name, "") is not None:
            return None
        off = disabled_flags(name)
        code = _ORT_TRANSFORMERS.format(model_type=name, options=", optimization_options=options" if off else "")
        if off:  # the flags whose op has no CPU kernel, turned off as the adapter does
            lines = "".join(f"    options.{f} = False\n" for f in off)
            first = "    given = onnx.ModelProto()"
            code = code.replace(first, f"    options = FusionOptions({name!r})\n{lines}{first}")
        return ToolCall(
            code,
            f"onnxruntime.transformers.optimizer.optimize_model(model, {name!r}, opt_level=0"
            + (f", FusionOptions with {', '.join(off)} off)" if off else ")"),
            ("from onnxruntime.transformers.optimizer import optimize_model",)
            + (("from onnxruntime.transformers.fusion_options import FusionOptions",) if off else ()),
        )
    if family == "onnxscript":
        calls = {
            "optimize": ("onnxscript.optimizer.optimize(model)", "import onnxscript\nimport onnxscript.optimizer"),
            "rewrite": ("onnxscript.rewriter.rewrite(model)", "import onnxscript\nimport onnxscript.rewriter"),
            "optimize-for-ort": (
                "optimize_for_ort(model) on onnxscript's IR",
                "import onnxscript\nfrom onnxscript.rewriter.ort_fusions import optimize_for_ort",
            ),
        }
        if name == "convert-opset-up":
            target = _opset_target("up", model)
            if target is None:
                return None
            call = f"onnxscript.version_converter.convert_version(model, {target})"
            source = f"def apply(model):\n    {call}  # in place; returns None\n    return model\n"
            return ToolCall(source, call + ", in place", ("import onnxscript.version_converter",), ("onnxscript",))
        if name == "convert-opset-up-ir":
            target = _opset_target("up", model)
            if target is None:
                return None
            call = f"onnxscript.version_converter.convert_version(ir_model, {target})"
            return _on_ir(call, "sets the opset import", "import onnxscript.version_converter")
        if name == "onnx-fusions":
            call = "onnxscript.rewriter.onnx_fusions.fuse(ir_model)"
            return _on_ir(call, "acts at ai.onnx opset 23 only", "import onnxscript.rewriter.onnx_fusions")
        if name == "rewrite-opt-in" or name.startswith("rule-"):
            return _rules_call(name)
        if name not in calls:
            return None
        call, imp = calls[name]
        source = _ORT_FUSIONS if name == "optimize-for-ort" else f"def apply(model):\n    return {call}\n"
        return ToolCall(source, call, tuple(imp.split("\n")), ("onnxscript",))
    if pass_id in _PYTHON_TOOLS:
        call, package = _PYTHON_TOOLS[pass_id]
        return ToolCall(f"def apply(model):\n    return {call}\n", call, (f"import {package}",), (package,))
    if family == "onnx-gs":
        return _graphsurgeon_call(name)
    if family == "onnxoptimizer":
        return _onnxoptimizer_call(pass_id)
    if family in ("cmd", "cmd+fold") and "{in}" in name and "{out}" in name:
        return ToolCall(
            _COMMAND.format(argv=shlex.split(name)), f"the command {name}", ("import shlex", "import subprocess")
        )
    if family == "ort":
        from passcheck.passes.ort_optimizer import LEVELS

        if name == "symbolic-shape-infer":
            return ToolCall(
                _SYMBOLIC,
                "SymbolicShapeInference.infer_shapes(model, auto_merge=False, guess_output_rank=False)",
                ("from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference",),
                ("sympy",),
            )
        if name in LEVELS:
            return ToolCall(
                _ORT_OPTIMIZE.format(level=LEVELS[name]), f"onnxruntime's graph optimizer at {LEVELS[name]}"
            )
    return None


def _on_ir(call: str, note: str, imports: str) -> ToolCall:
    """A script calling onnxscript's ``call`` in place on the model's IR (``onnx_ir``, or the ``onnxscript.ir`` older
    releases bundle) and serializing it back; ``note`` is the comment on the call."""
    source = (
        "def apply(model):\n    try:\n        import onnx_ir as ir\n    except ImportError:\n"
        "        import onnxscript.ir as ir\n    ir_model = ir.serde.deserialize_model(model)\n"
        f"    {call}  # in place; {note}\n"
        "    return ir.serde.serialize_model(ir_model)\n"
    )
    return ToolCall(source, call + " on the IR", (imports,), ("onnxscript",))


def _rules_call(name: str) -> ToolCall | None:
    """``onnxscript:rule-NAME`` / ``onnxscript:rewrite-opt-in`` (:mod:`passcheck.passes.onnxscript_rules`): the
    rewrite with the exported rules by name, each rule set expanded as the adapter expands it."""
    from passcheck.passes import onnxscript_rules

    names = onnxscript_rules.opt_in() if name == "rewrite-opt-in" else [onnxscript_rules.exported().get(name[5:])]
    if not names or None in names:
        return None
    terms = ", ".join(f"*_rules(common.{n})" for n in names)
    source = (
        "def _rules(obj):\n"
        "    obj = obj() if callable(obj) and not hasattr(obj, 'try_rewrite') else obj\n"
        "    return list(obj.rules) if hasattr(obj, 'rules') else [obj]\n\n\n"
        f"def apply(model):\n    return onnxscript.rewriter.rewrite(model, [{terms}])\n"
    )
    doc = f"onnxscript.rewriter.rewrite(model, [{', '.join(f'rules.common.{n}' for n in names)}])"
    imports = ("import onnxscript", "import onnxscript.rewriter", "from onnxscript.rewriter.rules import common")
    return ToolCall(source, doc, imports, ("onnxscript",))


def _onnxoptimizer_call(pass_id: str) -> ToolCall | None:
    """``onnxoptimizer:pass-NAME`` / ``onnxoptimizer:opt-in`` (:mod:`passcheck.passes.onnxoptimizer_passes`):
    ``onnxoptimizer.optimize`` with the pass list the adapter gives it."""
    from passcheck.errors import PasscheckError
    from passcheck.passes import onnxoptimizer_passes

    try:
        passes = onnxoptimizer_passes.adapter(pass_id).passes()
    except PasscheckError:
        return None
    if not passes:
        return None
    call = f"onnxoptimizer.optimize(model, {passes!r})"
    return ToolCall(f"def apply(model):\n    return {call}\n", call, ("import onnxoptimizer",), ("onnxoptimizer",))


def _inliner_call(name: str) -> ToolCall | None:
    """The ``onnx.inliner`` call of ``onnx:<name>`` (:data:`passcheck.passes.onnx_inliner.VARIANTS`)."""
    from passcheck.passes.onnx_inliner import VARIANTS

    if name not in VARIANTS:
        return None
    call = VARIANTS[name][1]
    return ToolCall(f"def apply(model):\n    return {call}\n", call, ("import onnx.inliner",))


def _polygraphy_call(name: str) -> ToolCall | None:
    """Polygraphy's loaders as ``polygraphy:<name>`` chains them (:mod:`passcheck.passes.polygraphy_onnx`)."""
    from passcheck.passes.polygraphy_onnx import VARIANTS

    v = next((v for v in VARIANTS if v.name == name), None)
    if v is None:
        return None
    lines = [
        "    here = os.getcwd()",
        "    with tempfile.TemporaryDirectory() as d:",
        "        os.chdir(d)",
        "        try:",
    ]
    body = ["path = os.path.join(d, 'model.onnx')", "onnx.save(model, path)"]
    body.append(f"out = InferShapes(path, allow_onnxruntime={v.ort_infer})()" if v.infer else "out = model")
    if v.fold is not None:
        body.append(f"out = FoldConstants(out{''.join(f', {k}={x!r}' for k, x in v.fold.items())})()")
    if v.mark_all:
        body.append("out = ModifyOutputs(out, outputs=constants.MARK_ALL)()")
    if v.fp16:
        body.append("out = ConvertToFp16(out)()")
    lines += [f"            {b}" for b in body] + ["        finally:", "            os.chdir(here)", "    return out"]
    source = "def apply(model):\n" + "\n".join(lines) + "\n"
    imports = (
        "from polygraphy import constants",
        "from polygraphy.backend.onnx import ConvertToFp16, FoldConstants, InferShapes, ModifyOutputs",
    )
    return ToolCall(source, v.doc, imports, ("polygraphy", "onnx-graphsurgeon", "onnxconverter-common"))


def package(pass_id: str) -> str:
    """The pip package of the tool ``pass_id`` runs (what ``passcheck bisect --package`` takes)."""
    if pass_id in _PYTHON_TOOLS:
        return _PYTHON_TOOLS[pass_id][1]
    named = {"onnx": "onnx", "onnxscript": "onnxscript", "onnx-ir": "onnx-ir", "onnxoptimizer": "onnxoptimizer"}
    named |= {"onnx-gs": "onnx-graphsurgeon", "polygraphy": "polygraphy"}
    return named.get(pass_id.partition(":")[0], "onnxruntime")


def _opset_target(spec: str, model) -> int | None:
    """The converter's target opset: a number, or the neighbouring boundary of ``model``."""
    if spec.isdigit():
        return int(spec)
    if spec in ("up", "down") and model is not None:
        from passcheck.passes.version_converter import opset_boundary

        return opset_boundary(model, spec)[0]
    return None
