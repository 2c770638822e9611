"""Re-check one evidence record of a coverage JSON: build its base again and observe it under its tool.

A record holds the entry key and the base id (``case-id:form``); the entry's tool observes the
rebuilt base in the isolation worker, and the record holds when the entry is among the triggers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def recheck(evidence: Mapping[str, Any], executor) -> tuple[bool, str]:
    """(holds, the effect observed now or why it does not hold) for one evidence record.

    Raises:
        UnknownIdError: the base's case is not in the registry.
        PasscheckError: the record names no ``case-id:form``.
    """
    from passcheck.cases import registry
    from passcheck.coverage.worker import observe
    from passcheck.errors import PasscheckError

    base, entry = evidence["base"], evidence["entry"]
    case_id, sep, form = base.rpartition(":")
    if not sep:
        raise PasscheckError(f"evidence base {base!r} is not 'case-id:form'")
    tool = entry.split(":", 1)[0]
    model = registry().get(case_id).build(form)
    triggers = executor.call(observe, model, [tool])[0][tool]
    if entry in triggers:
        return True, triggers[entry]
    return False, triggers.get("!error") or f"{base} no longer triggers {entry}"
