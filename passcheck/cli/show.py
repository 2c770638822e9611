"""``passcheck show MODEL.onnx``: every annotation of a model in the ``x: FLOAT [1, "N"]`` notation.

Graph inputs, outputs and value_info of the main graph, of every nested subgraph (If/Loop/Scan
bodies) and of every model-local function (its value_info, IR 10), in the notation of
:mod:`passcheck.typestr`.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser(
        "show", help="print every input, output and value_info annotation of a model, subgraphs and functions included"
    )
    p.add_argument("model", metavar="MODEL.onnx")
    p.set_defaults(handler=handle)


def lines(model) -> list[str]:
    """The printed lines for ``model`` (one header per scope, then one line per annotated value)."""
    from passcheck.oracles.shape_annotations import graph_scopes
    from passcheck.typestr import value_info_str

    out = []
    for scope, g in graph_scopes(model):
        is_function = scope.startswith("function") and "/" not in scope
        if is_function:
            out.append(f"{scope}({', '.join(g.input)}) -> ({', '.join(g.output)})")
            groups = [("value_info", getattr(g, "value_info", ()))]
        else:
            out.append(f"graph {g.name!r}" if not scope else f"subgraph {scope} ({g.name!r})")
            groups = [("input", g.input), ("output", g.output), ("value_info", g.value_info)]
        for label, vis in groups:
            out += [f"  {label:<10} {value_info_str(vi)}" for vi in vis]
    return out


def handle(args) -> int:
    from passcheck.modelio import load_model

    print("\n".join(lines(load_model(args.model))))
    return 0
