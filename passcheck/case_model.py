"""The case model (data layer): a named family of forms of one computation.

A *case* builds a ``common`` form and one or more uncommon-but-valid forms of the same
computation. Every form has the same graph input and output names, elem_types and meaning, so
the same feeds apply to each and their outputs must agree.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.errors import RegistryError

if TYPE_CHECKING:
    import numpy as np
    import onnx

COMMON = "common"
#: The tag of a case whose hunt items draw only from its declared passes (:attr:`Case.passes`), whether or not
#: ``--pass`` names others: a case only some passes can judge (a generated version-converter source).
DECLARED_ONLY = "declared-passes-only"
_ID = re.compile(r"^[a-z0-9][a-z0-9_.+-]*(/[a-z0-9][a-z0-9_.+-]*)+$")
_FORM = re.compile(r"^[a-z0-9][a-z0-9_.+-]*$")

#: Symbol → size for one inference run (seed 000: a binding map fixed per run).
Binding = Mapping[str, int]
#: (binding, seed) → feeds by graph input name. Used when random normal feeds do not fit
#: (indices, masks, strictly positive values, …).
FeedFn = Callable[["Binding", int], "dict[str, np.ndarray]"]


@dataclasses.dataclass(frozen=True)
class Form:
    """One way of writing the case's computation.

    Attributes:
        build: returns a new ModelProto; called once per run, must be deterministic.
        doc: what is uncommon about this form (empty for ``common``).
    """

    build: Callable[[], onnx.ModelProto]
    doc: str = ""


@dataclasses.dataclass(frozen=True)
class Reference:
    """Fixed feeds and the outputs a source document states for them (onnx's backend node tests:
    the spec's own examples). The numeric and runtime oracles say which run matches them.

    Attributes:
        load: ``() → (feed sets, expected outputs)``, one dict per run (input name → value, graph
            output name → value); called when a subject is built, not when the case is registered.
        source: where the expected values come from (``onnx 1.23.2 backend node test test_abs``).
        rtol / atol: the tolerance the source compares at (onnx's backend runner: 1e-3 / 1e-7 unless
            the test sets its own).
    """

    load: Callable[[], tuple[list[dict[str, Any]], list[dict[str, Any]]]]
    source: str
    rtol: float = 1e-3
    atol: float = 1e-7


@dataclasses.dataclass(frozen=True)
class Expectation:
    """A statement a case makes about a pass, checked by the ``expectations`` oracle.

    Attributes:
        pass_id: the pass it applies to (``"*"`` for every pass).
        form: the form it applies to (``"*"`` for every form).
        no_op_types: op types that must not remain after the pass.
        output_shapes: graph output name → expected inferred shape (ints or symbol names).
        reason: why this is expected (a spec section or issue link).
        transformer: the onnxruntime graph transformer whose level the statement rests on (set by
            :func:`passcheck.cases.fusion.expect_fused`); where the installed onnxruntime runs it at no
            level up to the pass's, the statement is not that version's and is not checked
            (:mod:`passcheck.oracles.ort_levels`).
    """

    pass_id: str = "*"
    form: str = "*"
    no_op_types: tuple[str, ...] = ()
    output_shapes: Mapping[str, tuple[int | str, ...]] = dataclasses.field(default_factory=dict)
    reason: str = ""
    transformer: str = ""

    def applies(self, pass_id: str, form: str) -> bool:
        return self.pass_id in ("*", pass_id) and self.form in ("*", form)


@dataclasses.dataclass(frozen=True)
class Case:
    """A named family of forms of one computation.

    Attributes:
        id: ``family/name``, e.g. ``optional-input/conv-bn``; lower case, stable, typed by users.
        forms: form name → :class:`Form`; must contain ``common`` first.
        doc: what the case computes, what is uncommon and why it is valid (spec citation).
        opset: the default-domain opset every form imports.
        bindings: at least two binding maps (symbol → size); a case without symbols still
            gives two (empty) bindings, which then differ only by feed seed.
        passes: pass ids the case targets; empty means every default pass.
        tags: family tags for selection (``--case`` globs also match tags).
        feeds: custom feed function; default synthesizes feeds from the input annotations.
        expect: statements checked by the expectations oracle.
        min_onnx / max_onnx: onnx versions (inclusive / exclusive) in which the forms are valid;
            outside, the case is skipped with that reason.
        parity: which parity checks apply (``status``, ``ops``, ``precision``); forms that
            deliberately differ in annotation precision turn ``precision`` off.
        reference: fixed feeds and the outputs a source states for them (one run per feed set,
            instead of one per binding); None: feeds as above.
    """

    id: str
    forms: Mapping[str, Form]
    doc: str
    opset: int
    bindings: Sequence[Binding] = ({}, {})
    passes: Sequence[str] = ()
    tags: frozenset[str] = frozenset()
    feeds: FeedFn | None = None
    expect: Sequence[Expectation] = ()
    min_onnx: str | None = None
    max_onnx: str | None = None
    parity: frozenset[str] = frozenset({"status", "ops", "precision"})
    rtol: float | None = None
    atol: float | None = None
    reference: Reference | None = None

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise RegistryError(f"case id {self.id!r} must look like 'family/name' (lower case)")
        names = list(self.forms)
        if not names or names[0] != COMMON:
            raise RegistryError(f"case {self.id}: the first form must be {COMMON!r}, got {names}")
        if len(names) < 2:
            raise RegistryError(f"case {self.id}: needs at least one uncommon form besides 'common'")
        for n in names:
            if not _FORM.match(n):
                raise RegistryError(f"case {self.id}: bad form name {n!r}")
        if len(self.bindings) < 2:
            raise RegistryError(
                f"case {self.id}: needs at least two bindings (a symbolic dim is bound once per inference run, "
                "so one run cannot show a value that varies with it)"
            )
        if not self.doc.strip():
            raise RegistryError(f"case {self.id}: a docstring (what, why valid, citation) is required")
        object.__setattr__(self, "tags", frozenset(self.tags) | {self.family})

    @property
    def family(self) -> str:
        return self.id.split("/", 1)[0]

    def build(self, form: str) -> onnx.ModelProto:
        """Build one form. Raises KeyError for an unknown form name."""
        return self.forms[form].build()

    def skip_reason(self, onnx_version: str | None) -> str | None:
        """Why this case cannot run with the installed onnx, or None when it can."""
        from passcheck._versions import max_supported_opset, version_tuple

        if onnx_version is None:
            return "onnx is not installed"
        v = version_tuple(onnx_version)
        if self.min_onnx and v < version_tuple(self.min_onnx):
            return f"valid from onnx {self.min_onnx}; installed {onnx_version}"
        if self.max_onnx and v >= version_tuple(self.max_onnx):
            return f"valid before onnx {self.max_onnx}; installed {onnx_version}"
        top = max_supported_opset()
        if self.opset > top:
            return f"needs opset {self.opset}; onnx {onnx_version} knows up to {top}"
        return None

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "forms": list(self.forms),
            "opset": self.opset,
            "tags": sorted(self.tags),
            "passes": list(self.passes),
            "bindings": [dict(b) for b in self.bindings],
            "doc": self.doc.strip().splitlines()[0],
        }
