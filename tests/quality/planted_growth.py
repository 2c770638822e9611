"""Planted passes whose time grows faster than the model (round 20e, M454): what the time oracle must catch.

Importable by name, so the isolation worker runs them as it runs a real pass (not in a forked child)."""

from __future__ import annotations

import time


def quadratic_readers(model):
    """Return the model unchanged after finding every value's readers by rescanning all nodes per value: O(n²) in
    nodes, the shape of a matcher that walks the whole graph for each node it visits."""
    nodes = list(model.graph.node)
    for node in nodes:
        for name in node.output:
            sum(1 for other in nodes if name in other.input)
    return model


#: CPU seconds :func:`cubic_spin` spends at 64 nodes.
CUBIC_AT_64 = 0.25


def cubic_spin(model):
    """Return the model unchanged after spinning ``CUBIC_AT_64 * (nodes / 64) ** 3`` CPU seconds: a pass cubic in
    nodes, whose larger sizes run into any timeout."""
    need = CUBIC_AT_64 * (len(model.graph.node) / 64) ** 3
    start = time.process_time()
    while time.process_time() - start < need:
        pass
    return model
