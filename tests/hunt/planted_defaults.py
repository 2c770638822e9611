"""A planted pass that folds every overridable default, loaded by the default-fed tests (tests only).

``planted:fold-defaults``: every main-graph input that has an initializer of the same name is removed from the graph
inputs, so its initializer becomes a constant (IR.md §Graphs): right on a run that feeds only the other inputs (the
default is then the value), wrong on one that overrides the default (the fed value is ignored).
"""

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:fold-defaults"


def fold_defaults(model):
    """Drop every graph input that an initializer of the same name defaults (see module docs)."""
    inits = {t.name for t in model.graph.initializer}
    keep = [vi for vi in model.graph.input if vi.name not in inits]
    del model.graph.input[:]
    model.graph.input.extend(keep)
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, fold_defaults, doc="test pass: overridable defaults made constants"))
