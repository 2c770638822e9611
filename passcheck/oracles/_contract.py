"""The oracle contract: what an oracle is given, what it asks the runtime to observe, what it returns.

An oracle judges :class:`Cells`: every form of one subject under one pass (``pass`` cells), or
the forms themselves before any pass (``input`` cells, pass id ``input``). It returns findings
(data, never raised) and, optionally, the parts it had to judge and could not (see
:attr:`passcheck.records.CellResult.unchecked`). Oracles are listed in
:mod:`passcheck.oracles.registry`; the engine applies every registered oracle to every group of
cells of the kinds it declares.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from passcheck.oracles._context import FormRun
from passcheck.records import Finding

if TYPE_CHECKING:
    import onnx

    from passcheck.case_model import Expectation

#: Cell kinds: the pass outputs of every form, and the forms themselves (pseudo-pass ``input``).
PASS, INPUT = "pass", "input"


@dataclasses.dataclass
class Cells:
    """Every form of one subject under one pass, in form order (the first is ``common``).

    Attributes:
        runs: one :class:`FormRun` per form.
        kind: :data:`PASS` or :data:`INPUT`.
        expect: the subject's expectations (the ``expectations`` oracle).
        parity: which parity checks apply (``ops``, ``precision``).
        feeds_given: the feeds came from the case or the user, not synthesized from annotations.
    """

    runs: list[FormRun]
    kind: str = PASS
    expect: Sequence[Expectation] = ()
    parity: frozenset[str] = frozenset({"ops", "precision"})
    feeds_given: bool = False


@runtime_checkable
class Oracle(Protocol):
    """What the engine needs of an oracle.

    Attributes:
        id: the registry key and the name a test selects it by (``oracles=[...]``).
        reports_as: the ``oracle`` field of its findings (baseline ids use it); usually ``id``.
        kinds: the cell kinds it judges (:data:`PASS`, :data:`INPUT`).
    """

    id: str
    reports_as: str
    kinds: frozenset[str]

    def observes(self, model: onnx.ModelProto) -> Iterable[str]:
        """Main-graph values of ``model`` whose data this oracle reads (exposed in each run).

        An oracle may also define ``observes_shapes(model)``: main-graph tensors whose shape and
        element type only it reads (observed as ``TensorMeta``, from onnxruntime's profile where
        it can, so a large model's activations are neither exposed nor copied)."""

    def judge(self, cells: Cells) -> list[Finding]:
        """The findings on ``cells`` (each names its form)."""

    def unchecked(self, cells: Cells) -> dict[str, dict[str, str]]:
        """form → {part → why} for each part this oracle had to judge and could not."""


class BaseOracle:
    """Defaults for an oracle: observes nothing extra, leaves nothing unchecked, judges each form
    alone with :meth:`check` (override :meth:`judge` to compare forms)."""

    id: ClassVar[str] = ""
    reports_as: ClassVar[str] = ""
    kinds: ClassVar[frozenset[str]] = frozenset({PASS})

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if cls.id and not cls.reports_as:
            cls.reports_as = cls.id

    def observes(self, model: onnx.ModelProto) -> Iterable[str]:
        return ()

    def observes_shapes(self, model: onnx.ModelProto) -> Iterable[str]:
        return ()

    def check(self, run: FormRun, cells: Cells) -> list[Finding]:
        return []

    def judge(self, cells: Cells) -> list[Finding]:
        return [f for r in cells.runs for f in self.check(r, cells)]

    def unchecked_run(self, run: FormRun, cells: Cells) -> dict[str, str]:
        return {}

    def unchecked(self, cells: Cells) -> dict[str, dict[str, str]]:
        return {r.form: parts for r in cells.runs if (parts := self.unchecked_run(r, cells))}

    def __repr__(self) -> str:
        return f"<oracle {self.id}>"
