"""The version matrix: the same model bytes through pinned onnx / onnxruntime / onnxscript
environments, one report.

Catalogue:

- :mod:`~passcheck.matrix.envs` — :class:`EnvSpec` from a pins file (id, pins, hash).
- :mod:`~passcheck.matrix.create` — create and cache environments with uv.
- :mod:`~passcheck.matrix.plan` — model bytes built once, units (env, case, pass), shards.
- :mod:`~passcheck.matrix.worker` — runs inside an environment, streams JSON lines.
- :mod:`~passcheck.matrix.runner` — orchestration: parallel workers, timeouts, crashes, resume.
- :mod:`~passcheck.matrix.progress` — bar on a terminal, plain lines in CI.
- :mod:`~passcheck.matrix.report` — environments-as-columns tables and cross-env differences.
- :mod:`~passcheck.matrix.merge` — join shard outputs; refuse missing shards and mismatched plans.
- :mod:`~passcheck.matrix.verdict` — per-environment baseline, notes, exit code (matrix and merge).

Nothing here imports onnx or onnxruntime in the parent process.
"""
