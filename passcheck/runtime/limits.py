"""The newest ai.onnx opset and IR version the installed onnxruntime officially supports.

onnxruntime refuses a model stamped with an opset newer than its official support, even when the
onnx it is paired with defines that opset ("ONNX Runtime only *guarantees* support for models
stamped with official released onnx opset versions … Current official support for domain ai.onnx
is till opset N", onnxruntime ``model_load_utils.h``). Such a model cannot be run or judged in that
environment: it is ``unavailable`` there, not a finding against a form or a pass. Likewise a model
whose IR version is newer than onnxruntime reads ("Unsupported model IR version: N, max supported IR
version: M", onnxruntime ``core/graph/model.cc``; e.g. onnxruntime 1.17 reads IR 9, while the onnx 1.16
beside it writes IR 10 for opset 21).
"""

from __future__ import annotations

import functools
import re

_LIMIT = re.compile(r"official support for domain (\S+) is till opset (\d+)")
_IR_LIMIT = re.compile(r"Unsupported model IR version: (\d+), max supported IR version: (\d+)")


def stated_limit(error: str) -> tuple[str, int] | None:
    """(domain, newest supported opset) from an onnxruntime load error that states its limit, else None."""
    m = _LIMIT.search(error or "")
    return (m.group(1), int(m.group(2))) if m else None


def stated_ir_limit(error: str) -> int | None:
    """The newest IR version from an onnxruntime load error that states it, else None."""
    m = _IR_LIMIT.search(error or "")
    return int(m.group(2)) if m else None


def _relu_model(opset: int, ir_version: int):
    from onnx import TensorProto, helper

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "limit",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = ir_version
    return model


@functools.cache
def ort_ir_limit() -> int | None:
    """The newest IR version the installed onnxruntime loads, when below the installed onnx's
    ``onnx.IR_VERSION`` (found once per process by loading a Relu model, ai.onnx opset 13, stamped
    with that IR version); None when onnxruntime loads it, or either tool is missing."""
    try:
        import onnx
        import onnxruntime as ort
    except ImportError:
        return None
    try:
        ort.InferenceSession(_relu_model(13, onnx.IR_VERSION).SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - any refusal; only a stated limit counts
        found = stated_ir_limit(str(exc))
        return found if found is not None and found < onnx.IR_VERSION else None
    return None


@functools.cache
def ort_opset_limit() -> int | None:
    """The newest ai.onnx opset the installed onnxruntime loads, when below the installed onnx's
    newest (found once per process by loading a one-node model stamped with onnx's newest opset);
    None when onnxruntime loads that opset, or either tool is missing."""
    try:
        import onnx
        import onnxruntime as ort
    except ImportError:
        return None
    newest = onnx.defs.onnx_opset_version()
    # stamped with an IR version both tools read, so only the opset is asked
    model = _relu_model(newest, min(onnx.IR_VERSION, ort_ir_limit() or onnx.IR_VERSION))
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - any refusal; only a stated limit counts
        found = stated_limit(str(exc))
        return found[1] if found and found[0] in ("ai.onnx", "") and found[1] < newest else None
    return None


def beyond_onnxruntime(model) -> str | None:
    """Why the installed onnxruntime will not load ``model`` by its stated IR version or opset
    support, or None."""
    from passcheck._versions import tool_version

    ir_limit = ort_ir_limit()
    if ir_limit is not None and model.ir_version > ir_limit:
        return (
            f"the model has IR version {model.ir_version}; onnxruntime {tool_version('onnxruntime')} here loads "
            f"IR versions up to {ir_limit}"
        )
    limit = ort_opset_limit()
    if limit is None:
        return None
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    if opset <= limit:
        return None
    return (
        f"the model imports ai.onnx opset {opset}; onnxruntime {tool_version('onnxruntime')} here officially supports "
        f"ai.onnx opsets up to {limit} and refuses newer stamps"
    )


_NO_KERNEL = re.compile(r"(?:Could not find an implementation for|Failed to find kernel for) (\w+)\((\d+)\) \(?node")


def missing_kernel(error: str | None) -> tuple[str, int] | None:
    """(op type, since_version) from an onnxruntime load error saying it registers no kernel for
    that node's op, version and element types on the provider, else None.

    onnxruntime states it when the session is created, ``NOT_IMPLEMENTED``: "Could not find an
    implementation for Op(N) node with name …" or "Failed to find kernel for Op(N) (node: …". A
    fact about the installed runtime, not about the model, which the ONNX spec allows whatever
    kernels a runtime happens to ship."""
    m = _NO_KERNEL.search(error or "")
    return (m.group(1), int(m.group(2))) if m else None


def all_missing_kernel(errors: list[str | None]) -> tuple[str, int] | None:
    """The first (op type, since_version) of :func:`missing_kernel` when every one of ``errors``
    (at least one) says onnxruntime lacks a kernel, else None."""
    found = [missing_kernel(e) for e in errors]
    return found[0] if found and all(found) else None


#: A registered CPU kernel refusing an element type when it runs (``ORT_NOT_IMPLEMENTED`` inside ``Compute``), as
#: onnxruntime wraps it: "Non-zero status code returned while running GRU node. Name:'…' Status Message: GRU
#: operator does not support double yet".
_REFUSED_TYPE = re.compile(r"running (\w+) node\..*?Status Message: (\1 operator does not support (\w+) yet)", re.S)


def refused_type(error: str | None) -> tuple[str, str, str] | None:
    """(op type, element type, onnxruntime's words) from an onnxruntime *run* error saying the CPU kernel it
    registered for the node does not compute that element type, else None.

    onnxruntime registers the GRU and LSTM CPU kernels for float and double (``deep_cpu_gru.cc``,
    ``deep_cpu_lstm.cc``), so the session is created and :func:`missing_kernel` has nothing to read, and their
    ``Compute`` answers double with ``ORT_NOT_IMPLEMENTED("GRU operator does not support double yet")``. The
    operator schema allows ``tensor(double)`` (Operators.md, GRU / LSTM type constraint T): like a kernel not
    registered, a fact about the installed runtime, not about the model or a pass."""
    m = _REFUSED_TYPE.search(error or "")
    return (m.group(1), m.group(3), m.group(2)) if m else None


def _gap_text(error: str | None) -> str | None:
    """What the installed onnxruntime lacks, in words, from one error (:func:`missing_kernel`,
    :func:`refused_type`), else None."""
    if (gap := missing_kernel(error)) is not None:
        return f"no CPU kernel for {gap[0]}({gap[1]}) with this form's element types"
    if (refused := refused_type(error)) is not None:
        op, elem, words = refused
        return f"a CPU kernel for {op} that does not compute {elem} when it runs ({words!r})"
    return None


def no_kernel_reason(errors: list[str | None]) -> str | None:
    """Why every run of a form failed for a kernel the installed onnxruntime lacks (none registered for the node,
    :func:`missing_kernel`, or one registered that refuses the element type when it runs, :func:`refused_type`),
    or None when any run succeeded or failed for another reason."""
    gaps = [_gap_text(e) for e in errors]
    if not gaps or not all(gaps):
        return None
    from passcheck._versions import tool_version

    return f"onnxruntime {tool_version('onnxruntime')} here has {gaps[0]} (an environment fact, not a finding)"
