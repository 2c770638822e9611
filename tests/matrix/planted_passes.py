"""Passes that kill or hang the worker process, or break the model (a new finding), loaded with
--cases-from (tests only)."""

import os
import signal
import time

from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


def _segfault(model):
    os.kill(os.getpid(), signal.SIGSEGV)
    return model


def _hang(model):
    time.sleep(3600)
    return model


def _drop_last_node(model):
    del model.graph.node[-1]
    return model


for _id, _fn, _doc in (
    ("planted:segfault", _segfault, "segfaults the process"),
    ("planted:hang", _hang, "hangs the process"),
    ("planted:drop-last-node", _drop_last_node, "deletes the last node (an invalid model)"),
):
    if _id not in known_pass_ids():
        register_pass(FunctionAdapter(_id, _fn, doc=f"test pass: {_doc}"))
