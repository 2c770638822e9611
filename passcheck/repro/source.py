"""A ModelProto as Python source that rebuilds it with ``onnx.helper`` and numpy.

Tensors (initializers, tensor attributes) of at most :data:`LIST_LIMIT` finite elements are
written as lists, larger ones holding one value as ``np.full``, others as the hex of their
little-endian bytes (exact). A model this
cannot express (subgraphs, functions, sparse or string tensors, non-tensor types, …) is embedded
as base64 of its serialized bytes instead; :func:`model_source` says which it chose. Either way
the source is checked: it is executed and must rebuild the same graph.
"""

from __future__ import annotations

import base64
import math

#: Tensors with at most this many elements are written as Python lists.
LIST_LIMIT = 64


class _Inexpressible(Exception):
    pass


def how_spelled(how: dict[str, str]) -> str:
    """How a README says each form is written, ``; ``-joined: ``how`` maps form name → ``"helper"`` or
    ``"bytes"`` (the second value :func:`model_source` returns)."""
    bytes_ = "embedded as serialized bytes (too large or intricate for onnx.helper)"
    return "; ".join(f"`{f}`: {'rebuilt with onnx.helper' if h == 'helper' else bytes_}" for f, h in how.items())


def model_source(model, fn: str) -> tuple[str, str]:
    """(source defining ``def <fn>() -> onnx.ModelProto``, ``"helper"`` or ``"bytes"``).

    The source needs ``np``, ``onnx``, ``helper``, ``numpy_helper`` and ``base64`` imported.
    """
    try:
        src = _helper_source(model, fn)
    except _Inexpressible:
        src = None
    if src is not None and _rebuilds(src, fn, model):
        return src, "helper"
    data = base64.b64encode(model.SerializeToString()).decode()
    lines = [data[i : i + 100] for i in range(0, len(data), 100)]
    body = "\n".join(f'        "{ln}"' for ln in lines)
    return (
        f'def {fn}():\n    """The model as serialized bytes (too large or too intricate to spell with '
        'onnx.helper)."""\n'
        f"    return onnx.ModelProto.FromString(base64.b64decode(\n{body}\n    ))\n",
        "bytes",
    )


def _rebuilds(src: str, fn: str, model) -> bool:
    """Whether ``src`` runs and rebuilds ``model``'s graph. A source that raises (a tensor whose element type
    numpy names otherwise, such as the float8 types that ml_dtypes adds) is not used: the bytes are written."""
    try:
        rebuilt = _run(src, fn)
    except Exception:  # noqa: BLE001 - our own generated source failing is the fallback's case, not an error
        return False
    return _canonical(rebuilt) == _canonical(model)


def _run(src: str, fn: str):
    import base64 as b64

    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    ns = {"np": np, "onnx": onnx, "helper": helper, "numpy_helper": numpy_helper, "base64": b64}
    exec(compile(src, "<repro>", "exec"), ns)  # noqa: S102 - our own generated source, checked before use
    return ns[fn]()


def _canonical(model) -> bytes:
    """The parts of a model the rebuild must keep, tensors in one storage (raw bytes)."""
    import onnx
    from onnx import numpy_helper

    m = onnx.ModelProto()
    m.ir_version = model.ir_version
    m.opset_import.extend(sorted(model.opset_import, key=lambda o: o.domain))
    m.graph.CopyFrom(model.graph)
    m.graph.doc_string = ""
    for t in m.graph.initializer:
        t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t), t.name))
    for n in m.graph.node:
        n.doc_string = ""
        attrs = sorted(n.attribute, key=lambda a: a.name)
        del n.attribute[:]
        for a in attrs:
            if a.type == onnx.AttributeProto.TENSOR:
                a.t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(a.t), a.t.name))
            n.attribute.append(a)
    return m.SerializeToString(deterministic=True)


def _tensor(t) -> str:
    import numpy as np
    from onnx import numpy_helper

    if t.data_location == 1 or t.data_type in (8, 0):  # external data, string, undefined
        raise _Inexpressible
    try:
        arr = numpy_helper.to_array(t)
    except Exception:  # noqa: BLE001 - a type numpy cannot hold
        raise _Inexpressible from None
    if arr.dtype.kind not in "biuf" or arr.dtype.itemsize == 0:
        raise _Inexpressible
    dt = f"np.{arr.dtype.name}"
    shape = tuple(int(d) for d in arr.shape)
    flat = arr.ravel()
    if arr.size > 1 and (flat == flat[0]).all() and (arr.dtype.kind != "f" or math.isfinite(flat[0])):
        return f"numpy_helper.from_array(np.full({shape!r}, {flat[0].item()!r}, dtype={dt}), name={t.name!r})"  # a fill
    if arr.size <= LIST_LIMIT and (arr.dtype.kind != "f" or all(math.isfinite(x) for x in arr.ravel().tolist())):
        vals = repr(arr.ravel().tolist())
        expr = f"np.array({vals}, dtype={dt}).reshape({shape!r})"
    else:
        le = arr.astype(arr.dtype.newbyteorder("<"), copy=False)
        expr = (
            f"np.frombuffer(bytes.fromhex({np.ascontiguousarray(le).tobytes().hex()!r}), "
            f"dtype=np.dtype({dt}).newbyteorder('<')).astype({dt}).reshape({shape!r})"
        )
    return f"numpy_helper.from_array({expr}, name={t.name!r})"


def _attr(a) -> str:
    from onnx import AttributeProto as A
    from onnx import helper

    if a.ref_attr_name:
        raise _Inexpressible
    if a.type == A.TENSOR:
        return _tensor(a.t)
    if a.type not in (A.FLOAT, A.INT, A.STRING, A.FLOATS, A.INTS, A.STRINGS):
        raise _Inexpressible
    v = helper.get_attribute_value(a)
    if isinstance(v, list) and not v:
        raise _Inexpressible  # helper cannot infer the type of an empty list
    if a.type in (A.FLOAT, A.FLOATS) and not all(math.isfinite(x) for x in (v if isinstance(v, list) else [v])):
        raise _Inexpressible
    return repr(v)


def _value_info(vi) -> str:
    tp = vi.type
    if tp.WhichOneof("value") != "tensor_type":
        raise _Inexpressible
    tt = tp.tensor_type
    if tt.HasField("shape"):
        dims = []
        for d in tt.shape.dim:
            if d.denotation:
                raise _Inexpressible
            dims.append(d.dim_value if d.HasField("dim_value") else (d.dim_param if d.HasField("dim_param") else None))
        shape = repr(dims)
    else:
        shape = "None"
    return f"helper.make_tensor_value_info({vi.name!r}, {tt.elem_type}, {shape})"


def _helper_source(model, fn: str) -> str:
    g = model.graph
    if model.functions or g.sparse_initializer:
        raise _Inexpressible
    out = [f"def {fn}():", "    nodes = ["]
    for n in g.node:
        attrs = "".join(f", {a.name}={_attr(a)}" for a in sorted(n.attribute, key=lambda a: a.name))
        dom = f", domain={n.domain!r}" if n.domain else ""
        out.append(
            f"        helper.make_node({n.op_type!r}, {list(n.input)!r}, {list(n.output)!r}, "
            f"name={n.name!r}{dom}{attrs}),"
        )
    out.append("    ]")
    out.append("    initializers = [")
    out += [f"        {_tensor(t)}," for t in g.initializer]
    out.append("    ]")
    for label, vis in (("inputs", g.input), ("outputs", g.output), ("value_info", g.value_info)):
        out.append(f"    {label} = [")
        out += [f"        {_value_info(v)}," for v in vis]
        out.append("    ]")
    out.append(
        f"    graph = helper.make_graph(nodes, {g.name!r}, inputs, outputs, initializer=initializers, "
        "value_info=value_info)"
    )
    opsets = ", ".join(f"helper.make_opsetid({o.domain!r}, {o.version})" for o in model.opset_import)
    out.append(f"    return helper.make_model(graph, opset_imports=[{opsets}], ir_version={model.ir_version})")
    return "\n".join(out) + "\n"
