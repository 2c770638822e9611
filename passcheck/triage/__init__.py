"""``passcheck triage``: from saved runs and hunts to a ranked set of bug bundles (issue 31).

- :mod:`~passcheck.triage.sources`: read what to triage (``run --json`` reports, ``--save-run``
  folders, hunt folders) into cells;
- :mod:`~passcheck.triage.candidates`: group findings into candidate defects (one per tool,
  :class:`~passcheck.signature.Signature` and root cause) and rank them;
- :mod:`~passcheck.triage.known`: the shipped list of upstream reports (``known_upstream.json``);
- :mod:`~passcheck.triage.spec`: the spec source that makes a form valid;
- :mod:`~passcheck.triage.bundle`: one candidate's folder (the pair, ``repro.py``, ``REPORT.md``,
  ``candidate.json``);
- :mod:`~passcheck.triage.index`: ``index.md`` and ``docs/found.md``;
- :mod:`~passcheck.triage.run`: all of it within a time budget.
"""
