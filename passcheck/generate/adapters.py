"""The onnx version converter's adapter registry, and which of its source versions the generated set reaches.

onnx registers its adapters in C++ (``onnx/version_converter/convert.h``, ``DefaultVersionConverter``'s
constructor) and exposes no list to Python. :data:`REGISTRY` is that list, read from the onnx 1.23.2 wheel's
``convert.h`` (:func:`registered`; the wheel ships the header): ``"<from>-><to>"`` → the ops with an adapter for
that step (the generic "no previous version" adapters of each op's first version left out: they only state that
limit). :func:`lacking` names what an installed onnx registers and the copy does not. An adapter
``(op, from → to)`` runs when the converter takes a node of ``op`` whose schema is the one at opset ``from``
(its *source*) one opset towards ``to`` (``docs/VersionConverter.md``: one opset at a time).

The generated set builds each schema at ``max(since_version, 7)`` (:data:`.build.MIN_OPSET`), and keeps a pair
as a case only when onnxruntime and the reference evaluator run it; so the sources older than opset 7, and those
the gate keeps as reference-only bases, are reached by no hunt base unless a form of another case holds the op
at such an opset (:func:`reach`: an ``opset`` or ``attr-to-input`` spelling stamps an older one).
:func:`unreached` names them; the generator builds each at the source's own opset (:func:`.build.adapter_bases`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

#: The converter's adapters by step (module docs); ops absent from the installed onnx are skipped by the readers.
REGISTRY: dict[str, str] = {
    "3->4": "Concat",
    "4->3": "Concat",
    "4->5": "Reshape",
    "5->4": "Reshape",
    "5->6": (
        "Abs Add BatchNormalization Ceil Clip Div Dropout Elu Exp Floor Gemm HardSigmoid InstanceNormalization "
        "LeakyRelu Log Max Mean Min Mul Neg PRelu Reciprocal Relu Selu Sigmoid Sqrt Sub Sum Tanh"
    ),
    "6->5": "Abs Add BatchNormalization Div Dropout Gemm Mul Neg Relu Sub Sum",
    "6->7": "Add AveragePool BatchNormalization Div Dropout Gemm Mul PRelu Pow Sub Upsample",
    "7->6": "Add AveragePool BatchNormalization Div Dropout Gemm Mul PRelu Pow Sub",
    "7->8": "Max MaxPool Mean Min Sum",
    "8->7": "Max MaxPool Mean Min Sum",
    "8->9": "BatchNormalization Cast Constant Flatten Gemm Greater Less MatMul PRelu Scan Upsample",
    "9->8": "BatchNormalization Cast Constant Flatten Gemm Greater Less MatMul PRelu Scan Upsample",
    "9->10": "AveragePool Dropout MaxPool Slice TopK Upsample",
    "10->9": "Dropout",
    "10->11": (
        "ArgMax ArgMin AveragePool Clip Compress Concat Constant Conv ConvTranspose DepthToSpace Equal Flatten Gather "
        "Gemm Hardmax If LogSoftmax Loop LpPool MaxPool MaxUnpool NonMaxSuppression OneHot Pad ReduceL1 ReduceL2 "
        "ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean ReduceMin ReduceProd ReduceSum ReduceSumSquare Resize Scan "
        "Scatter Slice Softmax Split Squeeze TopK Unsqueeze"
    ),
    "11->10": (
        "ArgMax ArgMin AveragePool Concat Constant Conv ConvTranspose Equal Flatten LogSoftmax MaxPool ReduceL1 "
        "ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean ReduceMin ReduceProd ReduceSum ReduceSumSquare "
        "Softmax Unsqueeze"
    ),
    "11->12": "ArgMax ArgMin BatchNormalization Clip Constant Dropout GatherND Max MaxPool Min Pow ReduceMax ReduceMin",
    "12->11": "ArgMax ArgMin BatchNormalization Clip Max MaxPool Min ReduceMax ReduceMin",
    "12->13": (
        "Abs Add ArgMax ArgMin Cast Ceil Clip Concat Constant DepthToSpace DequantizeLinear Div Dropout Equal Erf Exp "
        "Expand Flatten Floor Gather GatherElements GatherND Gemm Greater Hardmax Identity If IsNaN LRN Less Log "
        "LogSoftmax Loop MatMul Max Mean MeanVarianceNormalization Min Mod Mul Neg NegativeLogLikelihoodLoss NonZero "
        "Pad Pow QuantizeLinear Reciprocal ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean "
        "ReduceMin ReduceProd ReduceSum ReduceSumSquare Relu Reshape Resize ScatterElements ScatterND Shape Sigmoid "
        "Sign Size Slice Softmax SoftmaxCrossEntropyLoss SpaceToDepth Split Sqrt Squeeze Sub Sum Tanh Tile Transpose "
        "Unsqueeze"
    ),
    "13->12": "Constant LogSoftmax ReduceSum Softmax Split Squeeze Unsqueeze",
    "13->14": "Add BatchNormalization CumSum Div GRU Identity LSTM Mul RNN Relu Reshape Sub",
    "14->13": "GRU LSTM RNN",
    "14->15": "BatchNormalization Pow Shape",
    "15->16": (
        "GreaterOrEqual Identity If LeakyRelu LessOrEqual Loop PRelu RoiAlign Scan ScatterElements ScatterND Where"
    ),
    "16->15": "GreaterOrEqual LeakyRelu LessOrEqual PRelu Scan ScatterElements ScatterND Where",
    "17->18": (
        "LpPool OptionalGetElement OptionalHasElement Pad ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax "
        "ReduceMean ReduceMin ReduceProd ReduceSumSquare Resize ScatterElements ScatterND Split"
    ),
    "18->17": (
        "OptionalGetElement OptionalHasElement ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean "
        "ReduceMin ReduceProd ReduceSumSquare Resize ScatterElements ScatterND"
    ),
    "18->19": (
        "AveragePool Cast CastLike Constant DequantizeLinear Equal Identity If Loop Pad QuantizeLinear Reshape Resize "
        "Scan Shape Size"
    ),
    "19->18": (
        "AveragePool Cast CastLike Constant DequantizeLinear Equal Identity If Loop Pad QuantizeLinear Reshape Resize "
        "Scan Shape Size"
    ),
    "19->20": "ConstantOfShape DFT GridSample IsInf IsNaN ReduceMax ReduceMin",
    "20->19": "DFT IsInf IsNaN ReduceMax ReduceMin",
    "20->21": (
        "Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten GroupNormalization Identity If Loop Pad "
        "QLinearMatMul QuantizeLinear Reshape Scan Shape Size Squeeze Transpose Unsqueeze"
    ),
    "21->20": (
        "Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QLinearMatMul "
        "QuantizeLinear Reshape Scan Shape Size Squeeze Transpose Unsqueeze"
    ),
    "21->22": (
        "Acos Acosh Asin Asinh Atan Atanh AveragePool Bernoulli Conv ConvTranspose Cos Cosh DeformConv Det Dropout Elu "
        "EyeLike GRU GlobalAveragePool GlobalLpPool GlobalMaxPool GridSample HardSigmoid HardSwish "
        "InstanceNormalization LSTM LpNormalization LpPool MaxPool MaxRoiPool MaxUnpool Mish Multinomial "
        "NegativeLogLikelihoodLoss RNN RandomNormal RandomNormalLike RandomUniform RandomUniformLike RoiAlign Round "
        "Selu Sin Sinh Softplus Softsign Tan ThresholdedRelu"
    ),
    "22->21": (
        "Acos Acosh Asin Asinh Atan Atanh AveragePool Bernoulli Conv ConvTranspose Cos Cosh DeformConv Det Dropout Elu "
        "EyeLike GRU GlobalAveragePool GlobalLpPool GridSample HardSigmoid HardSwish InstanceNormalization LSTM "
        "LpNormalization LpPool MaxPool MaxRoiPool MaxUnpool Mish Multinomial NegativeLogLikelihoodLoss RNN "
        "RandomNormal RandomNormalLike RandomUniform RandomUniformLike RoiAlign Round Selu Sin Sinh Softplus Softsign "
        "Tan ThresholdedRelu"
    ),
    "22->23": (
        "Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QuantizeLinear Reshape "
        "Scan Shape Size Squeeze Transpose Unsqueeze"
    ),
    "23->22": (
        "Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QuantizeLinear Reshape "
        "Scan Shape Size Squeeze Transpose Unsqueeze"
    ),
    "23->24": (
        "Attention Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QuantizeLinear "
        "Reshape Scan Shape Size SplitToSequence Squeeze TopK Transpose Unsqueeze"
    ),
    "24->23": (
        "Attention Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QuantizeLinear "
        "Reshape Scan Shape Size SplitToSequence Squeeze TopK Transpose Unsqueeze"
    ),
    "24->25": (
        "Attention Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QuantizeLinear "
        "Reshape Scan Shape Size Squeeze Transpose Unsqueeze"
    ),
    "25->24": (
        "Attention Cast CastLike Constant ConstantOfShape DequantizeLinear Flatten Identity If Loop Pad QuantizeLinear "
        "Reshape Scan Shape Size Squeeze Transpose Unsqueeze"
    ),
    "26->27": "Range",
    "27->26": "Range",
    "27->28": (
        "BitShift Cast Celu Compress DepthToSpace DequantizeLinear Einsum Mod OneHot Optional OptionalGetElement "
        "OptionalHasElement QuantizeLinear ReduceLogSum ReduceLogSumExp ReverseSequence SpaceToDepth Unique"
    ),
    "28->27": (
        "BitShift Cast Celu Compress DepthToSpace DequantizeLinear Einsum Mod OneHot Optional OptionalGetElement "
        "OptionalHasElement QuantizeLinear ReduceLogSum ReduceLogSumExp ReverseSequence SpaceToDepth Unique"
    ),
}


def adapters() -> Iterator[tuple[str, int, int]]:
    """Every ``(op, from, to)`` of :data:`REGISTRY`, in step order."""
    for step, ops in REGISTRY.items():
        a, _, b = step.partition("->")
        for op in ops.split():
            yield op, int(a), int(b)


def source_since(op: str, version: int) -> int | None:
    """The ``since_version`` of ``op``'s default-domain schema at opset ``version`` (None: no such schema here)."""
    import onnx.defs

    if version > onnx.defs.onnx_opset_version():
        return None
    try:
        return onnx.defs.get_schema(op, version, "").since_version
    except Exception:  # noqa: BLE001 - SchemaError: the installed onnx has no such op at that version
        return None


def reach(model) -> set[tuple[str, int | None]]:
    """``(op, since_version)`` of every default-domain node of ``model``'s main graph at its opset: the adapter
    sources a conversion of ``model`` starts from."""
    v = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if v is None:
        return set()
    return {(n.op_type, source_since(n.op_type, v)) for n in model.graph.node if n.domain in ("", "ai.onnx")}


def sides() -> set[tuple[str, int, int]]:
    """Both sides of every adapter boundary: ``(op, from, to)`` of each registered adapter and its reverse step
    (registered or not: the converter then states it has no adapter, which a pass must report as such)."""
    return {s for op, a, b in adapters() for s in ((op, a, b), (op, b, a))}


def crossed(model) -> set[tuple[str, int, int]]:
    """``(op, from, to)`` of every one-opset step at which ``onnx:convert-opset-up`` / ``-down`` convert one of
    ``model``'s ai.onnx nodes to another schema version: the steps on the way to each pass's target
    (:func:`passcheck.passes.version_converter.opset_boundary`) where the op's ``since_version`` changes. An
    adapter registered for such a step is the one the converter runs there (``docs/VersionConverter.md``: one
    opset at a time)."""
    from passcheck.passes._base import default_opset
    from passcheck.passes.version_converter import _ops, opset_boundary

    at = default_opset(model)
    if at is None:
        return set()
    ops = _ops(model.graph)
    out = set()
    for direction, step in (("up", 1), ("down", -1)):
        target, _why = opset_boundary(model, direction)
        if target is None:
            continue
        for a in range(at, target, step):
            b = a + step
            for op in ops:
                sa, sb = source_since(op, a), source_since(op, b)
                if sa is not None and sb is not None and sa != sb:
                    out.add((op, a, b))
    return out


def uncrossed(crossings: Iterable[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """``(op, opset, since_version)`` per boundary side (:func:`sides`) no case's form crosses (``crossings``:
    :func:`crossed` of every form), each source ``(op, opset)`` once, in (op, opset) order: the schema at the
    side's ``from`` opset, built there, is crossed by the pass of its direction."""
    have = set(crossings)
    out = set()
    for op, a, b in sides():
        s = source_since(op, a)
        if (op, a, b) not in have and s is not None and source_since(op, b) not in (None, s):
            out.add((op, a, s))
    return sorted(out)


def unreached(reached: Iterable[tuple[str, int | None]]) -> list[tuple[str, int, int]]:
    """``(op, opset, since_version)`` per adapter source ``(op, opset)`` whose schema no case builds (``reached``:
    ``(op, since_version)`` of the schemas some case builds), each source once, in (op, opset) order."""
    have = set(reached)
    out = set()
    for op, a, _b in adapters():
        s = source_since(op, a)
        if s is not None and (op, s) not in have:
            out.add((op, a, s))
    return sorted(out)


def reinterpreted() -> list[tuple[str, int, int, str, str]]:
    """``(op, opset, since_version, attribute, value)`` for each adapter step whose source and target schemas
    state different attribute sets (:func:`sides`; an attribute added, as Resize-11's
    ``coordinate_transformation_mode`` and ``nearest_mode``, or removed, as Upsample-7's ``width_scale``), and each
    value other than the source schema's default that Operators.md documents for one of the source's STRING
    attributes (:func:`passcheck.oracles.spec_table.string_domain`), each source value once, in order.

    Such a step is where an adapter must carry the source's meaning into attributes the target reads another way
    (a new attribute's default is the target's behaviour, not necessarily the source's for every value of the
    others: Changelog.md Resize-11, whose default ``half_pixel`` is not Resize-10's ``asymmetric`` reading), and
    the bases built at the schema defaults meet only the default value of each."""
    import onnx
    import onnx.defs

    from passcheck.oracles.spec_table import string_domain

    out = set()
    for op, a, b in sides():
        s, t = source_since(op, a), source_since(op, b)
        if s is None or t in (None, s):
            continue
        src, dst = onnx.defs.get_schema(op, a, ""), onnx.defs.get_schema(op, b, "")
        if set(src.attributes) == set(dst.attributes):
            continue
        for name, spec in src.attributes.items():
            if spec.type != onnx.AttributeProto.STRING:
                continue
            default = spec.default_value.s.decode() if spec.default_value.type else None
            out |= {(op, a, s, name, v) for v in string_domain(op, a, name) if v != default}
    return sorted(out)


_STEP = re.compile(r"/\*+\s*(\d+)\s*->\s*(\d+)\s*\*+/")  # convert.h's "/******** 27 -> 28 ********/" headers
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
_CLASS = re.compile(r"make_unique<(\w+?)_\d+_\d+>")  # an adapter class named for its op and step: Reshape_4_5
_CALL = "registerAdapter("


def registered(source: str) -> dict[str, set[str]]:
    """The adapter table of a ``convert.h`` text: ``"<from>-><to>"`` → ops, as :data:`REGISTRY`.

    Each ``registerAdapter`` call after a step header names its op as the first string literal that is an op of the
    installed onnx (``"Concat", 3, 4, …``, ``CompatibleAdapter>("Range", …``, ``Softmax_12_13>("LogSoftmax")``) or,
    with no such literal, by its adapter class ``<Op>_<from>_<to>`` (``Reshape_4_5``). Calls before the first header
    (the generic no-previous-version adapters) are left out. Raises ValueError on a call naming no op: a new
    registration form the reader must learn, never a silent gap."""
    import onnx.defs

    from passcheck.passes.converter_limits import calls

    text = re.sub(r"//[^\n]*", "", source)
    heads = list(_STEP.finditer(text))
    out: dict[str, set[str]] = {}
    for h, nxt in zip(heads, [*heads[1:], None], strict=True):
        step = f"{h.group(1)}->{h.group(2)}"
        for call in calls(text[h.end() : nxt.start() if nxt else len(text)], _CALL):
            op = next((m.group(1) for m in _LITERAL.finditer(call) if onnx.defs.has(m.group(1))), None)
            if op is None and (m := _CLASS.search(call)) and onnx.defs.has(m.group(1)):
                op = m.group(1)
            if op is None:
                raise ValueError(f"registerAdapter at {step} names no op: {call[:120]!r}")
            out.setdefault(step, set()).add(op)
    return out


def installed_header() -> Path:
    """The installed onnx's ``version_converter/convert.h`` (shipped in the wheel)."""
    import onnx

    return Path(onnx.__file__).parent / "version_converter" / "convert.h"


def lacking(header: Path | None = None) -> dict[str, set[str]]:
    """The adapters ``header`` (default :func:`installed_header`) registers that :data:`REGISTRY` lacks, by step
    (empty: the copy is in step with that onnx)."""
    table = registered((header or installed_header()).read_text(encoding="utf-8", errors="replace"))
    out = {step: ops - set(REGISTRY.get(step, "").split()) for step, ops in table.items()}
    return {step: ops for step, ops in out.items() if ops}
