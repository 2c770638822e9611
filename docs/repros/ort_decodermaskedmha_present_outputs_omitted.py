"""onnxruntime's CPU kernel of the com.microsoft DecoderMaskedMultiHeadAttention kills its process (SIGSEGV) when
``past_present_share_buffer`` is 1 and the optional outputs ``present_key`` / ``present_value`` are left off. The
schema makes both outputs optional (IR.md §Nodes: trailing optional outputs may be omitted) and the checker accepts
the node; the CPU kernel refuses ``past_present_share_buffer = 0`` with a status ("past_present_share_buffer_ was
false"), so the shared-buffer mode is the only one it runs, and there it writes the present buffers it was not given
instead of returning an error. The same node with the two outputs listed runs. Each form runs in a child process.
Exits 1 while the form without the present outputs dies; 0 once it runs or is refused with an error."""

import subprocess
import sys
import textwrap

import onnx
import onnxruntime as ort

CHILD = textwrap.dedent(
    """
    import sys
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto as T
    from onnx import helper as h

    outs = ["output"] + (["present_key", "present_value"] if sys.argv[1] == "listed" else [])
    node = h.make_node(
        "DecoderMaskedMultiHeadAttention",
        ["query", "key", "value", "", "", "past_key", "past_value", "past_sequence_length"],
        outs, domain="com.microsoft", num_heads=2, past_present_share_buffer=1,
    )
    shapes = {"query": [1, 1, 8], "key": [1, 1, 8], "value": [1, 1, 8], "past_key": [1, 2, 4, 4],
              "past_value": [1, 2, 4, 4]}
    g = h.make_graph(
        [node], "g", [h.make_tensor_value_info(n, T.FLOAT, s) for n, s in shapes.items()],
        [h.make_tensor_value_info(o, T.FLOAT, [None] * (3 if o == "output" else 4)) for o in outs],
        [h.make_tensor("past_sequence_length", T.INT32, [1], [2])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    rng = np.random.default_rng(0)
    feeds = {n: rng.standard_normal(s).astype(np.float32) for n, s in shapes.items()}
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    try:
        print("ran:", [o.shape for o in s.run(None, feeds)])
    except Exception as exc:
        print("refused:", str(exc)[-200:])
    """
)

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
codes = {}
for form in ("listed", "omitted"):
    p = subprocess.run([sys.executable, "-c", CHILD, form], capture_output=True, text=True, timeout=300)
    codes[form] = p.returncode
    print(f"present outputs {form}: exit {p.returncode}", (p.stdout.strip() or p.stderr.strip()[-300:]))
sys.exit(1 if codes["omitted"] < 0 and codes["listed"] == 0 else 0)
