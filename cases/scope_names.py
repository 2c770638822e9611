"""scope-names/*: names a subgraph may reuse because it cannot see them.

IR.md §Graphs, "Names Within a Graph": node output names are unique within a graph (SSA), and "in
the case of a nested subgraph, a node output name and names of inputs and initializers of the
subgraph MUST be distinct from the names from the outer scopes that are *visible* in the nested
subgraph" (no shadowing). A subgraph sees the outer names introduced before its node (the main
graph is topologically ordered, IR.md: "if node K follows node N in the graph, none of the data
inputs of N may refer to outputs of K"). It does not see:

- a name the outer graph introduces after the node that holds the subgraph (a later node's output,
  a graph output written later, a value_info of such a value),
- the node's own outputs (they are defined when the node finishes),
- the names local to a sibling subgraph (the other branch of an If).

So a subgraph's initializer, input or node output may carry any of those names. The common form of
each case gives every scope fresh names; every other form reuses one unseen name, and computes the
same values. A pass that flattens scopes (lifting subgraph initializers, inlining a branch, one
name-keyed table for the whole model) must rename on collision; an analysis that keys outer types
by name must not let a later outer declaration reach into the subgraph.

Each form is valid: ``onnx.checker.check_model`` (lexical scopes), onnxruntime and the reference
evaluator agree on it. Opset 18, IR 8 (initializers in subgraphs).
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_form

FAMILY = "scope-names"
OPSET = 18
PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-strict",
    "onnx-ir:lift-subgraph-initializers-to-main-graph",
    "onnx-ir:name-fix",
    "onnxoptimizer:optimize",
    "onnx-gs:fold-constants",
)
BINDINGS = ({"N": 1}, {"N": 3})
SIG = "(float[N,3] x) => (float[N,3] t)"
CONSTS = "<float[1] k = {2.0}, float zero = {0.0}>"
#: The condition is computed, so no pass folds the If away (sum(x) > 0 varies with the feed).
COND = "s = ReduceSum <keepdims = 0> (x)\nc = Greater(s, zero)"


def _if_graph(p="p", q="q", u="u", v="v", a="a", b="b", cond=COND):
    """The main graph: ``t = If(sum(x) > 0, x + 1, x - 3) * 2`` with each branch's names given (``cond``: the nodes
    that compute ``c``, none when ``c`` is an initializer)."""
    return (
        f"{cond}\n"
        f"r = If(c) <then_branch = g1 () => (float[N,3] {a}) <float[1] {p} = {{1.0}}> "
        f"{{ {u} = Add(x, {p})\n {a} = Identity({u}) }}, "
        f"else_branch = g2 () => (float[N,3] {b}) <float[1] {q} = {{3.0}}> "
        f"{{ {v} = Sub(x, {q})\n {b} = Identity({v}) }}>\n"
        "t = Mul(r, k)"
    )


def _loop_graph(p="p", v="v", o="y0"):
    """The main graph: ``t = Loop(1, true, x){ v + 1 } * 2`` with the body's names given."""
    return (
        "one = Constant <value_int = 1> ()\n"
        f"{o} = Loop(one, go, x) <body = lb (int64 i, bool cin, float[N,3] {v}) => (bool co, float[N,3] vo) "
        f"<float[1] {p} = {{1.0}}> {{ co = Identity(cin)\n vo = Add({v}, {p}) }}>\n"
        f"t = Mul({o}, k)"
    )


def _register(name, doc, bodies, consts=CONSTS):
    forms = {
        form: text_form(f"g {SIG} {consts} {{\n{body}\n}}", form_doc, opset=OPSET)
        for form, (body, form_doc) in bodies.items()
    }
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms=forms,
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"control-flow", "subgraph", "names"}),
        )
    )


_register(
    "if-branch",
    """t = If(sum(x) > 0, x + 1, x - 3) * 2, the branches' names fresh vs reusing names they cannot see.

Uncommon (IR.md §Graphs, Names Within a Graph; Operators.md If-16): a branch initializer named like
the graph output ``t`` the main graph writes after the If, or like the If's own output ``r``; both
branches' initializers named ``p``; a branch's node output named ``t``; a branch output named ``r``;
both branches' node outputs named ``u``. None of these names is visible in the branch.
Valid: opset 16+ (here 18, IR 8).""",
    {
        "common": (_if_graph(), ""),
        "initializer-as-later-output": (_if_graph(p="t"), "then-branch initializer named t (written later)"),
        "initializer-as-if-output": (_if_graph(p="r"), "then-branch initializer named r (the If's output)"),
        "sibling-initializers": (_if_graph(q="p"), "both branches' initializers named p"),
        "local-as-later-output": (_if_graph(u="t"), "then-branch node output named t"),
        "branch-output-as-if-output": (_if_graph(a="r"), "then-branch output named r, like the If's output"),
        "sibling-locals": (_if_graph(v="u"), "both branches' node outputs named u"),
    },
)

_register(
    "loop-body",
    """t = Loop(1, true, x){ v + 1 } * 2, the body's names fresh vs reusing names it cannot see.

Uncommon (IR.md §Graphs, Names Within a Graph; Operators.md Loop-16): the body's initializer named
like the graph output ``t`` written after the Loop, or like the Loop's own output ``y0``; the body's
loop-carried input named ``t``. None of these names is visible in the body.
Valid: opset 16+ (here 18, IR 8).""",
    {
        "common": (_loop_graph(), ""),
        "initializer-as-later-output": (_loop_graph(p="t"), "body initializer named t (written later)"),
        "initializer-as-loop-output": (_loop_graph(p="y0"), "body initializer named y0 (the Loop's output)"),
        "input-as-later-output": (_loop_graph(v="t"), "body input named t (written later)"),
    },
    consts="<float[1] k = {2.0}, bool go = {1}>",
)

#: ``c`` a constant ``true``: a folding pass inlines the then-branch into the main graph (Operators.md If).
CONST = dict(cond="")
_register(
    "if-constant-condition",
    """t = If(true, x + 1, x - 3) * 2, the branches' names fresh vs reusing names they cannot see.

Uncommon (IR.md §Graphs, Names Within a Graph; Operators.md If-16): as ``if-branch``, the condition a constant
initializer, so a folding pass replaces the If by the then-branch's nodes and initializers: a branch initializer or
node output named like the graph output ``t`` the main graph writes after the If, or like the If's output ``r``.
Valid: opset 16+ (here 18, IR 8).""",
    {
        "common": (_if_graph(**CONST), ""),
        "initializer-as-later-output": (_if_graph(p="t", **CONST), "then-branch initializer named t (written later)"),
        "initializer-as-if-output": (_if_graph(p="r", **CONST), "then-branch initializer named r (the If's output)"),
        "local-as-later-output": (_if_graph(u="t", **CONST), "then-branch node output named t"),
    },
    consts="<float[1] k = {2.0}, bool c = {1}>",
)
