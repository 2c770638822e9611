"""Pass outputs read in passcheck's process hold their big initializer payloads once per content
(:mod:`passcheck.execution.payloads`), not once per form (issue 28: README's ResNet-50 job held every
form's ``ort:basic`` output, ~100 MB of folded weights each, until the pass was judged: 10.9 GB), and
the verdicts are those of whole outputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.execution import payloads
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime import default_bindings
from tests._inproc import cli

CONV2D = Path(onnx.__file__).parent / "backend/test/data/pytorch-converted/test_Conv2d/model.onnx"
#: elements of the constant ort:basic folds into one initializer (2 MiB of float32)
FOLDED = 1 << 19


def _folding_model(name: str, fill: float = 1.5) -> onnx.ModelProto:
    """y = x + ConstantOfShape([FOLDED], fill) * 2: ort:basic folds the constant branch into a 2 MiB
    initializer. ``name``: the graph name (forms that differ in bytes, not in what the pass writes)."""
    shape = numpy_helper.from_array(np.array([FOLDED], np.int64), "shape")
    two = numpy_helper.from_array(np.array([2.0], np.float32), "two")
    nodes = [
        helper.make_node(
            "ConstantOfShape", ["shape"], ["c"], value=helper.make_tensor("v", TensorProto.FLOAT, [1], [fill])
        ),
        helper.make_node("Mul", ["c", "two"], ["w"]),
        helper.make_node("Add", ["x", "w"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [FOLDED])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [FOLDED])],
        [shape, two],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_hollow_then_whole_gives_the_same_bytes_and_equal_payloads_are_held_once(monkeypatch):
    monkeypatch.setattr(payloads, "MIN_BYTES", 1)
    big = np.arange(4096, dtype=np.float32)
    m = helper.make_model(
        helper.make_graph(
            [helper.make_node("Add", ["a", "b"], ["y"])],
            "g",
            [],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4096])],
            [
                numpy_helper.from_array(big, "a"),
                numpy_helper.from_array(big, "b"),
                helper.make_tensor("s", 1, [1], [1.0]),
            ],
        )
    )
    before, held = m.SerializeToString(), payloads.held_bytes()
    hollowed, keys = payloads.hollow(onnx.ModelProto.FromString(before))
    assert len(keys) == 2 and len(set(keys)) == 1  # two tensors, one content
    assert payloads.held_bytes() - held == big.nbytes
    assert hollowed.ByteSize() < big.nbytes and payloads.is_hollow(hollowed)
    with pytest.raises(onnx.checker.ValidationError):  # a reader that skips whole() fails, it does not read nothing
        numpy_helper.to_array(hollowed.graph.initializer[0])
    assert payloads.whole(hollowed).SerializeToString() == before
    np.testing.assert_array_equal(numpy_helper.to_array(payloads.whole_tensor(hollowed.graph.initializer[1])), big)
    payloads.release(keys)
    assert payloads.held_bytes() == held


def test_outputs_of_many_forms_hold_one_copy_of_their_folded_weights(tmp_path):
    """Four forms whose ort:basic outputs fold the same 2 MiB constant: while the pass is judged, the
    outputs and the store together hold less than two copies (one per form before: 8 MiB), and the store is
    emptied when the subject is done."""
    forms = {f"form{i}": _folding_model(f"g{i}") for i in range(4)}
    held_during: list[int] = []

    def record(judged):
        outputs = [r.outcome.model for r in judged.cells.runs if r.pass_id != "input" and r.outcome.ok]
        if outputs:
            held_during.append(sum(m.ByteSize() for m in outputs) + payloads.held_bytes())

    first = forms["form0"]
    subject = Subject(id="model/fold", forms=forms, bindings=default_bindings(first, None))
    held = payloads.held_bytes()
    with IsolatedExecutor() as ex:
        cells = evaluate(subject, ["ort:basic"], executor=ex, record=record)
    assert {c.status for c in cells if c.pass_id == "ort:basic"} == {"changed"}
    assert held_during and held_during[0] < 2 * FOLDED * 4, held_during
    assert payloads.held_bytes() == held


def _normalized(value):
    if isinstance(value, dict):
        return {k: _normalized(v) for k, v in value.items() if k not in {"seconds", "versions", "environments"}}
    return [_normalized(v) for v in value] if isinstance(value, list) else value


def _reshape_model(path: Path) -> Path:
    """y = Reshape(x, [6, 4]) + w, its shape and ``w`` initializers (constants the oracles' shape
    inference and spec rules read) saved at ``path``."""
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["r"]), helper.make_node("Add", ["r", "w"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [6, 4])],
        [
            numpy_helper.from_array(np.array([6, 4], np.int64), "shape"),
            numpy_helper.from_array(np.arange(4, dtype=np.float32), "w"),
        ],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def _report(tmp_path: Path, model: Path, name: str) -> dict:
    out = tmp_path / f"{name}.json"
    p = cli("check", model, "--mutations", "--pass", "ort:basic", "--json", out, "-q", "--progress", "none")
    assert p.returncode in (0, 1), p.stderr[-2000:]
    return _normalized(json.loads(out.read_text()))


@pytest.mark.parametrize("model", ["conv2d", "reshape"])
def test_hollowed_outputs_give_the_same_report(tmp_path, monkeypatch, model):
    """README's job with every initializer payload of every pass output hollowed
    (:data:`~passcheck.execution.payloads.MIN_BYTES` 1): every oracle reads the hollowed outputs, and the
    report is the one of whole outputs, cell by cell: on the golden's model (``tests/cli/test_check_golden.py``)
    and on a Reshape whose shape constant shape inference reads."""
    path = CONV2D if model == "conv2d" else _reshape_model(tmp_path / "reshape.onnx")
    monkeypatch.setattr(payloads, "MIN_BYTES", 1 << 40)
    want = _report(tmp_path, path, "whole")
    monkeypatch.setattr(payloads, "MIN_BYTES", 1)
    hollowed: list[int] = []
    real, real_adopt = payloads.hollow, payloads.adopt

    def counting(m):
        out, keys = real(m)
        hollowed.append(len(keys))
        return out, keys

    def adopting(m, sent):  # hollowed in the worker (hollow_bytes), taken in here
        keys = real_adopt(m, sent)
        hollowed.append(len(keys))
        return keys

    monkeypatch.setattr(payloads, "hollow", counting)
    monkeypatch.setattr(payloads, "adopt", adopting)
    got = _report(tmp_path, path, "hollowed")
    assert sum(hollowed) > 0  # the outputs were hollowed
    cells = {(c["case"], c["form"], c["pass_id"]): c for c in got["results"] if c.get("type") == "cell"}
    for c in want["results"]:
        if c.get("type") == "cell":
            assert cells[(c["case"], c["form"], c["pass_id"])] == c
    assert got == want


def _weights_model(sizes: dict[str, int], sub: bool = False) -> onnx.ModelProto:
    """y = Sum of initializers named by ``sizes`` (float32 arrays of that many elements, each filled with
    its size, so equal sizes are equal payloads); ``sub``: one more 8 KiB initializer inside an If's branch
    (a subgraph's payload, which :func:`payloads.hollow` leaves alone)."""
    inits = [numpy_helper.from_array(np.full(n, float(n), np.float32), name) for name, n in sizes.items()]
    ext = numpy_helper.from_array(np.ones(4096, np.float32), "ext")  # already external: never moved
    ext.data_location = TensorProto.EXTERNAL
    ext.external_data.add(key="location", value="w.bin")
    nodes = [helper.make_node("Identity", [next(iter(sizes))], ["y"])]
    if sub:
        branch = helper.make_graph(
            [helper.make_node("Identity", ["inner"], ["o"])],
            "b",
            [],
            [helper.make_tensor_value_info("o", TensorProto.FLOAT, [2048])],
            [numpy_helper.from_array(np.ones(2048, np.float32), "inner")],
        )
        nodes.append(helper.make_node("If", ["c"], ["z"], then_branch=branch, else_branch=branch))
        inits.append(numpy_helper.from_array(np.array(True), "c"))
    graph = helper.make_graph(
        nodes, "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits + [ext]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_hollow_bytes_in_a_worker_gives_what_hollow_gives_and_sends_only_unknown_payloads(monkeypatch):
    """The wire-format hollowing a worker does (:func:`payloads.hollow_bytes`) parses, once the sent
    payloads are adopted, to the model :func:`payloads.hollow` makes of the whole bytes (the same keys,
    the same markers), :func:`payloads.whole` gives the bytes back, equal payloads are sent once, the
    ones the caller says it holds are not sent, and small, external and subgraph payloads stay."""
    monkeypatch.setattr(payloads, "MIN_BYTES", 1024)
    model = _weights_model({"a": 4096, "b": 4096, "c8": 2048, "small": 16}, sub=True)
    data = model.SerializeToString()
    known: set[str] = set()
    small, sent = payloads.hollow_bytes(data, known)
    assert len(small) < len(data) - 16384 and len(sent) == 2  # a and b: one content; c8: another
    assert known == set(sent)
    got = onnx.ModelProto.FromString(small)
    keys = payloads.adopt(got, sent)
    want, want_keys = payloads.hollow(onnx.ModelProto.FromString(data))
    assert got == want and keys == want_keys and len(keys) == 3
    assert payloads.whole(got).SerializeToString() == data
    again, resent = payloads.hollow_bytes(data, known)  # all held: the same hollow model, no payload
    assert again == small and resent == {}
    payloads.release(keys + want_keys)
    with pytest.raises(KeyError, match="neither sent nor held"):
        payloads.adopt(onnx.ModelProto.FromString(again), {})
    nothing = _weights_model({"small": 16}).SerializeToString()
    assert payloads.hollow_bytes(nothing, set()) == (nothing, {})


def test_a_recognised_payload_has_its_sha256_key_and_one_of_the_same_ends_is_hashed(monkeypatch):
    """:class:`payloads.Recognised` (the worker's memo of payloads it hashed) gives every payload the key
    :func:`payloads.key_of` gives it: a payload met again by comparison, one with the same size and the
    same first and last bytes but other bytes between them by hashing; it keeps at most ``max_bytes``."""
    calls: list[int] = []
    real = payloads.key_of
    monkeypatch.setattr(payloads, "key_of", lambda data: calls.append(len(data)) or real(data))
    seen = payloads.Recognised(max_bytes=4099)  # one payload kept at a time
    a = bytes(range(256)) * 16 + b"abc"  # 4099 bytes: a tail that is not a whole 64-bit word
    b = a[:2000] + b"X" + a[2001:]  # the same ends, one byte apart in the middle
    c = a[:-1] + b"Z"  # the same size and first bytes, another last byte
    for data in (a, a, b, a, c, b, c):
        key, kept = seen.key(memoryview(bytearray(data)))  # a fresh buffer: equal bytes, not the same object
        assert key == real(data) and kept == data
    # a; b; a again (b took its place); c (a dropped: over budget); b, c again (each dropped the other)
    assert calls == [4099] * 6
    assert seen.size <= seen.max_bytes
    tiny = payloads.Recognised(max_bytes=4098)  # smaller than the payload: hashed every time, nothing kept
    assert tiny.key(memoryview(a)) == (real(a), None) and tiny.size == 0


def test_hollow_bytes_with_the_workers_memo_gives_the_same_reply(monkeypatch):
    """The worker's hollowing with :data:`payloads.RECOGNISED`: the same hollow bytes and sent payloads as
    without it, on the first output and on a second one holding the same contents."""
    monkeypatch.setattr(payloads, "MIN_BYTES", 1024)
    data = _weights_model({"a": 4096, "b": 4096, "c8": 2048, "small": 16}, sub=True).SerializeToString()
    other = _weights_model({"d": 4096, "e": 3000}).SerializeToString()
    memo = payloads.Recognised()
    for model in (data, other, data):
        assert payloads.hollow_bytes(model, set(), None, memo) == payloads.hollow_bytes(model, set())
    assert memo.size == 4 * (4096 + 2048 + 3000)


def test_a_pass_output_sends_only_the_payloads_this_process_does_not_hold(tmp_path):
    """Inside ``holding()`` the worker hollows each ``ort:basic`` output before replying: the first
    output's folded 2 MiB constant crosses the pipe, the next form's output (the same constant) sends no
    payload, a batch of passes sends a new constant once, and the outputs read back whole as the pass wrote
    them."""
    from passcheck.passes import get_pass

    sent_sizes: list[int] = []
    real_adopt = payloads.adopt

    def adopting(m, sent):
        sent_sizes.append(sum(len(v) for v in sent.values()))
        return real_adopt(m, sent)

    adapter = get_pass("ort:basic")
    held = payloads.held_bytes()
    with pytest.MonkeyPatch.context() as mp, IsolatedExecutor() as ex:
        mp.setattr(payloads, "adopt", adopting)
        with ex.holding():
            outs = [ex(adapter, _folding_model(f"g{i}"), tmp_path) for i in range(2)]
            outs += [o for o in ex.run_passes([adapter, adapter], _folding_model("g2"), [tmp_path, tmp_path]) if o]
            outs += [o for o in ex.run_passes([adapter, adapter], _folding_model("g3", 2.5), [tmp_path] * 2) if o]
            assert [o.status for o in outs] == ["changed"] * 6
            assert all(payloads.is_hollow(o.model) for o in outs)
            whole = [payloads.whole(o.model) for o in outs]
        assert payloads.held_bytes() == held
    assert sent_sizes == [FOLDED * 4, 0, 0, 0, FOLDED * 4, 0]
    direct = adapter.run(_folding_model("g0"), tmp_path).model
    assert whole[0].SerializeToString() == direct.SerializeToString()
    assert [numpy_helper.to_array(t).sum() for t in whole[3].graph.initializer] == [
        numpy_helper.to_array(t).sum() for t in direct.graph.initializer
    ]


def test_a_hollowing_pass_job_says_its_hollowing_apart_in_the_timings(tmp_path, monkeypatch):
    """The job a worker runs (here in process): its reply carries the hollowed output, the payloads and the
    whole size, and ``PASSCHECK_TIMINGS`` gets a line of its own for the hollowing (passcheck's work, which
    ``bench/check_mutations.py`` takes out of the tools' seconds)."""
    import json

    from passcheck.execution import process
    from passcheck.passes import get_pass
    from passcheck.passes.isolation import HOLLOW_LABEL, _PassJob

    timings = tmp_path / "timings.jsonl"
    monkeypatch.setenv("PASSCHECK_TIMINGS", str(timings))
    job = _PassJob(get_pass("ort:basic"), (payloads.MIN_BYTES, set()))
    reply = process.timed(job, _folding_model("g0").SerializeToString(), str(tmp_path))
    assert reply["status"] == "changed" and reply["nbytes"] > FOLDED * 4 > len(reply["model"])
    assert [len(v) for v in reply["payloads"].values()] == [FOLDED * 4]
    assert [json.loads(x)["job"] for x in timings.read_text().splitlines()] == [HOLLOW_LABEL, "pass ort:basic"]
