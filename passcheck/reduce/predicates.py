"""Does a candidate pair still show the finding? Two answers, one contract: ``holds(a, b) -> bool``
with ``a`` the form the finding compares against (``other_form``; None for a finding on one form)
and ``b`` the finding's form, both ModelProtos.

- :class:`OrtParity`, for ``ort:basic|extended|all`` missed optimizations (fast: two onnxruntime
  sessions): both forms pass the full onnx checker (in the worker: a candidate it dies on does not
  hold), onnxruntime at the level removes more nodes
  of one of the finding's kept op types from ``a`` than from ``b`` (or, naming none, rewrites them
  into different new op types), and they compute equal outputs on synthesized feeds.
- :class:`EngineCheck`, for any finding (onnx shape inference, onnxscript, version converter,
  ``cmd:`` passes, …): the pair goes through :func:`passcheck.engine.evaluate` like a
  ``check``/``run`` subject (the forms' own ``input`` judgement, then the pass), and it holds when
  a finding with the same :func:`~passcheck.reduce.signature.signature` comes out and the input
  cells show nothing the unreduced pair did not (forms still valid, running, equal).

Sessions and passes run in the isolated worker (``executor``: an
:class:`~passcheck.passes.isolation.IsolatedExecutor`).
"""

from __future__ import annotations

from collections.abc import Sequence

from passcheck.reduce.signature import shown


class OrtParity:
    """See module docs. ``level``: ``basic`` / ``extended`` / ``all``; ``kept_ops``: the finding's ``kept_op_types``."""

    def __init__(self, level: str, kept_ops: Sequence[str], executor):
        from passcheck.oracles.validity import Checker

        self.level, self.kept, self.ex = level, list(kept_ops), executor
        self.checker = Checker(executor)

    def __call__(self, a, b) -> bool:
        from passcheck.attribution.ort import optimized_ops
        from passcheck.errors import WorkerDied
        from passcheck.oracles.parity import op_counts

        if (
            a is None or b is None or self.checker(a) or self.checker(b)
        ):  # an invalid cut (or one the checker dies on) is not a candidate
            return False
        try:
            oa, ob = self.ex.call(optimized_ops, a, self.level, []), self.ex.call(optimized_ops, b, self.level, [])
        except (WorkerDied, Exception):  # noqa: BLE001 - a session error is not the signature
            return False
        ba, bb = op_counts(a), op_counts(b)
        if self.kept:
            differs = any(ba.get(op, 0) - oa.get(op, 0) > bb.get(op, 0) - ob.get(op, 0) for op in self.kept)
        else:
            differs = sorted(set(oa) - set(ba)) != sorted(set(ob) - set(bb))
        return differs and self._equal(a, b)

    def _equal(self, a, b) -> bool:
        import numpy as np

        from passcheck.engine import feeds_for
        from passcheck.runtime import default_bindings

        try:
            feeds = feeds_for(a, "reduce", default_bindings(a))[0]
        except Exception:  # noqa: BLE001 - inputs feeds cannot be made for
            return False
        ra, rb = self.ex.run_model(a, feeds), self.ex.run_model(b, feeds)
        if ra.error or rb.error or list(ra.outputs) != list(rb.outputs):
            return False
        return all(np.allclose(ra.outputs[k], rb.outputs[k], rtol=1e-3, atol=1e-4, equal_nan=True) for k in ra.outputs)


class EngineCheck:
    """See module docs. A one-form finding's pair may still carry ``a`` (a rewrite's base): it is
    then judged beside ``b`` as ``common``, as ``check --mutations`` did.

    Args:
        finding: the Finding to keep (its case seeds the feeds; its form and ``other_form`` name the forms).
        executor: runs passes and models (an IsolatedExecutor).
        rtol, atol, parity: the case's tolerances and parity checks (None / default: passcheck's).
    """

    def __init__(
        self,
        finding,
        executor,
        *,
        rtol: float | None = None,
        atol: float | None = None,
        parity: frozenset[str] | None = None,
    ):
        self.finding, self.ex, self.rtol, self.atol, self.parity = finding, executor, rtol, atol, parity
        self.allowed: set | None = None  # input findings the unreduced pair shows (set by the first call)

    def __call__(self, a, b) -> bool:
        from passcheck.engine import INPUT, Subject, evaluate
        from passcheck.errors import PasscheckError
        from passcheck.runtime import default_bindings

        f = self.finding
        other = f.details.get("other_form")
        if b is None or (other and a is None):
            return False
        forms = {other or "common": a, f.form: b} if a is not None and f.form != (other or "common") else {f.form: b}
        extra = {"parity": self.parity} if self.parity is not None else {}
        try:
            subject = Subject(
                id=f.case,
                forms=forms,
                bindings=default_bindings(next(iter(forms.values()))),
                rtol=self.rtol,
                atol=self.atol,
                **extra,
            )
            cells = evaluate(subject, [f.pass_id], executor=self.ex)
        except (PasscheckError, Exception):  # noqa: BLE001 - a cut the engine refuses (interfaces differ, no feeds): not a candidate
            return False
        inputs = {(c.form, x.oracle, x.kind) for c in cells if c.pass_id == INPUT for x in c.findings if not x.expected}
        if self.allowed is None:
            self.allowed = inputs
        if not inputs <= self.allowed:
            return False
        return shown(f, [x for c in cells if c.pass_id == f.pass_id for x in c.findings])


def predicate_for(finding, executor, **case_settings):
    """:class:`OrtParity` for an onnxruntime optimizer missed optimization, else :class:`EngineCheck`."""
    from passcheck.passes.ort_optimizer import LEVELS

    level = finding.pass_id.split(":", 1)[1] if finding.pass_id.startswith("ort:") else ""
    if level in LEVELS and finding.oracle == "parity" and finding.kind == "missed-optimization":
        return OrtParity(level, finding.details.get("kept_op_types") or [], executor)
    return EngineCheck(finding, executor, **case_settings)
