"""onnxruntime's own operator schemas (the contrib domains, ``com.microsoft`` …), read through the attribute names
of ``onnx.defs.OpSchema`` so code written for onnx's schemas reads them unchanged (M341).

Source: ``onnxruntime.capi.onnxruntime_pybind11_state.get_all_operator_schema()`` — every schema onnxruntime
registers (its contrib ops are not in ``onnx.defs``, whose registry importing onnxruntime does not extend). Its
formal parameters spell the type ``typeStr`` (onnx: ``type_str``), its option and attribute type are its own
enums (mapped here to onnx's by name), and an attribute's default is a serialized ``AttributeProto``. The
schemas carry no function bodies (``has_function`` False). Read once per onnxruntime version.
"""

from __future__ import annotations

import dataclasses
import functools

import onnx
import onnx.defs

_OPTION = onnx.defs.OpSchema.FormalParameterOption


@dataclasses.dataclass(frozen=True)
class Param:
    """A formal input or output: ``name``, ``type_str`` (``T`` or ``tensor(float)``), ``option`` (onnx's enum),
    ``description`` (the schema's text for it, as onnx's ``FormalParameter.description``)."""

    name: str
    type_str: str
    option: onnx.defs.OpSchema.FormalParameterOption
    min_arity: int = 1
    description: str = ""


@dataclasses.dataclass(frozen=True)
class Constraint:
    type_param_str: str
    allowed_type_strs: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Attribute:
    """``type``: ``onnx.AttributeProto.AttributeType`` value; ``default_value``: an ``AttributeProto`` (``type``
    0 when the schema gives no default); ``description``: the schema's doc text of the attribute."""

    name: str
    type: int
    required: bool
    default_value: onnx.AttributeProto
    description: str = ""


@dataclasses.dataclass(frozen=True)
class Schema:
    """One onnxruntime schema with ``onnx.defs.OpSchema``'s attribute names (the ones passcheck reads)."""

    name: str
    domain: str
    since_version: int
    doc: str
    inputs: tuple[Param, ...]
    outputs: tuple[Param, ...]
    type_constraints: tuple[Constraint, ...]
    attributes: dict[str, Attribute]
    deprecated: bool = False
    has_function: bool = False
    has_context_dependent_function: bool = False


def _param(p) -> Param:
    return Param(p.name, p.typeStr, getattr(_OPTION, p.option.name), description=p.description or "")


def _attribute(a) -> Attribute:
    default = onnx.AttributeProto()
    default.ParseFromString(a._default_value or b"")
    return Attribute(a.name, int(a.type), bool(a.required), default, a.description or "")


@functools.cache
def _schemas(ort_version: str) -> tuple[Schema, ...]:
    try:
        from onnxruntime.capi import onnxruntime_pybind11_state as state
    except ImportError:
        return ()
    return tuple(
        Schema(
            s.name,
            s.domain,
            int(s.since_version),
            s.doc or "",
            tuple(map(_param, s.inputs)),
            tuple(map(_param, s.outputs)),
            tuple(Constraint(c.type_param_str, tuple(c.allowed_type_strs)) for c in s.type_constraints),
            {n: _attribute(a) for n, a in s.attributes.items()},
            bool(s.deprecated),
        )
        for s in state.get_all_operator_schema()
    )


def schemas(domain: str) -> list[Schema]:
    """The installed onnxruntime's schemas of ``domain`` (``com.microsoft``), newest version of each op, sorted by
    name; empty when onnxruntime is not installed."""
    from passcheck._versions import tool_version

    newest: dict[str, Schema] = {}
    for s in _schemas(tool_version("onnxruntime") or ""):
        if s.domain == domain and (s.name not in newest or s.since_version > newest[s.name].since_version):
            newest[s.name] = s
    return sorted(newest.values(), key=lambda s: s.name)


def history() -> tuple[Schema, ...]:
    """Every schema the installed onnxruntime registers, every domain and version (empty when not installed)."""
    from passcheck._versions import tool_version

    return _schemas(tool_version("onnxruntime") or "")


__all__ = ["Attribute", "Constraint", "Param", "Schema", "history", "schemas"]
