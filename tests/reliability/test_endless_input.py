"""A model path that never ends (``/dev/zero``, a pipe from ``yes``) is refused in one line, not read into memory
until the kernel kills the process (passcheck/modelio.py ``read_input``): protobuf caps a serialized message at
2 GiB (onnx's "External data" docs: larger models keep their tensors outside the ModelProto), and field number 0 is
not a protobuf field, so a stream whose first byte is below 8 starts no ModelProto."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from passcheck import modelio
from passcheck.errors import ModelLoadError


def _capped():  # the old behaviour must fail the test, not take the machine's memory with it
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def test_check_of_dev_zero_is_one_line_exit_2():
    r = subprocess.run(
        [sys.executable, "-m", "passcheck", "check", "/dev/zero", "--pass", "onnx:infer-shapes"],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_capped,
    )
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "/dev/zero: not an ONNX model" in lines[0], lines
    assert "starts no protobuf field" in lines[0], lines  # refused at its first byte, not after 2 GiB


def test_a_stream_longer_than_protobuf_s_limit_is_refused_once_the_limit_is_passed(tmp_path, monkeypatch):
    monkeypatch.setattr(modelio, "MAX_MODEL_BYTES", 3 << 20)
    writer = subprocess.Popen(["sh", "-c", f"mkfifo {tmp_path}/p && yes > {tmp_path}/p"])  # 'y\n' forever
    try:
        for _ in range(600):
            if (tmp_path / "p").exists():
                break
            subprocess.run(["sleep", "0.05"])
        with pytest.raises(ModelLoadError, match=r"more than 3 MiB.*2 GiB"):
            modelio.load_model(tmp_path / "p")
    finally:
        writer.kill()
        writer.wait(60)


def test_a_regular_file_above_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(modelio, "MAX_MODEL_BYTES", 1 << 20)
    big = tmp_path / "big.onnx"
    with open(big, "wb") as f:
        f.truncate(2 << 20)  # sparse: nothing read, the size alone refuses it
    with pytest.raises(ModelLoadError, match="more than 1 MiB"):
        modelio.load_model(big)
