"""Feeds from files: a ``.npz``, or the ONNX backend-test layout, read and written.

Backend-test layout (onnx/backend/test/data/*/<test>/): ``model.onnx`` beside folders
``test_data_set_K/`` holding ``input_J.pb`` (and ``output_J.pb``), each one serialized message:
TensorProto, SequenceProto, MapProto, OptionalProto (seed 001) or SparseTensorProto, chosen by
the type of the graph input it feeds. Each file is bound to an input BY NAME (the message's
``name`` field) and the name is checked against position J; a file with no name is bound by
position. Position J counts the inputs that need a feed (graph inputs without an initializer),
and for reading also the full ``graph.input`` list as onnx's backend runner does.

Values: numpy arrays (tensors), lists (sequences), dicts (maps), None (absent optional),
:class:`SparseValue` (sparse tensors).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.errors import FeedError
from passcheck.runtime.feeds import runtime_inputs

if TYPE_CHECKING:
    import onnx


@dataclasses.dataclass
class SparseValue:
    """A sparse tensor value: ``values`` [NNZ], ``indices`` [NNZ] or [NNZ, rank], ``dense_shape``."""

    values: np.ndarray
    indices: np.ndarray
    dense_shape: tuple[int, ...]


_SET = re.compile(r"test_data_set_(\d+)$")
_FILE = re.compile(r"(input|output)_(\d+)\.pb$")


def _proto_class(tp: onnx.TypeProto):
    import onnx

    return {
        "tensor_type": onnx.TensorProto,
        "sequence_type": onnx.SequenceProto,
        "map_type": onnx.MapProto,
        "optional_type": onnx.OptionalProto,
        "sparse_tensor_type": onnx.SparseTensorProto,
    }.get(tp.WhichOneof("value"), onnx.TensorProto)


def proto_to_value(msg: Any) -> Any:
    """A TensorProto / SequenceProto / MapProto / OptionalProto / SparseTensorProto as a value."""
    import onnx
    from onnx import numpy_helper

    if isinstance(msg, onnx.TensorProto):
        return numpy_helper.to_array(msg)
    if isinstance(msg, onnx.SparseTensorProto):
        return SparseValue(numpy_helper.to_array(msg.values), numpy_helper.to_array(msg.indices), tuple(msg.dims))
    if isinstance(msg, onnx.MapProto):
        keys = [k.decode() for k in msg.string_keys] if msg.key_type == onnx.TensorProto.STRING else list(msg.keys)
        values = proto_to_value(msg.values)
        if len(keys) != len(values):
            raise FeedError(f"map {msg.name!r}: {len(keys)} keys but {len(values)} values")
        return dict(zip(keys, values))
    fields = {1: "tensor", 2: "sparse_tensor", 3: "sequence", 4: "map", 5: "optional"}
    if isinstance(msg, onnx.SequenceProto):
        if msg.elem_type == 0:
            return []
        return [proto_to_value(v) for v in getattr(msg, f"{fields[msg.elem_type]}_values")]
    if isinstance(msg, onnx.OptionalProto):
        if msg.elem_type == 0:
            return None
        return proto_to_value(getattr(msg, f"{fields[msg.elem_type]}_value"))
    raise FeedError(f"cannot read a {type(msg).__name__} as a feed")


def value_to_proto(value: Any, tp: onnx.TypeProto, name: str = "") -> Any:
    """The message for ``value`` of ONNX type ``tp`` (the inverse of :func:`proto_to_value`)."""
    import onnx
    from onnx import numpy_helper

    kind = tp.WhichOneof("value")
    if kind == "tensor_type":
        arr = np.asarray(value)
        return numpy_helper.from_array(
            arr.astype(object) if arr.dtype.kind in "SU" else arr, name
        )  # str or bytes: STRING
    if kind == "sparse_tensor_type":
        sp = onnx.SparseTensorProto(
            values=numpy_helper.from_array(np.asarray(value.values), name),
            indices=numpy_helper.from_array(np.asarray(value.indices, np.int64)),
            dims=list(value.dense_shape),
        )
        return sp
    codes = {"tensor_type": 1, "sparse_tensor_type": 2, "sequence_type": 3, "map_type": 4, "optional_type": 5}
    fields = {1: "tensor", 2: "sparse_tensor", 3: "sequence", 4: "map", 5: "optional"}
    if kind == "sequence_type":
        et = tp.sequence_type.elem_type
        seq = onnx.SequenceProto(name=name, elem_type=codes.get(et.WhichOneof("value"), 0))
        getattr(seq, f"{fields[seq.elem_type]}_values").extend(value_to_proto(v, et) for v in value)
        return seq
    if kind == "optional_type":
        et = tp.optional_type.elem_type
        if value is None:
            return onnx.OptionalProto(name=name, elem_type=0)
        opt = onnx.OptionalProto(name=name, elem_type=codes[et.WhichOneof("value")])
        getattr(opt, f"{fields[opt.elem_type]}_value").CopyFrom(value_to_proto(value, et))
        return opt
    if kind == "map_type":
        mt = tp.map_type
        m = onnx.MapProto(name=name, key_type=mt.key_type)
        if mt.key_type == onnx.TensorProto.STRING:
            m.string_keys.extend(str(k).encode() for k in value)
        else:
            m.keys.extend(int(k) for k in value)
        seq_type = onnx.TypeProto()
        seq_type.sequence_type.elem_type.CopyFrom(mt.value_type)
        m.values.CopyFrom(value_to_proto(list(value.values()), seq_type))
        return m
    raise FeedError(f"{name or 'value'}: cannot write a value of kind {kind}")


def _data_sets(path: Path) -> list[Path]:
    if _SET.search(path.name):
        return [path]
    sets = sorted(
        (p for p in path.iterdir() if p.is_dir() and _SET.search(p.name)),
        key=lambda p: int(_SET.search(p.name).group(1)),
    )
    if not sets:
        raise FeedError(f"{path}: no test_data_set_K folders (expected the ONNX backend-test layout, or give a .npz)")
    return sets


def _read_set(folder: Path, model: onnx.ModelProto) -> dict[str, Any]:
    needed = runtime_inputs(model)
    by_name = {vi.name: vi for vi in model.graph.input}
    files = sorted(
        (p for p in folder.glob("input_*.pb") if _FILE.search(p.name)), key=lambda p: int(_FILE.search(p.name).group(2))
    )
    feeds: dict[str, Any] = {}
    for f in files:
        j = int(_FILE.search(f.name).group(2))
        at_j = [vi.name for vi in (needed[j : j + 1] + list(model.graph.input)[j : j + 1])]
        guess = by_name[at_j[0]] if at_j else None
        msg, name = _parse_named(f, guess, by_name)
        if not name:
            if guess is None:
                raise FeedError(
                    f"{f}: no graph input at position {j} (the model has {len(needed)} inputs to feed) and the "
                    "file names none"
                )
            name = guess.name
        elif name not in by_name:
            raise FeedError(
                f"{f}: feeds input {name!r}, which the model does not have (its inputs: "
                f"{', '.join(v.name for v in needed)})"
            )
        elif at_j and name not in at_j:
            raise FeedError(
                f"{f}: names input {name!r} but position {j} is input {at_j[0]!r}; "
                "rename the file "
                f"input_{[v.name for v in needed].index(name) if name in [v.name for v in needed] else '?'}.pb "
                "or fix its name"
            )
        if name in feeds:
            raise FeedError(f"{f}: input {name!r} is fed twice in {folder}")
        try:
            feeds[name] = proto_to_value(msg)
        except FeedError:
            raise
        except Exception as exc:  # noqa: BLE001 - a malformed message is bad input
            raise FeedError(f"{f}: cannot read the value of input {name!r}: {exc}") from None
    return feeds


def _name_of(msg: Any) -> str:
    import onnx

    return msg.values.name if isinstance(msg, onnx.SparseTensorProto) else msg.name


def _parse_named(path: Path, guess, by_name) -> tuple[Any, str]:
    """Parse ``path`` as the message whose ``name`` names an input of the matching kind.

    Tries the kind of the input at the file's position first, then every other kind; falls back
    to the positional kind (its name, possibly empty or unknown, is then judged by the caller).
    """
    import onnx

    first = _proto_class(guess.type) if guess is not None else onnx.TensorProto
    kinds = [first] + [
        c
        for c in (onnx.TensorProto, onnx.SequenceProto, onnx.MapProto, onnx.OptionalProto, onnx.SparseTensorProto)
        if c is not first
    ]
    for cls in kinds:
        try:
            msg = _parse(path, cls)
            name = _name_of(msg)
        except (FeedError, UnicodeDecodeError, AttributeError):
            continue
        if name in by_name and _proto_class(by_name[name].type) is cls:
            return msg, name
    msg = _parse(path, first)
    return msg, _name_of(msg)


def _parse(path: Path, cls) -> Any:
    from google.protobuf.message import DecodeError

    msg = cls()
    try:
        msg.ParseFromString(path.read_bytes())
    except (DecodeError, RuntimeError, ValueError) as exc:
        raise FeedError(f"{path}: not a serialized {cls.__name__} ({exc})") from None
    return msg


def read_feeds(path: str | Path, model: onnx.ModelProto) -> list[dict[str, Any]]:
    """Read feeds for ``model``: one dict per data set.

    Args:
        path: a ``.npz`` (one data set, arrays by input name), a ``test_data_set_K`` folder,
            or a folder holding ``test_data_set_K`` folders.
        model: the model whose inputs the files feed.

    Raises:
        FeedError: a missing path, a file for an input the model does not have, a name that
            disagrees with its position, a missing input, or an unreadable file.
    """
    p = Path(path)
    if not p.exists():
        raise FeedError(f"--feeds {p}: no such file or folder")
    if p.is_file():
        if p.suffix != ".npz":
            raise FeedError(f"--feeds {p}: expected a .npz file or a folder in the ONNX backend-test layout")
        try:
            with np.load(p, allow_pickle=False) as z:
                sets = [{k: z[k] for k in z.files}]
        except Exception as exc:  # noqa: BLE001
            raise FeedError(f"--feeds {p}: not a readable .npz ({exc})") from None
        known = {vi.name for vi in model.graph.input}
        for k in sets[0]:
            if k not in known:
                raise FeedError(
                    f"--feeds {p}: array {k!r} feeds an input the model does not have (its inputs: "
                    f"{', '.join(v.name for v in runtime_inputs(model))})"
                )
    else:
        sets = [_read_set(s, model) for s in _data_sets(p)]
    for s, feeds in zip(_data_sets(p) if p.is_dir() else [p], sets):
        missing = [vi.name for vi in runtime_inputs(model) if vi.name not in feeds]
        if missing:
            raise FeedError(f"--feeds {s}: no value for input(s) {', '.join(missing)}")
    return sets


def read_outputs(folder: str | Path, model: onnx.ModelProto) -> dict[str, Any]:
    """The expected outputs of one backend-test data set: ``output_J.pb`` of ``folder`` (a
    ``test_data_set_K`` folder) bound to graph output J by position, as onnx's backend runner binds
    them, and read as that output's type (values as :func:`proto_to_value` gives them). Outputs with
    no file are absent from the result.

    Raises:
        FeedError: a file that does not parse as its output's type.
    """
    out: dict[str, Any] = {}
    for j, vi in enumerate(model.graph.output):
        f = Path(folder) / f"output_{j}.pb"
        if f.is_file():
            out[vi.name] = proto_to_value(_parse(f, _proto_class(vi.type)))
    return out


def data_sets_beside(model_path: str | Path) -> tuple[Path, str] | None:
    """The backend-test data shipped next to a model file, if any: ``(folder, description)``
    where ``folder`` holds ``test_data_set_K/input_J.pb`` and ``description`` reads e.g.
    ``test_data_set_0..2 from the model folder``; None when the model's folder has no such set."""
    folder = Path(model_path).parent
    sets = sorted(
        int(m.group(1))
        for p in folder.glob("test_data_set_*")
        if (m := _SET.search(p.name)) and p.is_dir() and any(p.glob("input_*.pb"))
    )
    if not sets:
        return None
    span = f"test_data_set_{sets[0]}" + (f"..{sets[-1]}" if len(sets) > 1 else "")
    return folder, f"{span} from the model folder"


def write_data_set(
    folder: str | Path,
    index: int,
    model: onnx.ModelProto,
    inputs: Mapping[str, Any],
    outputs: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``folder/test_data_set_<index>/input_J.pb`` (+ ``output_J.pb``), named, in model order.

    Returns:
        The data-set folder.
    """
    d = Path(folder) / f"test_data_set_{index}"
    d.mkdir(parents=True, exist_ok=True)
    for j, vi in enumerate(runtime_inputs(model)):
        (d / f"input_{j}.pb").write_bytes(value_to_proto(inputs[vi.name], vi.type, vi.name).SerializeToString())
    for j, vi in enumerate(model.graph.output):
        if outputs is not None and vi.name in outputs:
            tp = vi.type if vi.type.WhichOneof("value") else _type_of(outputs[vi.name])
            (d / f"output_{j}.pb").write_bytes(value_to_proto(outputs[vi.name], tp, vi.name).SerializeToString())
    return d


def _type_of(value: Any) -> onnx.TypeProto:
    import onnx

    tp = onnx.TypeProto()
    if isinstance(value, list):
        tp.sequence_type.elem_type.CopyFrom(
            _type_of(value[0]) if value else onnx.TypeProto(tensor_type=onnx.TypeProto.Tensor(elem_type=1))
        )
    else:
        tp.tensor_type.elem_type = (
            onnx.helper.np_dtype_to_tensor_dtype(np.asarray(value).dtype)
            if np.asarray(value).dtype.kind not in "OU"
            else onnx.TensorProto.STRING
        )
    return tp


def require_declared(sets: list[dict[str, Any]], model: onnx.ModelProto, where: str) -> None:
    """Refuse feeds a model's input declarations rule out: an array whose dtype is not the input's
    elem_type, or whose rank or a static dim differs from its shape. onnxruntime refuses such a feed on
    every form alike, so it is the feed file's fault, not a finding on the model.

    Raises:
        FeedError: the first such array, with the declaration and what the array is.
    """
    import onnx

    declared = {vi.name: vi.type.tensor_type for vi in runtime_inputs(model) if vi.type.HasField("tensor_type")}
    for feeds in sets:
        for name, value in feeds.items():
            tt = declared.get(name)
            if tt is None or not isinstance(value, np.ndarray):
                continue
            try:
                dtype = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type))
            except (KeyError, TypeError, ValueError):
                continue
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
            misfit = tt.HasField("shape") and (
                value.ndim != len(dims) or any(d is not None and d != n for d, n in zip(dims, value.shape))
            )
            if value.dtype != dtype or misfit:
                shown = [d if d is not None else "?" for d in dims] if tt.HasField("shape") else "any shape"
                raise FeedError(
                    f"--feeds {where}: input {name!r} is declared {dtype} {shown}; "
                    f"the array is {value.dtype} {list(value.shape)}"
                )
