"""``passcheck hunt``: a budgeted, resumable search for pass bugs over base models × rewrites × passes.

Modules, one concept each:

- :mod:`.space` — base models (forms of hand-written and generated cases) and items;
- :mod:`.forms` — form ids (``rewrite``, ``rewrite@site``, ``a+b``) → rewritten models;
- :mod:`.scheduler` — coverage-guided choice of the next item (deterministic under a seed);
- :mod:`.probe` — one pair under one pass: the gate, the oracles, what the rewrite is to blame for;
- :mod:`.variation` — neighbours of a base (one constant, shape, attribute or elem_type change from the schemas);
- :mod:`.vary_bindings` — run-condition variants of a base (its dim_params bound otherwise, other float feeds);
- :mod:`.vary_probe` — one neighbour under one pass: valid or dropped, what the variation is to blame for;
- :mod:`.signature` — what makes two findings the same bug;
- :mod:`.shrink` — fewest rewrite parts, sites, then nodes;
- :mod:`.store` — the state in ``--out`` (``--resume``) and the saved case modules;
- :mod:`.budget` / :mod:`.search` — the budget and the loop (``--shard I/N`` of one item sequence);
- :mod:`.noise` — environment facts, documented tool limits, budget artefacts: counted, never signatures;
- :mod:`.baseline` — known signatures (``--baseline`` / ``--write-baseline``);
- :mod:`.merge` — sharded hunts joined into one state (``passcheck merge``);
- :mod:`.summary` — the signature table, its Markdown (``summary.md``), coverage before/after.
"""
