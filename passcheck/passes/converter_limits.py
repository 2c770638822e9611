"""The onnx version converter's refusals, classified from its own sources: a stated limit or an invariant.

The converter (``onnx/version_converter``: ``BaseConverter.h``, ``convert.h``/``.cc``, ``helper.*``,
``adapters/*.h``) refuses through ``ONNX_ASSERTM(condition, message…)``; the Python call raises RuntimeError with
that message. Each message is one of two kinds:

- a **limit** (:data:`LIMITS`): the step cannot be written for this node — no adapter for the step, or the target
  version's schema (Operators.md, the op at the target opset) has no type, attribute value, input or output for
  what the node holds (a type the target's constraint lacks, an attribute the target fixes, an input the target
  takes as an attribute that is not a constant), or the adapter needs a static fact the model does not give (a dim
  that is a param, a shape not known). The pass reports it ``unavailable`` with the tool's words, not a finding
  unless another form asked the same conversion is accepted (the acceptance oracle);
- an **invariant** (:data:`INVARIANTS`): a malformed-model or internal check (arity, null nodes, raw bytes, the
  converter's own bookkeeping) that a model the checker accepts never meets, so meeting it is the converter's
  fault, judged as any other refusal; and the words the converter states for a limit and for its own defect alike
  (an input moved to an attribute "not found" when it is computed, omitted, or a Constant the adapter misreads).

The tables hold every message of onnx 1.16.2 – 1.23.2 as a template, ``{}`` where the source inserts a value
(``%s``-style in the older releases, streamed values in the newer). The onnx wheel ships these sources, so
:func:`messages` reads an installed onnx's messages and a test names any the tables do not classify: a new
release's words cannot silently turn a limit into a ``rejected`` finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

#: Messages by which the converter states it cannot take a node to the target opset (module docs).
LIMITS: tuple[str, ...] = (
    # BaseConverter.h adapter_lookup, adapters/no_previous_version.h: the registry has no step for the op
    "No Adapter To Version {} for {}",
    "No Adapter From Version {} for {}",
    "No Adapter For {}",
    "No Previous Version of {} exists",
    # adapters/type_restriction.h, scatter_16_15.h, optional_ops.h, range_27_26.h, reduce_log_sum_27_28.h,
    # cast_28_27.h, quantize_linear_28_27.h: an element type the target's type constraint lacks
    "DataType ({}) of Input or Output of operator '{}' is unallowed for Opset Version {}.",
    "DataType ({}) of Input of operator '{}' is unallowed for Opset Version {}",
    "DataType ({}) of input of operator '{}' is not supported in Opset Version {}.",
    "DataType ({}) of output of operator '{}' is not supported in Opset Version {}.",
    "DataType ({}) of {} of operator '{}' is not supported in Opset Version {}.",
    "Attribute to of operator 'Cast' uses DataType ({}), which is unallowed for Opset Version {}.",
    "Attribute output_dtype of operator 'QuantizeLinear' uses DataType ({}), which is unallowed for Opset Version {}.",
    "Casting From/To STRING data type is not supported",  # cast_9_8.h: Cast-6 has no string
    "Unsupported Input Type",  # extend_supported_types.h: 9 -> 8 casts through a type opset 8 takes
    "Unsupported Output Type",
    "Mod with fmod=0 and unknown input type cannot be downgraded to opset 27. "
    "Run shape inference or add value_info with the input type.",
    "Mod with floating-point inputs and fmod=0 cannot be downgraded to opset 27.",  # convert.h, Mod 28 -> 27
    # optional_ops.h: the target's input is not optional / not of that kind
    "No input to operator '{}' is unallowed for Opset Version {}",
    "Non-Optional input to operator '{}' is unallowed for Opset Version {}",
    "Specified type of Input of operator '{}' is unallowed for Opset Version {}",
    # transformers.h: an attribute the target lacks holds other than the value the step drops
    "Attribute {} must have value {}",
    "Attribute {} must have value {} for this version conversion",
    "Attribute {} must not have value {}",
    # an attribute value, input or output the target has no field for
    "{} being converted from {} to {} has nonpad_kv_seqlen input, which is not supported in opset 23. "
    "This conversion cannot be performed.",
    "Attention 25->24 downgrade: {} must be -1 (disabled) for conversion to opset 24, got {}. "
    "Windowed attention is not representable in opset 24.",
    "BatchNormalization outputs 4 and 5 are not supported in Opset 14.",
    "Opset version 7 of MaxPool cannot include Indices output",
    "Blocked quantization is not supported for Opset Version {}.",
    "Attribute output_dtype is not supported for Opset Version {}, supply a zero-point tensor instead",
    "Resize axes is not supported when converting from opset 18 to opset 17.",
    "Resize coordinate_transformation_mode='{}' is not supported when converting to opset 17.",
    "Resize antialias={} is not supported when converting from opset 18 to opset 17.",
    "Resize keep_aspect_ratio_policy must be 'stretch' when converting from opset 18 to opset 17.",
    "Scatter reduction 'max' and 'min' are not supported when downgrading to opset 17",
    "Unsupported conversion to opset 9",  # scan_8_9.h: Scan-9 has no sequence_lens
    "Unsupported output direction for Version 8",  # scan_9_8.h: Scan-8 scans axis 0 forward only
    "Unsupported input axes for Version 8",
    "Unsupported output axes for Version 8",
    # opset 6's one-way broadcast (broadcast_*_compatibility.h, gemm_*.h, helper.cc) and the static dims it reads
    "{} being converted from {} to {} does not have broadcastable inputs.",
    "Gemm being converted from 6 to 7 does not have broadcastable inputs.",
    "{} in opset version 6 can only broadcast between {} inputs",
    "{} Dimension is a param instead of an int.",
    "Shape of input {} is not available.",
)

#: Malformed-model and internal checks a checker-valid model never meets (module docs), and words the converter
#: states for a limit and for its own defect alike, so they cannot promise a limit.
INVARIANTS: tuple[str, ...] = (
    # an input the target takes as an attribute and the adapter did not read: a computed value (a limit), but also
    # the optional input omitted (onnx <= 1.19, docs/recall.md R25, docs/found-envs.md F2) or written as "" (found.md
    # row 1038, onnx 1.23.2), or a Constant whose typed attribute the adapter does not read (found.md row 713)
    "No initializer or constant input to node found",
    "No initializer or constant input to Reshape node found",
    "Axis input must be a constant or initializer for promotion to attribute.",
    "Unsupported conversion due to unavailable input: scale",
    "Unsuppported conversion due to unavailable input: scale",  # (sic) onnx <= 1.19
    "Axis tensor must contain at least one element.",
    "Axis attribute not created. This may be a bug.",
    "Cast node must have at least 1 input",
    "{} being converted from {} to {} must have exactly one output, but found {}.",
    "Gemm input A must have exactly 2 dimensions",
    "Gemm input B must have exactly 2 dimensions",
    "GroupNormalization node must have at least 3 inputs",
    "Resize in opset 10 needs to have at least 2 inputs.",
    "Scan node in opset 8 must have at least 1 input",
    "Scan node is null",
    "Scan node does not belong to a graph",
    "Scatter in opset 10 needs to have at least 3 inputs.",
    "Softmax node must have at least 1 input",
    "Flatten node must have at least 1 input",
    "Reshape node must have at least 1 output",
    "Upsample in opset 1 needs to have width_scale and height_scale attributes",
    "Upsample node must have at least 1 input",
    "Upsample in opset 1 supports only 4D input tensor",
    "Upsample node must have at least 2 inputs",
    "Upsample in opset 9 needs to have 2 inputs.",
    "Dimension {} of input {} does not match dimension {} of input {}, and neither's value is 1",
    "expected INT64 tensor, got elem_type={}",
    "INT64 tensor: {} raw bytes does not match dims ({} elements)",
    "Raw Data must be non-empty and size must be a multiple of 8",
    'Graph has no default-domain (\\"\\" or \\"ai.onnx\\") opset entry',
    "Op '{}' has no registered schema; cannot convert it from version {} to {}.",
    "initial_version does not reflect current state of model",
    "Warning: invalid version (must be between {} and {})",
    "Warning: default onnx version converter can only convert  between default domain opset versions "
    "('' or 'ai.onnx')\\n",
    "initial_version and target_version must have the same domains",
)


def _pattern(template: str) -> str:
    return ".*?".join(re.escape(part) for part in template.split("{}"))


#: A refusal the converter states as a limit: one of :data:`LIMITS` anywhere in the error's text.
STATED = re.compile("|".join(f"(?:{_pattern(t)})" for t in sorted(LIMITS, key=len, reverse=True)))


def stated(text: str) -> re.Match[str] | None:
    """The first stated limit (:data:`LIMITS`) in a converter error's ``text``, or None (an invariant or an
    unknown message: the pass's refusal)."""
    return STATED.search(text)


_ASSERT = "ONNX_ASSERTM("
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
_LITERAL_PART = re.compile(r'(?:\s*(?:"(?:[^"\\]|\\.)*"|PRI[a-zA-Z0-9]+)\s*)+')
_PRINTF = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?[diouxXsfgc]")


def calls(text: str, head: str = _ASSERT) -> Iterator[str]:
    """The argument text of each call ``head`` opens (``ONNX_ASSERTM(`` by default) in C++ ``text`` (parentheses
    balanced, strings skipped)."""
    i = text.find(head)
    while i >= 0:
        k, depth, in_string = i + len(head), 1, False
        start = k
        while depth and k < len(text):
            c = text[k]
            if in_string:
                k += c == "\\"
                in_string = c != '"'
            elif c == '"':
                in_string = True
            else:
                depth += (c == "(") - (c == ")")
            k += 1
        yield text[start : k - 1]
        i = text.find(head, k)


def _arguments(args: str) -> list[str]:
    """``args`` split at its top-level commas."""
    out, cur, depth, in_string, k = [], [], 0, False, 0
    while k < len(args):
        c = args[k]
        if in_string and c == "\\":
            cur.append(args[k : k + 2])
            k += 2
            continue
        if c == '"':
            in_string = not in_string
        elif not in_string and c in "([{":
            depth += 1
        elif not in_string and c in ")]}":
            depth -= 1
        if c == "," and depth == 0 and not in_string:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        k += 1
    out.append("".join(cur).strip())
    return out


def _literal(part: str) -> str | None:
    """The text of an argument made of string literals (a ``PRId64``-style macro read as ``d``), else None."""
    if not _LITERAL_PART.fullmatch(part):
        return None
    pieces = re.finditer(r'"((?:[^"\\]|\\.)*)"|PRI\w+', part)
    return "".join(m.group(1) if m.group(1) is not None else "d" for m in pieces)


def template(args: list[str]) -> str:
    """The message template of one ``ONNX_ASSERTM``'s arguments after the condition: a printf format (onnx <= 1.19)
    with its conversions as ``{}``, or the streamed parts (onnx >= 1.20) with each non-literal one as ``{}``."""
    texts = [_literal(a) for a in args]
    if texts and texts[0] is not None and _PRINTF.search(texts[0]):
        return _PRINTF.sub("{}", texts[0])
    out = "".join("{}" if t is None else t for t in texts)
    return re.sub(r"(?:\{\})+", "{}", out)


def messages(directory: Path) -> dict[str, list[str]]:
    """Every ``ONNX_ASSERTM`` message template (:func:`template`) of the converter sources under ``directory``
    (an installed onnx's ``version_converter``: the wheel ships its ``.h`` and ``.cc``) → the files stating it."""
    out: dict[str, list[str]] = {}
    for f in sorted(directory.rglob("*")):
        if f.suffix not in (".h", ".cc"):
            continue
        for call in calls(f.read_text(encoding="utf-8", errors="replace")):
            out.setdefault(template(_arguments(call)[1:]), []).append(str(f.relative_to(directory)))
    return out


def unclassified(directory: Path) -> dict[str, list[str]]:
    """The messages of :func:`messages` that neither :data:`LIMITS` nor :data:`INVARIANTS` holds."""
    known = set(LIMITS) | set(INVARIANTS)
    return {m: files for m, files in messages(directory).items() if m not in known}
