"""What ``check`` and ``compare`` decide before any cell runs, for every front door.

The CLI handlers translate arguments into these calls and render what comes back: the
refusals (exit 2, one line: :class:`~passcheck.errors.PasscheckError`), the equivalence gate of
``compare``, the decision to check a model alone instead of its mutants, the mutants themselves,
and the repro command text every finding carries.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from passcheck.api import subject_id
from passcheck.errors import ModelLoadError, PasscheckError

if TYPE_CHECKING:
    import onnx

#: ``--max-sites`` default: single-site forms tried per rewrite.
DEFAULT_MAX_SITES = 1


def check_head(
    model_path: str,
    bind: Mapping[str, int],
    feeds_path: str | None = None,
    synthesize_feeds: bool = False,
    unknown_dim_param: str | None = None,
) -> str:
    """``passcheck check MODEL`` with the flags that fix its feeds (the start of every repro command; paths
    absolute, see :func:`passcheck.modelio.command_path`)."""
    from passcheck.modelio import command_path

    return (
        f"passcheck check {command_path(model_path)}"
        + "".join(f" --bind {s}={n}" for s, n in bind.items())
        + (f" --feeds {command_path(feeds_path)}" if feeds_path else "")
        + (" --synthesize-feeds" if synthesize_feeds else "")
        + (f" --unknown-dim-param {shlex.quote(unknown_dim_param)}" if unknown_dim_param else "")
    )


def check_repro(head: str, mutations: bool, max_sites: int, depth: int, form_ids: Sequence[str]) -> str:
    """The repro command of a ``check`` run (``{pass}`` to fill in)."""
    extra = (
        (" --mutations" if mutations else "")
        + (f" --max-sites {max_sites}" if mutations and max_sites != DEFAULT_MAX_SITES else "")
        + (f" --depth {depth}" if depth != 1 else "")
        + "".join(f" --form {shlex.quote(f)}" for f in form_ids)
    )
    return f"{head}{extra} --pass {{pass}}"


def form_repro(head: str, form: str) -> str:
    """The command (``{pass}`` to fill in) that checks the one mutant ``form`` against the model:
    ``head`` (``passcheck check MODEL`` and its feed flags) ``--mutations --form FORM``, with
    ``--max-sites 0`` for a bare rewrite id (every site at once, no single-site forms besides)."""
    bare = "@" not in form and "+" not in form
    return f"{head} --mutations --form {shlex.quote(form)}{' --max-sites 0' if bare else ''} --pass {{pass}}"


def refuse_mutation_flags(mutations: bool, form_ids: Sequence[str], max_sites: int | None, depth: int) -> None:
    """Raises PasscheckError: a mutation flag given without ``--mutations``."""
    for flag, given in (("--form", form_ids), ("--max-sites", max_sites is not None), ("--depth", depth != 1)):
        if given and not mutations:
            raise PasscheckError(f"{flag} needs --mutations")


def precheck(path: str, model: onnx.ModelProto, checker_error: Callable) -> str | None:
    """Refuse (exit 2) a model that neither the onnx checker nor onnxruntime accepts. A model the
    checker rejects but onnxruntime loads is checked: the ``input`` cell reports the tools'
    disagreement (``validity-disagreement``). ``checker_error``: how the checker runs (a
    :class:`~passcheck.oracles.validity.Checker`). Returns the checker's message, or None."""
    from passcheck.modelio import check_runnable

    check_runnable(model, path)
    if (err := checker_error(model)) and (ort_err := _ort_load_error(model)):
        raise ModelLoadError(
            f"{path}: the onnx checker rejects this model: {err}; onnxruntime cannot load it either "
            f"({ort_err}); fix the model (onnx.checker.check_model(model, full_check=True) shows the same)"
        )
    return err


def _ort_load_error(model: onnx.ModelProto) -> str | None:
    """The last line onnxruntime prints when it cannot create a session for ``model`` (in a child
    process: a model that crashes onnxruntime costs only that child), or None when it loads."""
    import subprocess
    import sys

    from passcheck.passes.command import headline

    code = (
        "import sys, onnxruntime as ort\n"
        "ort.InferenceSession(sys.stdin.buffer.read(), providers=['CPUExecutionProvider'])"
    )
    try:
        p = subprocess.run(
            [sys.executable, "-c", code], input=model.SerializeToString(), capture_output=True, timeout=600
        )
    except subprocess.TimeoutExpired:
        return "creating a session did not finish in 600 s"
    return None if p.returncode == 0 else (headline(p.stderr.decode(errors="replace")) or f"exit {p.returncode}")


def alone_because(model: onnx.ModelProto, rejected: str | None, checker) -> str | None:
    """Why ``check --mutations`` checks the model alone (no rewrite of it can be verified or
    built), or None when its mutants can be built."""
    from passcheck.oracles.validity import CheckerDied

    if rejected and (plain := checker(model, full_check=False)):
        why = f"{plain} on this model" if isinstance(plain, CheckerDied) else "the onnx checker rejects this model"
        return f"{why}, so no rewrite of it can be verified"
    if died := checker.inference_died(model):
        return f"{died} on this model, so no rewrite of it can be built"
    return None


def none_applies(model: onnx.ModelProto, form_ids: Sequence[str]) -> str:
    """``no rewrite applies to this model``, and for each rewrite named in ``form_ids`` (``ID``,
    ``ID@SITE``, ``A+B``) where it applies (its catalogue row's ``sites``, docs/spellings.md) and the
    default-domain opset the model imports, so a user who named a form learns why it did not fit."""
    from passcheck.mutations.catalogue import freedoms

    names = list(dict.fromkeys(p.split("@", 1)[0] for f in form_ids for p in f.split("+")))
    if not names:
        return "no rewrite applies to this model"
    where = {r: f.sites.rstrip(".") for f in freedoms() for r in f.rewrites if f.sites}
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    told = "; ".join(f"{n} applies to: {where[n]}" for n in names if n in where)
    return f"no rewrite applies to this model (this model imports opset {opset}){'; ' + told if told else ''}"


def site_ranking():
    """The :class:`~passcheck.mutations.site_ranking.Ranking` a site budget keeps first: the
    coverage map's (``passcheck.coverage.op_weights()``: op type → weight) when it offers one and
    has a map here, else the op types onnxruntime's transformer and onnxscript's rule names spell."""
    from passcheck.mutations import site_ranking as ranking

    try:
        from passcheck.coverage import op_weights  # the seam for the coverage map (optional)
    except ImportError:
        return ranking.default()
    try:
        return ranking.Ranking(dict(op_weights()), "the coverage map (op types of bases triggering catalogue entries)")
    except Exception:  # noqa: BLE001 - no map computed here: the tools' own names
        return ranking.default()


def mutants(
    model: onnx.ModelProto,
    form_ids: Sequence[str],
    bind: Mapping[str, int],
    name: str,
    feeds=None,
    runner=None,
    max_sites: int = 0,
    depth: int = 1,
    checker=None,
    unverified: dict[str, str] | None = None,
    on_built: Callable | None = None,
    on_verified: Callable | None = None,
    rank: Callable | None = None,
    budget: dict[str, tuple[int, int, int]] | None = None,
    refused: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Every form that applies (each rewrite at every site, at up to ``max_sites`` single sites,
    and pairs at ``depth`` 2), each verified equivalent on the feeds the run will use (seeded by
    the run's subject id; models run by ``runner`` and checked by ``checker``, in the isolation
    worker): form id → (mutant, Applied). A mutant the checker's worker dies on is left out and
    named in ``unverified`` (form → why). ``rank``, ``budget``: the site ranking a cut keeps first
    and what the cut let through (see :func:`~passcheck.mutations.registry.iter_mutants`)."""
    from passcheck.mutations.subject import feeds_for, verified_mutants
    from passcheck.runtime import default_bindings

    sid = subject_id(name)
    return verified_mutants(
        model,
        form_ids or None,
        feeds or feeds_for(model, sid, default_bindings(model, bind)),
        sid,
        runner,
        on_built=on_built,
        on_verified=on_verified,
        max_sites=max_sites,
        depth=depth,
        checker=checker,
        unverified={} if unverified is None else unverified,
        rank=rank,
        budget=budget,
        refused=refused,
    )


def compare_plan(
    path_a: str, path_b: str, a: onnx.ModelProto, b: onnx.ModelProto, bind: Mapping[str, int]
) -> tuple[str, str, str, str, dict[str, int]]:
    """Refuse two models that cannot be two forms of one computation, put ``b``'s outputs in
    ``a``'s order; (subject name, form name of a, of b, repro command, bindings). The bindings are ``bind``
    plus, for each symbolic dim of ``a``'s inputs that ``b`` states as a number, that number: feeds are
    synthesized from ``a``'s declarations and must satisfy ``b``'s too (IR.md §Static tensor shapes).

    Raises:
        PasscheckError: other input or output names; a same-named input of another elem type or rank;
            an input dim both state as different numbers, or that ``b`` states as a number where ``bind`` or
            another dim of ``b`` gives ``a``'s symbol another size.
    """
    from pathlib import Path

    from passcheck.modelio import command_path, form_names
    from passcheck.runtime import runtime_inputs

    ins = [sorted(v.name for v in runtime_inputs(m)) for m in (a, b)]
    outs = [sorted(v.name for v in m.graph.output) for m in (a, b)]
    if ins[0] != ins[1] or outs[0] != outs[1]:
        raise PasscheckError(
            f"{path_b}: inputs {ins[1]} / outputs {outs[1]} do not match {path_a}'s {ins[0]} / "
            f"{outs[0]}; compare needs the same input and output names"
        )
    _same_input_types(path_a, path_b, a, b)
    pinned = _pinned_bindings(path_a, path_b, a, b, bind)
    _order_outputs_like(b, a)
    name_a, name_b = form_names(path_a, path_b)
    extra = "".join(f" --bind {s}={n}" for s, n in bind.items())
    repro = f"passcheck compare {command_path(path_a)} {command_path(path_b)}{extra} --pass {{pass}}"
    return Path(path_a).stem, name_a, name_b, repro, pinned


def _pinned_bindings(path_a: str, path_b: str, a, b, bind: Mapping[str, int]) -> dict[str, int]:
    """``bind`` plus ``S: n`` for each input dim that ``a`` names ``S`` and ``b`` states as ``n``; refuse a
    dim the two state as different numbers, or a symbol that would need two sizes (ranks already agree)."""
    from passcheck.runtime import runtime_inputs

    def dims(vi) -> list:
        tt = vi.type.tensor_type
        if not vi.type.HasField("tensor_type") or not tt.HasField("shape"):
            return []
        return [d.dim_value if d.HasField("dim_value") else d.dim_param or None for d in tt.shape.dim]

    pinned = dict(bind)
    in_b = {v.name: dims(v) for v in runtime_inputs(b)}
    for va in runtime_inputs(a):
        for axis, (da, db) in enumerate(zip(dims(va), in_b.get(va.name, []))):
            if not isinstance(db, int):
                continue
            if isinstance(da, int) and da != db or isinstance(da, str) and pinned.get(da, db) != db:
                given = da if isinstance(da, int) else f"{da!r} = {pinned[da]}"
                raise PasscheckError(
                    f"{path_b}: input {va.name!r} axis {axis} is {db} where {path_a}'s is {given}; compare needs "
                    "two forms of one computation, fed the same inputs"
                )
            if isinstance(da, str):
                pinned[da] = db
    return pinned


def equivalence_gate(
    path_a: str, path_b: str, a: onnx.ModelProto, b: onnx.ModelProto, name: str, bind: Mapping[str, int], runner
) -> None:
    """Raises PasscheckError unless ``b`` computes what ``a`` computes under ``ort:disabled`` on the
    feeds the run uses (seeded by the run's subject id, :func:`passcheck.api.subject_id`)."""
    from passcheck.mutations.equivalence import same_outputs
    from passcheck.mutations.subject import feeds_for
    from passcheck.runtime import default_bindings

    why = same_outputs(a, b, feeds_for(a, subject_id(name), default_bindings(a, bind)), runner)
    if why:
        raise PasscheckError(
            f"{path_b} does not compute what {path_a} computes under ort:disabled: {why}; "
            "compare needs two equivalent models"
        )


def _same_input_types(path_a: str, path_b: str, a, b) -> None:
    """Refuse two models whose same-named inputs differ in element type or rank (both annotated):
    no feed can serve both, so they cannot be two forms of one computation."""
    from passcheck.runtime import runtime_inputs
    from passcheck.typestr import type_str

    def kind(vi) -> tuple | None:
        tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if tt is None or not tt.elem_type:
            return None
        return (tt.elem_type, len(tt.shape.dim) if tt.HasField("shape") else None)

    types_b = {v.name: v for v in runtime_inputs(b)}
    for va in runtime_inputs(a):
        vb = types_b.get(va.name)
        ka, kb = kind(va), kind(vb) if vb is not None else None
        if ka and kb and (ka[0] != kb[0] or None not in (ka[1], kb[1]) and ka[1] != kb[1]):
            raise PasscheckError(
                f"{path_b}: input {va.name!r} is {type_str(vb.type)} where {path_a}'s is "
                f"{type_str(va.type)}; compare needs two forms of one computation, fed the same inputs"
            )


def _order_outputs_like(model, ref) -> None:
    """Put ``model``'s graph outputs in ``ref``'s order (same names; the order carries no meaning here)."""
    import onnx

    pos = {o.name: i for i, o in enumerate(ref.graph.output)}
    ordered = sorted(model.graph.output, key=lambda o: pos[o.name])
    copies = [onnx.ValueInfoProto() for _ in ordered]
    for c, o in zip(copies, ordered):
        c.CopyFrom(o)
    del model.graph.output[:]
    model.graph.output.extend(copies)
