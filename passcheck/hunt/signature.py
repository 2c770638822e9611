"""Finding signatures: what makes two hunt findings the same bug.

A signature is ``(pass, oracle, kind, op types involved, rewrite kind)``. The op types involved
are those at the sites the rewrite changed (node labels, ``#index:OpType`` labels, or the nodes
reading / writing a changed value) plus the op types the finding itself names (a parity
finding's ``kept_op_types``); when the sites name no node (a graph input retyped), the op types
of the base. The rewrite kind drops site labels (``commute-operands``, not
``commute-operands@Add_0``). A pass-contract finding (the pass changed the ModelProto it was given)
is one behaviour of the tool whatever the op or rewrite: its signature names neither.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding


@dataclasses.dataclass(frozen=True)
class Signature:
    pass_id: str
    oracle: str
    kind: str
    ops: tuple[str, ...]
    rewrite: str

    @property
    def key(self) -> str:
        return f"{self.pass_id}|{self.oracle}|{self.kind}|{','.join(self.ops)}|{self.rewrite}"

    @property
    def case_id(self) -> str:
        """The id of the case module a shrunk pair of this signature is saved as: ``hunt/<…>-<hash>``."""
        digest = hashlib.sha256(self.key.encode()).hexdigest()[:8]
        words = re.sub(r"[^a-z0-9_.+-]+", "-", f"{self.rewrite}-{self.pass_id}-{self.kind}".lower()).strip("-")[:60].rstrip("-")
        return f"hunt/{words}-{digest}"

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "Signature":
        return cls(d["pass_id"], d["oracle"], d["kind"], tuple(d["ops"]), d["rewrite"])


#: The oracle of findings about the pass's contract with its input (input-mutated), whatever the model.
PASS_CONTRACT = "pass-contract"


def site_ops(models: Iterable["onnx.ModelProto"], labels: Iterable[str]) -> set[str]:
    """Op types of the main-graph nodes a rewrite's site labels name in any of ``models``."""
    labels = set(labels)
    ops: set[str] = set()
    for label in labels:
        if m := re.fullmatch(r"#\d+:(\w+)", label):
            ops.add(m.group(1))
    for model in models:
        for n in model.graph.node:
            if n.name in labels or labels & set(n.output) or labels & set(n.input):
                ops.add(n.op_type)
    return ops


def signature(finding: "Finding", rewrite: str, models: Iterable["onnx.ModelProto"], labels: Iterable[str]) -> Signature:
    """The signature of ``finding`` seen on a pair rewritten by ``rewrite`` (a rewrite kind) at ``labels``."""
    if finding.oracle == PASS_CONTRACT:  # how the pass treats the ModelProto it is given: one behaviour per tool
        return Signature(finding.pass_id, finding.oracle, finding.kind, (), "")
    models = list(models)
    ops = site_ops(models, labels) | set(finding.details.get("kept_op_types") or ())
    if not ops and models:  # sites that name no node (graph inputs, say): the base's own op types
        ops = {n.op_type for n in models[0].graph.node}
    return Signature(finding.pass_id, finding.oracle, finding.kind, tuple(sorted(ops)), rewrite)
