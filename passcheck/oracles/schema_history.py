"""Released operator schemas compared across onnx versions: a difference is a checker defect of one of them.

Versioning.md (Operator versioning): a change to an operator's signature or semantics is a new ``since_version``;
the schema of a released (domain, op, since_version) never changes. So the type constraints, inputs, outputs and
attributes that two onnx releases report for the same (domain, op, since_version) must be equal, and where they are
not, one release's checker and shape inference reject models the other accepts (or accept ones it rejects).

:func:`table` reads the schemas of the onnx imported here (run it in each pinned interpreter with
``python -m passcheck.oracles.schema_history``, which prints the onnx version and the table as JSON;
:mod:`passcheck.matrix.schemas` does so once per environment of a matrix run); :func:`drift` compares two tables
over the entries both hold. Entries only one version holds (an opset the other does not know) are not drift.
:func:`known_drift` names the changes a later release made in place on purpose (a clarification that states the
older constraint was never meant), which a report shows as expected rather than as a defect.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping
from typing import Any

#: (domain, op type, since_version) as a string key: ``"ai.onnx::GlobalLpPool::22"`` (JSON-safe).
Key = str


@dataclasses.dataclass(frozen=True)
class Drift:
    """One field of one released schema that two onnx versions report differently.

    Attributes:
        key: ``domain::op::since_version`` (the default domain as ``ai.onnx``).
        field: ``types:T`` (a type constraint's allowed types), ``inputs``, ``outputs`` or ``attributes``.
        old: the value in the first table; new: in the second (both as :func:`signature` writes them).
    """

    key: Key
    field: str
    old: Any
    new: Any


def _key(domain: str, name: str, since: int) -> Key:
    return f"{domain or 'ai.onnx'}::{name}::{since}"


def signature(schema) -> dict[str, Any]:
    """The parts of an ``onnx.defs.OpSchema`` a checker enforces, as JSON-safe values.

    ``types:NAME`` → sorted allowed type strings per type constraint; ``inputs`` / ``outputs`` → ``[name, option,
    type_str]`` per formal parameter; ``attributes`` → sorted ``[name, type, required]``.
    """
    out: dict[str, Any] = {}
    for tc in schema.type_constraints:
        out[f"types:{tc.type_param_str}"] = sorted(set(tc.allowed_type_strs))
    out["inputs"] = [[p.name, int(p.option), p.type_str] for p in schema.inputs]
    out["outputs"] = [[p.name, int(p.option), p.type_str] for p in schema.outputs]
    out["attributes"] = sorted([a.name, int(a.type), bool(a.required)] for a in schema.attributes.values())
    return out


def table() -> dict[Key, dict[str, Any]]:
    """Every schema of every version the onnx imported here registers, keyed by (domain, op, since_version)."""
    import onnx.defs

    return {_key(s.domain, s.name, s.since_version): signature(s) for s in onnx.defs.get_all_schemas_with_history()}


#: (schema key, field) → why a later release changed it in place: the newer constraint is the meant one and
#: onnxruntime never ran the older one (Operators.md changelog, the release notes).
KNOWN: dict[tuple[Key, str], str] = {
    ("ai.onnx::Erf::13", "types:T"): (
        "onnx/onnx#7398 (1.20) narrowed Erf-13 to floating types in place as a clarification; "
        "onnxruntime has no integer Erf kernel"
    ),
}


def known_drift(d: Drift) -> str:
    """Why ``d`` is a deliberate in-place change (:data:`KNOWN`), or ``""``."""
    return KNOWN.get((d.key, d.field), "")


def _same(field: str, a: Any, b: Any) -> bool:
    """A type constraint is a set (a type listed twice is one type); the other fields compare as written."""
    if field.startswith("types:") and a is not None and b is not None:
        return set(a) == set(b)
    return a == b


def drift(old: Mapping[Key, Mapping[str, Any]], new: Mapping[Key, Mapping[str, Any]]) -> list[Drift]:
    """The fields that differ between two tables, over the schemas both hold, sorted by key and field."""
    found = []
    for key in sorted(old.keys() & new.keys()):
        a, b = old[key], new[key]
        for field in sorted(a.keys() | b.keys()):
            if not _same(field, a.get(field), b.get(field)):
                found.append(Drift(key, field, a.get(field), b.get(field)))
    return found


def main() -> None:
    """Print ``{"onnx": version, "schemas": table()}`` as JSON (what a matrix reads from each environment)."""
    import onnx

    json.dump({"onnx": onnx.__version__, "schemas": table()}, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
