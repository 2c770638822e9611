"""Execution: isolation workers that run jobs under a wall-time and a memory limit.

The layer above the data types and below the runtime and the passes. It runs any picklable
job ``job(model_bytes, workdir) -> reply`` (:class:`Worker`) and never imports what a job does:
pass runs (:mod:`passcheck.passes.isolation`) and model runs (:mod:`passcheck.runtime.isolated`)
are defined above it. Its error type, :class:`~passcheck.errors.WorkerDied`, is in
:mod:`passcheck.errors`.
"""

from passcheck.errors import WorkerDied
from passcheck.execution.process import OOM_MARKERS
from passcheck.execution.worker import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, UNPICKLABLE, Died, Worker

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "OOM_MARKERS", "UNPICKLABLE", "Died", "Worker", "WorkerDied"]
