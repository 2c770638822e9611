"""The copy of the version converter's adapter table (:data:`passcheck.generate.adapters.REGISTRY`) is in step with
the ``convert.h`` each onnx wheel ships (:func:`~passcheck.generate.adapters.registered`): a release that registers an
adapter the copy lacks fails here, not silently in the adapter bases and boundary sides built from the copy."""

from __future__ import annotations

import os
from pathlib import Path

import onnx
import pytest

from passcheck.generate import adapters


def _headers() -> list[Path]:
    """The installed onnx's ``convert.h`` and those of the pinned environments in the cache."""
    out = [adapters.installed_header()]
    cache = Path(os.environ.get("PASSCHECK_CACHE", Path.home() / ".cache" / "passcheck")) / "envs"
    out += sorted(cache.glob("onnx-1.*-*/lib/python3*/site-packages/onnx/version_converter/convert.h"))
    return [h for h in out if h.is_file()]


def _header_id(h: Path) -> str:
    return h.parts[-7] if "envs" in h.parts else "installed"


@pytest.mark.parametrize("header", _headers(), ids=_header_id)
def test_the_copy_holds_every_adapter_the_wheel_registers(header):
    assert adapters.lacking(header) == {}


def test_the_reader_reads_each_registration_form_of_the_installed_header():
    table = adapters.registered(adapters.installed_header().read_text())
    assert table["3->4"] == {"Concat"}  # registerAdapter("Concat", 3, 4, …)
    assert table["4->5"] == {"Reshape"}  # make_unique<Reshape_4_5>(): the class names the op
    assert {"Softmax", "LogSoftmax"} <= table["12->13"]  # Softmax_12_13("LogSoftmax"): the literal wins
    assert "Upsample" in table["9->8"] and "Scan" in table["8->9"]
    if onnx.defs.onnx_opset_version() >= 28:
        assert {"Mod", "SpaceToDepth", "OptionalHasElement", "Cast"} <= table["28->27"]  # lambda, RemoveAttribute, …
    # the whole copy is what the installed onnx registers (older ones register a subset)
    assert {s: set(ops.split()) for s, ops in adapters.REGISTRY.items()} == table


def test_a_new_adapter_or_an_unread_form_is_reported():
    text = """
    registerAdapter(std::make_unique<NoPreviousVersionAdapter>(op_name, OpSetID(v), OpSetID(v - 1)));
    /******** 3 -> 4 ********/
    registerAdapter("Concat", 3, 4, SetAttributeIfAbsent(kaxis, 1));
    /******** 28 -> 29 ********/
    // a comment naming "Gelu" is no registration
    registerAdapter(std::make_unique<CompatibleAdapter>("Relu", OpSetID(28), OpSetID(29)));
    registerAdapter(std::make_unique<TopK_9_10>());
    """
    assert adapters.registered(text) == {"3->4": {"Concat"}, "28->29": {"Relu", "TopK"}}
    with pytest.raises(ValueError, match="names no op"):
        adapters.registered("/******** 1 -> 2 ********/\nregisterAdapter(std::make_unique<Mystery>(x));")
