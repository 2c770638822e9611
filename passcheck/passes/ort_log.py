"""onnxruntime's verbose log: which graph transformers the installed build runs, at which level.

A CPU session with ``log_severity_level`` 0 prints ``GraphTransformer <name> modified: 0|1`` for each
transformer it applies (onnxruntime ``graph_transformer.cc``); the logger writes to ``std::cerr``
(fd 2), which Python's ``sys.stderr`` never sees, so :func:`stderr_fd` redirects the descriptor itself.
The rules of each level's rule-based transformer are never logged by name; :func:`rules` reads them from
the attribution table (``passcheck/attribution/ort_transformers.json``, from onnxruntime's sources).
Every function here opens sessions and redirects fd 2 in the calling process: call it in an isolation
worker (:mod:`passcheck.oracles.ort_levels` runs :func:`logged_names` in one, on a one-node Relu).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

#: onnxruntime level number → passcheck level name (the pass ``ort:<name>``).
LEVEL_NAMES = {"1": "basic", "2": "extended", "3": "all"}
MODIFIED = re.compile(r"GraphTransformer (\S+) modified: (\d)")
CONTAINER = re.compile(r"Level(\d)_RuleBasedTransformer")


@contextlib.contextmanager
def stderr_fd() -> Iterator[list[str]]:
    """Yield a list that holds, once the block ends, the text written to fd 2 during it."""
    out: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 2)
        try:
            yield out
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            out.append(f.read().decode("utf-8", "replace"))


@cache
def rules() -> dict[str, tuple[str, ...]]:
    """Level number → the rewrite rules of its rule-based transformer (from ``ort_transformers.json``)."""
    path = Path(__file__).parents[1] / "attribution" / "ort_transformers.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    return {lv: tuple(names) for lv, names in table["rules"].items()}


def session(
    model_bytes: bytes,
    level: str,
    disabled: Sequence[str] = (),
    verbose: bool = False,
    config: Sequence[tuple[str, str]] = (),
) -> tuple[str, bytes]:
    """(the verbose log, the optimized graph's bytes) of a CPU session at ``level`` (``disabled``, ``basic`` …),
    with the session config entries ``config`` (:mod:`passcheck.passes.ort_config`) set."""
    import onnx
    import onnxruntime as ort

    from passcheck.passes.ort_optimizer import LEVELS

    with tempfile.TemporaryDirectory(prefix="passcheck-cov-") as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVELS[level])
        so.optimized_model_filepath = str(Path(d) / "opt.onnx")
        so.intra_op_num_threads = 1
        so.log_severity_level = 0 if verbose else 4
        so.log_verbosity_level = 1 if verbose else 0
        for key, value in config:
            so.add_session_config_entry(key, value)
        with stderr_fd() as log:
            ort.InferenceSession(
                model_bytes, so, providers=["CPUExecutionProvider"], disabled_optimizers=list(disabled) or None
            )
        graph = onnx.load(so.optimized_model_filepath, load_external_data=False).graph
        return (log[0] if verbose else ""), graph.SerializeToString()


def probe_model():
    """A one-node model (``y = Relu(x)``, opset 13, IR 7: read by every onnxruntime passcheck pins) on which a session
    logs every transformer its level registers (the names do not depend on the model)."""
    from onnx import TensorProto, helper

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "levels",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model


def names_at(model, level: str, config: Sequence[tuple[str, str]] = ()) -> frozenset[str]:
    """The transformer names a CPU session at ``level`` with the session config entries ``config`` logs for ``model``
    (any model the build accepts, :func:`probe_model`: the names do not depend on it), required transformers and the
    rule-based containers included: the names ``disabled_optimizers`` can reach at that level (rules are never
    logged)."""
    log = session(model.SerializeToString(), level, verbose=True, config=config)[0]
    return frozenset(n for n, _ in MODIFIED.findall(log))


def logged_names(model) -> dict[str, str]:
    """Transformer name → the lowest level (``basic``, ``extended``, ``all``) whose session logs it, for
    ``model`` (any model the build accepts: the names do not depend on it); required transformers
    and the rule-based containers left out."""
    data = model.SerializeToString()
    seen = {n for n, _ in MODIFIED.findall(session(data, "disabled", verbose=True)[0])}
    out: dict[str, str] = {}
    for level in LEVEL_NAMES.values():
        for name, _ in MODIFIED.findall(session(data, level, verbose=True)[0]):
            if name not in seen and not CONTAINER.fullmatch(name):
                out.setdefault(name, level)
    return out
