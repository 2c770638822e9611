"""Build the ``onnx-node`` set: onnx's backend node tests written as cached models and data sets.

Source: ``onnx.backend.test.case.node.collect_testcases`` (it runs every ``expect()`` of onnx's
operator examples: the models, their inputs and the outputs the spec's authors state, with the
tolerance onnx's backend runner compares at); a partial set runs only the example modules that can
name its tests (:mod:`.select`). Each test kept becomes a folder in the backend-test layout
(``model.onnx``, ``test_data_set_0/input_J.pb`` / ``output_J.pb``) plus its constant form.

A test is skipped, with its reason counted in the index, when an input is not a tensor (no
initializer spells a sequence, optional or map) or of an element type onnxruntime's Python API takes
no array of, onnxruntime cannot run its model on its inputs, or the onnx checker refuses its
constant form but not the test (checked in an isolated worker: a crash costs that test only).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from passcheck.nodetests.forms import CONSTANT_INPUTS, constant_inputs, with_static_inputs
from passcheck.oracles.validity import Checker
from passcheck.runtime.feed_files import write_data_set

COMMON = "common"


def case_name(test: str) -> str:
    """The case name of onnx test ``test`` (``test_slice_neg_steps`` → ``slice_neg_steps``)."""
    return re.sub(r"[^a-z0-9_.+-]", "_", test.removeprefix("test_").lower())


def _op(model: onnx.ModelProto) -> tuple[str, str]:
    """(domain, op type) of the test's operator: its first main-graph node not a Constant."""
    nodes = [n for n in model.graph.node if n.op_type != "Constant"] or list(model.graph.node)
    return (nodes[0].domain, nodes[0].op_type) if nodes else ("", "Identity")


def _opset(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)


def build(out: Path, names: Iterable[str] = (), progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Write every kept test under ``out`` and return the index (also written to ``out/index.json``).

    ``names``: test-name globs (``test_slice*``) to restrict to (all when empty)."""
    from passcheck.nodetests.select import collect
    from passcheck.oracles.numeric import compare
    from passcheck.passes.isolation import IsolatedExecutor

    t0 = time.monotonic()
    names = list(names)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        tests = collect(names)  # only the modules that can write one of ``names`` run their examples
    entries, skipped, examples, unstated = [], Counter(), {}, Counter()
    departs = 0
    ex = IsolatedExecutor(timeout=60)
    try:
        for tc in sorted(tests, key=lambda t: t.name):
            if progress:
                progress(tc.name)
            try:
                why, entry = _one(out, tc, ex, compare)
            except Exception as exc:  # noqa: BLE001 - one test passcheck cannot write is counted, never fatal
                why, entry = f"passcheck cannot write it ({type(exc).__name__})", None
            if why:
                skipped[why] += 1
                examples.setdefault(why, tc.name)
                continue
            departs += not entry["ort_matches_spec"]
            unstated.update(entry["unstated"].values())
            entries.append(entry)
    finally:
        ex.close()
    doc = {
        "onnx": onnx.__version__,
        "seconds": round(time.monotonic() - t0, 1),
        "tests": len(tests),
        "names": names,
        "cases": entries,
        "skipped": dict(sorted(skipped.items())),
        "skipped_examples": examples,
        "ort_departs_from_spec": departs,
        "outputs_not_compared": dict(sorted(unstated.items())),
    }
    (out / "index.json").write_text(json.dumps(doc, indent=0) + "\n", encoding="utf-8")
    return doc


def _one(out: Path, tc, ex, compare) -> tuple[str, dict[str, Any] | None]:
    """(why it is skipped, "") or ("", its index entry) for one onnx test case ``tc``."""
    model = tc.model
    needed = [vi for vi in model.graph.input if vi.name not in {t.name for t in model.graph.initializer}]
    if not tc.data_sets:
        return "no data set", None
    inputs, outputs = tc.data_sets[0]  # the constant form holds one data set: the first
    if len(inputs) != len(needed) or len(outputs) > len(model.graph.output):
        return "inputs or outputs do not match the model's", None
    if any(vi.type.WhichOneof("value") != "tensor_type" for vi in needed):
        return "an input is not a tensor (no initializer spelling)", None
    feeds = {vi.name: np.asarray(_value(v)) for vi, v in zip(needed, inputs)}
    expected = {vi.name: _value(v) for vi, v in zip(model.graph.output, outputs)}
    if any(_ml_dtype(v) for v in feeds.values()):
        return "an input is bfloat16, float8 or 4-bit (onnxruntime's Python API takes no such array)", None
    unstated = _not_a_reference(model, expected)
    expected = {k: v for k, v in expected.items() if k not in unstated}
    common = with_static_inputs(model, feeds)
    try:
        const = constant_inputs(common, feeds)
    except ValueError as exc:  # its reason names the input: the count groups on what follows the name
        return f"no constant form ({str(exc).split(': ', 1)[-1].split(',')[0]})", None
    run = ex.run_model(common, feeds)
    if run.error:
        return f"onnxruntime cannot run it: {_error_class(run.error)}", None
    checker = Checker(ex)
    if checker(const) and not checker(common):  # passcheck's spelling, not the test, would be refused
        return "its constant form fails the onnx checker where the test passes", None
    name = case_name(tc.name)
    folder = out / "tests" / name
    folder.mkdir(parents=True, exist_ok=True)
    forms = {}
    for form, m in ((COMMON, common), (CONSTANT_INPUTS, const)):
        data = m.SerializeToString(deterministic=True)
        fname = "model.onnx" if form == COMMON else f"{form}.onnx"
        (folder / fname).write_bytes(data)
        forms[form] = {"file": fname, "sha256": hashlib.sha256(data).hexdigest()}
    write_data_set(folder, 0, common, feeds, expected)
    matches = all(
        name_ in run.outputs and compare(run.outputs[name_], e, tc.rtol, tc.atol).ok for name_, e in expected.items()
    )
    domain, op = _op(model)
    return "", {
        "id": f"onnx-node/{name}",
        "test": tc.name,
        "op": op,
        "domain": domain,
        "opset": _opset(model),
        "rtol": tc.rtol,
        "atol": tc.atol,
        "folder": f"tests/{name}",
        "forms": forms,
        "ort_matches_spec": matches,
        "unstated": unstated,
    }


def _not_a_reference(model: onnx.ModelProto, expected: dict[str, Any]) -> dict[str, str]:
    """Output name → why the test's stated value is no reference for a run: a random draw
    (numeric.RANDOM ops, or Dropout given ``training_mode``: Operators.md Dropout draws its mask),
    or an element type onnxruntime's Python API returns as raw bits (bfloat16, float8, 4-bit)."""
    from passcheck.oracles.numeric import drawn

    why = dict.fromkeys(drawn(model), "a random draw")
    if any(n.op_type == "Dropout" and len(n.input) > 2 and n.input[2] for n in model.graph.node):
        why.update(dict.fromkeys(expected, "a random draw (Dropout in training mode)"))
    for name, v in expected.items():
        if isinstance(v, np.ndarray) and _ml_dtype(v):
            why.setdefault(name, f"{v.dtype.name}: onnxruntime returns its raw bits")
    return why


def _value(v: Any) -> Any:
    """A test's input or output as a value: onnx states element types numpy lacks (bfloat16, float8,
    4-bit) as TensorProto s, read here as ml_dtypes arrays (``numpy_helper.to_array``)."""
    from onnx import numpy_helper

    return numpy_helper.to_array(v) if isinstance(v, onnx.TensorProto) else v


def _ml_dtype(a: np.ndarray) -> bool:
    return a.dtype.type.__module__.startswith("ml_dtypes")


def _error_class(error: str) -> str:
    """A short category of an onnxruntime load/run error (the skip reasons' counts group on it)."""
    if "NOT_IMPLEMENTED" in error or "Could not find an implementation" in error:
        return "no kernel"
    if "opset" in error.lower() and ("support" in error.lower() or "not" in error.lower()):
        return "opset not supported"
    if any(w in error for w in ("crashed", "signal", "killed its process", "gave no result")):
        return "crashed"
    return error.split(":", 1)[0].strip()[:40] or "error"
