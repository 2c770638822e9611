"""A hunt-saved case whose finding is a pass killed at the item's time limit is reproduced with that
``--timeout``: at the default 300 s the command would not show it (the hanging pass sleeps for an hour;
what is asserted is that the limit ends it)."""

from __future__ import annotations

import textwrap

from passcheck.cases import REGISTRY
from passcheck.passes import unregister_pass

SAVED = textwrap.dedent("""
    import time

    from passcheck.cases import Case, Form, register
    from passcheck.cases.builders import FLOAT, model, node, vi


    def relus(n):
        names = ["x"] + [f"r{i}" for i in range(1, n)] + ["y"]
        nodes = [node("Relu", [a], [b]) for a, b in zip(names, names[1:])]
        return Form(lambda: model(nodes, [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18))
    from passcheck.passes import FunctionAdapter, register_pass


    def hang(m):
        time.sleep(3600)


    def relu(m):
        return m


    register_pass(FunctionAdapter("planted-hunt:hang", hang))
    register_pass(FunctionAdapter("planted-hunt:same", relu))
    register(Case(id="planted-hunt/relu", doc="Relu(x), or Relu(Relu(x))", opset=18,
                  forms={"common": relus(1), "twice": relus(2)}))
""")


def test_a_saved_timeout_is_reproduced_with_the_limit_it_had(tmp_path):
    from passcheck.hunt.search import _reproduce
    from passcheck.passes.isolation import executor_for

    path = tmp_path / "saved_case.py"
    path.write_text(SAVED)
    try:
        with executor_for(None, timeout=3, preload=[str(path)]) as ex:
            hang = _reproduce(path, "planted-hunt/relu", "planted-hunt:hang", "acceptance", "rejected", ex, [])
            same = _reproduce(path, "planted-hunt/relu", "planted-hunt:same", "acceptance", "rejected", ex, [])
    finally:
        for pid in ("planted-hunt:hang", "planted-hunt:same"):
            unregister_pass(pid)
        REGISTRY._cases.pop("planted-hunt/relu", None)
    assert hang[0].endswith("--case planted-hunt/relu --pass planted-hunt:hang --timeout 3"), hang
    assert same[0].endswith("--pass planted-hunt:same"), same  # no time limit in it: none in its command
