"""Judge one neighbour (a base changed by one variation, :mod:`.variation`) under one pass and keep the
findings the variation is to blame for; shrink such a finding; check that its saved case reproduces it.

A neighbour is used only once it is valid on its own (whether or not equivalent to its base): the onnx checker
accepts it (with ``full_check`` when the base passes it), it keeps the base's graph inputs and outputs, and
it runs under ``ort:disabled`` on its feeds (:func:`~passcheck.mutations.equivalence.original_runs`), and
onnx shape inference at its feeds' shapes raises nothing it does not raise on the base (:mod:`.fed_shapes`: a
constraint the symbols hid, which onnxruntime may not check either), and at those shapes it breaks no shape rule the
operator docs state that neither the checker nor inference enforces where the base does not
(:mod:`passcheck.oracles.text_shapes`, reason :data:`TEXT_RULE`). A neighbour that fails is dropped (item
status ``invalid-variation``, the reason recorded). Then the
neighbour alone is judged under the pass (:func:`passcheck.engine.evaluate`, one form), and so is the base
alone: a finding of the neighbour's pass cell whose (oracle, kind) the base does not show under the same
pass is the variation's. A neighbour equivalent to its base by the schema (:func:`.vary_equiv.equivalent`) is
also judged with it as a pair (:func:`.vary_equiv.pair`: the equivalence gate, then parity and acceptance), its
comparative findings the variation's too (marked so in their ``details``, the pair's status in
:attr:`.probe.Outcome.pair`). An ``input`` finding of the neighbour the base does not have (an annotation of
its that no longer holds, a documented domain left) means the neighbour is no valid form: dropped too.

A run-condition variant (:mod:`.vary_bindings`) is the base model itself under other bindings or feeds: the
same checks make it valid only where the base runs under them, and a binding variant of a case whose own
feed function ignores bindings is not applicable.

The neighbour's numeric oracle uses an absolute tolerance scaled to its own outputs (:func:`scaled_atol`):
a case's tolerance is chosen for the base's output magnitude, and a variation that makes the outputs larger
(a scale set to 1) would otherwise turn an approximate kernel's error, which grows with them, into a finding.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.hunt import (
    variation,
    vary_apart,
    vary_bindings,
    vary_defaults,
    vary_equiv,
    vary_inputs,
    vary_struct,
    vary_twin,
    vary_twin_output,
    vary_zero_sign,
)
from passcheck.hunt.probe import COMMON, Outcome, Setting
from passcheck.records import INPUT

if TYPE_CHECKING:
    import onnx

    from passcheck.records import Finding

#: Item status of a neighbour dropped as invalid (see module docs).
INVALID = "invalid-variation"


def setting_for(setting: Setting, form: str, neighbour: onnx.ModelProto | None = None) -> Setting:
    """``setting`` for the neighbour of ``form``, as its family's entry of :data:`SETTINGS` makes it (a family
    without one runs under the base's ``setting``: the value, shape, attr and structural kinds change the
    model only)."""
    make = SETTINGS.get(variation.family(form))
    return setting if make is None else make(setting, form, neighbour)


def _run_condition(setting: Setting, form: str, neighbour: onnx.ModelProto | None) -> Setting:
    """A run-condition kind sets its bindings or feeds (:func:`.vary_bindings.setting_for`; its neighbour is the
    base model unchanged); ``setting`` when no neighbour is given."""
    if neighbour is None:
        return setting
    return vary_bindings.setting_for(
        setting, neighbour, variation.kind(form)[len(variation.PREFIX) :], form.partition("@")[2]
    )


def _elem_setting(setting: Setting, form: str, neighbour: onnx.ModelProto | None) -> Setting:
    """An elem kind casts each of a case's own feeds whose graph input the neighbour types otherwise
    (``neighbour``'s, or every float32 feed when not given) to that type, integers rounded into a small range
    (:func:`passcheck.hunt.elem_groups.cast_values`), and raises a case's own tolerance to the moved type's
    (:func:`_tolerances`)."""
    from passcheck.hunt.elem_groups import cast_values

    to = variation.ELEM_KINDS[variation.kind(form)[len(variation.PREFIX) :]]
    if setting.feeds is None:
        return dataclasses.replace(setting, **_tolerances(setting, to))
    if neighbour is None:
        wanted = None
    else:
        wanted = {v.name: v.type.tensor_type.elem_type for v in neighbour.graph.input if v.type.HasField("tensor_type")}
    own = setting.feeds

    def feeds(binding, seed):
        out = {}
        for n, a in own(binding, seed).items():
            if wanted is None:
                out[n] = cast_values(a, to) if getattr(a, "dtype", None) == "float32" else a
            else:
                out[n] = _cast_to(a, wanted.get(n))
        return out

    return dataclasses.replace(setting, feeds=feeds, **_tolerances(setting, to))


def _input_setting(setting: Setting, form: str, neighbour: onnx.ModelProto | None) -> Setting:
    """An input kind feeds the declared shape it writes (:func:`.vary_inputs.setting`)."""
    k, _, site = form.partition("@")
    if vary_apart.is_kind(k[len(variation.PREFIX) :]):  # a new input: its symbols bound, its feed given
        return vary_apart.setting(setting, neighbour)
    ones = vary_inputs.declared_ones(neighbour) if neighbour is not None else {}  # inputs declared with the site's
    return vary_inputs.setting(setting, k[len(variation.PREFIX) :], site, ones)


#: Variation family → how its neighbour's setting is made from the base's (``setting, form, neighbour``).
def _default_setting(setting: Setting, form: str, neighbour: onnx.ModelProto | None) -> Setting:
    """``default-fed`` feeds its overridable default another value in every run (:func:`.vary_defaults.setting`);
    ``setting`` when no neighbour is given."""
    if neighbour is None:
        return setting
    return vary_defaults.setting(setting, neighbour, form.partition("@")[2])


def saved(setting: Setting, model: onnx.ModelProto, form: str) -> dict:
    """The run conditions a saved case of ``form``'s neighbour of ``model`` needs (:func:`.vary_bindings.saved`,
    :func:`.vary_defaults.saved`, an ``input-apart`` neighbour's bindings of its new symbols): ``bindings`` /
    ``feeds`` keywords of the case module, empty for a model-only kind; a chain's are its first link's (the second
    is model-only: :mod:`.chain`)."""
    if (two := variation.links(form)) is not None:
        return saved(setting, model, two[0])
    if vary_apart.is_kind(variation.kind(form)[len(variation.PREFIX) :]):  # the new symbols' sizes
        built = variation.build(model, form)
        return {"bindings": vary_apart.setting(setting, built[0]).bindings} if built else {}
    return vary_bindings.saved(setting, model, form) or vary_defaults.saved(setting, model, form)


SETTINGS: dict[str, Callable[[Setting, str, onnx.ModelProto | None], Setting]] = {
    "default": _default_setting,
    "bind": _run_condition,
    "feed": _run_condition,
    "elem": _elem_setting,
    "input": _input_setting,
}


def _tolerances(setting: Setting, to: int) -> dict[str, float]:
    """A case's own ``rtol``/``atol`` raised to the numeric oracle's defaults for ``to`` (float16, bfloat16:
    :data:`passcheck.oracles.numeric.TOLERANCES`): a case's tolerance is chosen for its float32 outputs, and
    it replaces the dtype's default (:func:`~passcheck.oracles.numeric.tolerance`). Integer outputs are
    compared exactly whatever the tolerance."""
    from onnx import helper

    from passcheck.oracles.numeric import TOLERANCES

    np_name = "bfloat16" if to == 16 else helper.tensor_dtype_to_np_dtype(to).name
    rtol, atol = TOLERANCES.get(np_name, (None, None))
    out = {}
    if setting.rtol is not None and rtol is not None:
        out["rtol"] = max(setting.rtol, rtol)
    if setting.atol is not None and atol is not None:
        out["atol"] = max(setting.atol, atol)
    return out


def _cast_to(a, elem: int | None):
    from onnx import helper

    from passcheck.hunt.elem_groups import cast_values

    if not elem or getattr(a, "dtype", None) is None or a.dtype == helper.tensor_dtype_to_np_dtype(elem):
        return a
    return cast_values(a, elem)


def invalid(
    setting: Setting, base: onnx.ModelProto, neighbour: onnx.ModelProto, executor, form: str = ""
) -> str | None:
    """Why ``neighbour`` is no valid model (checker, interface, does not run under ``ort:disabled`` on its
    feeds, breaks a schema's shape constraint at its feeds' shapes where the base does not), or None. The
    interface is the base's: its graph inputs, its graph outputs in order, then as many more as ``form``'s kind
    appends (:func:`.vary_struct.added`, :func:`.vary_twin.added`). A checker whose worker died is a reason too
    (the neighbour is left out either way)."""
    from passcheck.errors import PasscheckError
    from passcheck.mutations.equivalence import original_runs
    from passcheck.oracles.validity import Checker

    if (two := variation.links(form)) is not None:  # a chain: its first neighbour against the base, then itself
        first = variation.build(base, two[0])
        if first is None:
            return f"{two[0]}: the first neighbour does not build"
        fset = setting_for(setting, two[0], first[0])  # its feeds, which the second link keeps (.chain)
        if why := invalid(fset, base, first[0], executor, two[0]):
            return f"the first neighbour {two[0]}: {why}"
        return invalid(fset, first[0], neighbour, executor, two[1])
    checker = Checker(executor)
    why = checker(neighbour, full_check=False)
    if why is None and (strict := checker(neighbour, full_check=True)) is not None:
        why = strict if checker(base, full_check=True) is None else None  # the base fails it too: not the change's
    if why is not None:
        return f"the onnx checker rejects it: {str(why).splitlines()[0]}"
    if interface_changed(base, neighbour, form):
        return "graph inputs/outputs changed"
    feed_list = setting.feed_list(neighbour)
    try:
        original_runs(neighbour, feed_list, getattr(executor, "run_model", None))
    except PasscheckError as exc:
        return str(exc)
    return _fed_shapes_break(base, neighbour, feed_list)


def interface_changed(base: onnx.ModelProto, neighbour: onnx.ModelProto, form: str) -> bool:
    """Whether ``neighbour`` (variation ``form`` of ``base``) has other graph inputs than ``base`` (besides the one
    ``input-apart`` adds, :mod:`.vary_apart`), or other outputs than the base's, in order, followed by as many more
    as ``form``'s kind appends."""
    from passcheck.mutations.equivalence import _interface

    if (two := variation.links(form)) is not None:  # each link against the model it changes
        first = variation.build(base, two[0])
        return (
            first is None or interface_changed(base, first[0], two[0]) or interface_changed(first[0], neighbour, two[1])
        )
    (ins, outs), (n_ins, n_outs) = _interface(base), _interface(neighbour)
    k, _, site = form.partition("@")
    if vary_apart.is_kind(k[len(variation.PREFIX) :]):  # the one input it adds
        new = vary_apart.added(base, neighbour)
        n_ins = [n for n in n_ins if n not in new] if len(new) == 1 else n_ins
    return (
        ins != n_ins
        or n_outs[: len(outs)] != outs
        or len(n_outs) - len(outs) != _added(base, k[len(variation.PREFIX) :], site)
    )


def _added(base: onnx.ModelProto, kind: str, site: str) -> int:
    """How many graph outputs neighbour ``kind@site`` of ``base`` appends (:mod:`.vary_struct`, :mod:`.vary_twin`,
    :mod:`.vary_twin_output`, :mod:`.vary_zero_sign`)."""
    if vary_twin.is_kind(kind):
        return vary_twin.added(base, site)
    if vary_zero_sign.is_kind(kind):
        return vary_zero_sign.added(base, kind, site)
    return vary_struct.added(kind, site, base) + vary_twin_output.added(kind, site)


def _fed_shapes_break(base: onnx.ModelProto, neighbour: onnx.ModelProto, feed_list) -> str | None:
    """Why ``neighbour`` breaks a schema's shape constraint at the shapes of one of its feeds (:mod:`.fed_shapes`)
    where ``base`` on the same feeds does not (an inference that rejects both is not the change's), or a shape rule
    no tool enforces (:func:`.fed_shapes.text_break`) that ``base`` at its own declared shapes does not, or None."""
    from passcheck.hunt import fed_shapes

    for i, feeds in enumerate(feed_list):
        if (why := fed_shapes.error(neighbour, feeds)) is not None and fed_shapes.error(base, feeds) is None:
            return f"shape inference at the feeds' shapes (binding {i}) rejects it: {why}"
        # the base as it declares itself: an input kind feeds the shapes it declares, which the base's do not state
        if (why := fed_shapes.text_break(neighbour, feeds)) is not None and not fed_shapes.text_break(base, None):
            return f"{TEXT_RULE} (binding {i}): {why}"
    return None


#: The reason's opening for a neighbour that breaks a shape rule the docs state and no tool enforces: the variation
#: made a model outside the spec (passcheck's fault, not a pass's; :mod:`passcheck.oracles.text_shapes`).
TEXT_RULE = "passcheck fault: the neighbour breaks a shape rule the operator docs state and no tool checks"


def magnitude(runs) -> float:
    """Largest finite |x| over the float graph outputs of ``runs`` (:class:`~passcheck.runtime.RunResult`
    list); 0.0 when there is none. Non-tensor outputs (sequences, optionals) and non-float tensors are left out."""
    import numpy as np

    top = 0.0
    for r in runs:
        for v in r.outputs.values():
            # a tensor output only (a sequence or optional output is a list or None); rank 0 included
            if not isinstance(v, np.ndarray | np.generic) or np.asarray(v).dtype.kind != "f":
                continue
            a = np.asarray(v).ravel()
            finite = a[np.isfinite(a)]
            if finite.size:
                top = max(top, float(np.abs(finite).max()))
    return top


def scaled_atol(base: Setting, mine: Setting, base_model: onnx.ModelProto, neighbour: onnx.ModelProto, executor):
    """The absolute tolerance (``Setting.atol``) the neighbour's numeric oracle uses: the case's, or when it
    sets none the largest default of its float outputs' dtypes (:func:`passcheck.oracles.numeric.tolerance`),
    times the ratio of the neighbour's output magnitude to the base's (:func:`magnitude` of their runs
    under ``ort:disabled`` on their feeds, ``base`` and ``mine`` the base's and the neighbour's settings)
    when that ratio is above 1, whether or not the case sets an ``rtol`` (an absolute tolerance is in the
    outputs' units: an approximate kernel's error grows with the block's magnitude, not each element's, so a
    near-zero element of a larger block needs it). ``mine.atol`` unchanged when the outputs are not larger
    or the base's are all 0.

    Raises:
        PasscheckError: a model does not run on its feeds (:func:`invalid` checked the neighbour before).
    """
    from passcheck.mutations.equivalence import original_runs
    from passcheck.oracles.numeric import output_dtypes, tolerance

    runner = getattr(executor, "run_model", None)
    theirs = magnitude(original_runs(base_model, base.feed_list(base_model), runner))
    ours = magnitude(original_runs(neighbour, mine.feed_list(neighbour), runner))
    if theirs <= 0.0 or ours <= theirs:
        return mine.atol
    floats = [d for d in output_dtypes(neighbour).values() if d is not None and d.kind == "f"]
    atol = mine.atol if mine.atol is not None else max((tolerance(d)[1] for d in floats), default=None)
    return None if atol is None else atol * ours / theirs


def judge(
    setting: Setting,
    base: onnx.ModelProto,
    form: str,
    pass_id: str,
    executor,
    base_cells: Callable[[], list] | None = None,
) -> Outcome:
    """Build ``form``'s neighbour of ``base``, check it (see module docs), judge it and the base under
    ``pass_id``; ``done`` with the variation's findings, ``not-applicable``, or :data:`INVALID`.
    ``base_cells``: the base's cells under ``pass_id`` when they are kept (not evaluated again). A chained
    neighbour (:mod:`.chain`) is its second link judged with its first neighbour as the base (that neighbour checked
    valid against ``base`` first), under the first neighbour's setting (:func:`setting_for`: a first link that
    declares the inputs feeds what it declares). The outcome's ``wrote``: the op types the pass wrote on the
    neighbour and on neither the base nor the neighbour as it was (:func:`wrote`)."""
    from passcheck.engine import Subject, evaluate
    from passcheck.errors import PasscheckError
    from passcheck.hunt.noise import classify

    if (two := variation.links(form)) is not None:  # a chain: its second link judged on its first neighbour
        first = variation.build(base, two[0])
        if first is None:
            return Outcome("not-applicable", reason=f"{two[0]}: the site is not in this model")
        fset = setting_for(setting, two[0], first[0])  # a first link declaring the inputs brings its feeds
        if why := invalid(fset, base, first[0], executor, two[0]):
            return Outcome(INVALID, reason=f"the first neighbour {two[0]}: {why}")
        return judge(fset, first[0], two[1], pass_id, executor)
    built = variation.build(base, form)
    if built is None:
        return Outcome("not-applicable", reason=f"{form}: the site is not in this model")
    neighbour = built[0]
    nset = setting_for(setting, form, neighbour)
    if variation.family(form) == "bind" and (why := _unfit(nset, neighbour)):
        return Outcome("not-applicable", reason=f"{form}: {why}")
    if why := invalid(nset, base, neighbour, executor, form):
        return Outcome(INVALID, reason=why)

    def cells_of(model, s: Setting) -> list:
        subject = Subject(
            id=s.subject_id, forms={COMMON: model}, bindings=s.bindings, feeds=s.feeds, rtol=s.rtol, atol=s.atol
        )
        return evaluate(subject, [pass_id], executor=executor)

    try:
        nset = dataclasses.replace(nset, atol=scaled_atol(setting, nset, base, neighbour, executor))
        mine = cells_of(neighbour, nset)
        theirs = base_cells() if base_cells is not None else cells_of(base, setting)
    except PasscheckError as exc:
        return Outcome(INVALID, reason=str(exc))
    own = {(c.pass_id, f.oracle, f.kind) for c in theirs for f in c.findings}
    broken = [f for c in mine if c.pass_id == INPUT for f in c.findings if (INPUT, f.oracle, f.kind) not in own]
    if broken:
        return Outcome(
            INVALID, reason=f"the neighbour is no valid form: {broken[0].oracle} {broken[0].kind}: {broken[0].message}"
        )
    found = blamed(mine, own)
    paired = None
    if vary_equiv.equivalent(base, form) is not None:  # also a pair: the comparative oracles apply
        paired, comparative = vary_equiv.pair(setting, base, form, neighbour, pass_id, executor)
        seen = {(f.pass_id, f.oracle, f.kind) for f in found}
        found += [f for f in comparative if (f.pass_id, f.oracle, f.kind) not in seen]
    return Outcome(
        "done", found, unavailable=classify(mine), pair=paired, wrote=wrote(mine, theirs, neighbour, pass_id)
    )


def wrote(mine: list, theirs: list, neighbour: onnx.ModelProto, pass_id: str) -> list[str]:
    """The op types (``domain::op`` outside the default domain, as ``CellResult.ops_after``) in the output of
    ``pass_id`` on the neighbour (its cells ``mine``) that neither its output on the base (``theirs``) nor the
    neighbour itself computes (:func:`passcheck.oracles._context.op_counts`): an op the pass wrote only because of
    the change (a fusion the neighbour made match, ``com.microsoft::QGemm`` on a QDQ Gemm), sorted; empty when a
    cell is missing."""
    after = [c.ops_after for c in mine if c.pass_id == pass_id]
    before = [c.ops_after for c in theirs if c.pass_id == pass_id]
    if not after or not before:
        return []
    from passcheck.oracles._context import op_counts

    return sorted(set().union(*after) - set().union(*before) - set(op_counts(neighbour)))


def _unfit(setting: Setting, model: onnx.ModelProto) -> str | None:
    from passcheck.errors import PasscheckError

    try:
        return vary_bindings.unfit(setting, model)
    except PasscheckError:  # feeds that cannot be made: invalid() says so
        return None


def blamed(cells, own: set[tuple[str, str, str]]) -> list[Finding]:
    """Findings of the neighbour's pass cells whose (pass, oracle, kind) the base does not show, each the
    representative of its root cause (:func:`passcheck.report.rootcause.root_causes`)."""
    from passcheck.report.rootcause import root_causes

    explained = {id(f) for rc in root_causes(cells) for f in rc.others}
    return [
        f
        for c in cells
        if c.pass_id != INPUT
        for f in c.findings
        if not f.expected and id(f) not in explained and (c.pass_id, f.oracle, f.kind) not in own
    ]


@dataclasses.dataclass
class Shrunk:
    """The smallest base (``common``) whose neighbour (``neighbour``, variation ``form``) still shows the finding."""

    common: onnx.ModelProto
    neighbour: onnx.ModelProto
    form: str
    finding: Finding
    finished: bool
    tests: int


class Shrinker:
    """Fewest base nodes for one variation finding (``pass_id``, ``oracle``, ``kind``): nodes are cut from the
    base with :func:`passcheck.reduce.cut.cut` and the variation is applied again to the cut base (its site
    labels name values and named nodes, which cuts keep), each candidate judged as :func:`judge` does.
    Bounded by ``deadline`` (``time.monotonic()``) and ``max_tests`` candidate checks."""

    def __init__(
        self, setting: Setting, pass_id: str, oracle: str, kind: str, executor, deadline: float, max_tests: int = 80
    ):
        self.setting, self.pass_id, self.oracle, self.kind = setting, pass_id, oracle, kind
        self.ex, self.deadline, self.max_tests = executor, deadline, max_tests
        self.tests = 0
        self.last: tuple | None = None

    def holds(self, base: onnx.ModelProto, form: str) -> bool:
        if self.tests >= self.max_tests or time.monotonic() > self.deadline:
            raise TimeoutError
        self.tests += 1
        outcome = judge(self.setting, base, form, self.pass_id, self.ex)
        hit = next(
            (f for f in outcome.findings if (f.pass_id, f.oracle, f.kind) == (self.pass_id, self.oracle, self.kind)),
            None,
        )
        if hit is not None:
            self.last = (base, form, hit)
        return hit is not None

    def shrink(self, base: onnx.ModelProto, form: str) -> Shrunk | None:
        """The smallest base showing the finding, or None: ``base`` itself does not show it, or the deadline or the
        test bound came before its first check (the caller saves the finding unshrunk)."""
        from passcheck.mutations.forms import named
        from passcheck.reduce.cut import constant_values, cut, key, value_types
        from passcheck.reduce.ddmin import ddmin

        finished = True
        base = named(base)
        try:
            if not self.holds(base, form):
                return None
            keys = [key(n) for n in base.graph.node]
            if len(keys) > 1:
                types, consts = self._call(value_types, base), self._call(constant_values, base)

                def holds(keep: list[str]) -> bool:
                    cand = cut(base, set(keep), types, consts)
                    return cand is not None and self.holds(cand, form)

                ddmin(keys, holds, self.deadline)
        except TimeoutError:
            finished = False
        if self.last is None:  # out of time or tests before the first check
            return None
        b, f, hit = self.last
        return Shrunk(b, variation.build(b, f)[0], f, hit, finished, self.tests)

    def _call(self, fn, model) -> dict:
        try:
            return self.ex.call(fn, model)
        except Exception:  # noqa: BLE001 - without types / constants fewer cuts are valid: same rules
            return {}


def reproduces(cells: list, pass_id: str, oracle: str, kind: str) -> bool:
    """Whether a saved neighbour case's ``cells`` show the finding on a pass cell."""
    return any(
        (c.pass_id, f.oracle, f.kind) == (pass_id, oracle, kind)
        for c in cells
        if c.pass_id != INPUT
        for f in c.findings
    )
