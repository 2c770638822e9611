"""``passcheck compare A.onnx B.onnx``: two forms of one computation the user supplies, under the same passes."""

from __future__ import annotations

from passcheck.cli._common import add_output_args, add_pass_args, bind_arg, bindings_from, pass_count
from passcheck.cli._output import add_reliability_args


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="verify two models compute the same, then report every pass that treats them differently",
                       description="Check that A and B give the same outputs (matched by input/output name) under ort:disabled, "
                                   "then run the passes on both and apply every oracle, parity included (each form is named by its file stem).")
    p.add_argument("a", metavar="A.onnx")
    p.add_argument("b", metavar="B.onnx")
    add_pass_args(p)
    p.add_argument("--bind", action="append", type=bind_arg, default=[], metavar="SYM=N", help="size for a symbolic dim (repeatable)")
    add_output_args(p)
    add_reliability_args(p)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck.api import require_available
    from passcheck.cli._output import preflight, session_for
    from passcheck.modelio import load_model
    from passcheck.mutations import check_input
    from passcheck.oracles.validity import Checker

    preflight(args)
    require_available(args.passes)
    a, b = load_model(args.a), load_model(args.b)
    with session_for(args, save=False) as session:  # its worker runs the checker on both models, then every cell
        checker = Checker(session.executor)
        check_input(a, args.a, checker)
        check_input(b, args.b, checker)
        return _compare(args, a, b, session)


def _compare(args, a, b, session) -> int:
    import shlex
    from pathlib import Path

    from passcheck.api import check_model
    from passcheck.cli._output import RunSession, finish, runner_of
    from passcheck.errors import PasscheckError
    from passcheck.modelio import model_hash
    from passcheck.mutations.equivalence import same_outputs
    from passcheck.mutations.subject import feeds_for
    from passcheck.runtime import default_bindings, runtime_inputs

    ins = [sorted(v.name for v in runtime_inputs(m)) for m in (a, b)]
    outs = [sorted(v.name for v in m.graph.output) for m in (a, b)]
    if ins[0] != ins[1] or outs[0] != outs[1]:
        raise PasscheckError(f"{args.b}: inputs {ins[1]} / outputs {outs[1]} do not match {args.a}'s {ins[0]} / {outs[0]}; "
                             "compare needs the same input and output names")
    _same_input_types(args, a, b)
    _order_outputs_like(b, a)
    bind = bindings_from(args)
    name = Path(args.a).stem
    name_a, name_b = form_names(args.a, args.b)
    extra = "".join(f" --bind {s}={n}" for s, n in bind.items())
    repro = f"passcheck compare {shlex.quote(args.a)} {shlex.quote(args.b)}{extra} --pass {{pass}}"
    selection = {"a": model_hash(a), "b": model_hash(b), "pass": args.passes, "bind": bind}
    with RunSession(args, "compare", selection, planned=2 * (1 + pass_count(args.passes)), session=session) as s:
        why = same_outputs(a, b, feeds_for(a, f"model/{name}", default_bindings(a, bind)), runner_of(s.executor))
        if why:
            raise PasscheckError(f"{args.b} does not compute what {args.a} computes under ort:disabled: {why}; compare needs two equivalent models")
        report = s.complete(check_model(a, args.passes, bind=bind, forms={name_b: b}, form_name=name_a, name=name, repro=repro, **s.options()))
    return finish(args, report, title=f"passcheck compare {args.a} {args.b}")


def _same_input_types(args, a, b) -> None:
    """Refuse two models whose same-named inputs differ in element type or rank (both annotated):
    no feed can serve both, so they cannot be two forms of one computation.

    Raises:
        PasscheckError: naming the first such input and both its types.
    """
    from passcheck.errors import PasscheckError
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
            raise PasscheckError(f"{args.b}: input {va.name!r} is {type_str(vb.type)} where {args.a}'s is {type_str(va.type)}; "
                                 "compare needs two forms of one computation, fed the same inputs")


def form_names(a: str, b: str) -> tuple[str, str]:
    """The form names of the two files: their stems (the folder's name for ``test_x/model.onnx``),
    in safe characters, the second made distinct (``x``, ``x-2``), neither the reserved
    pseudo-pass name ``input``."""
    import re

    from passcheck.cli.check import _name
    from passcheck.engine import INPUT

    names: list[str] = []
    for path in (a, b):
        stem = re.sub(r"[^A-Za-z0-9_.+-]+", "-", _name(path)).strip("-") or "model"
        name, k = stem, 2
        while name == INPUT or name in names:
            name, k = f"{stem}-{k}", k + 1
        names.append(name)
    return names[0], names[1]


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
