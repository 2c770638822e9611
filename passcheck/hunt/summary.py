"""The summary of a hunt: one row per distinct signature (a rich table on a terminal, plain
tab-separated lines elsewhere), then each saved pair's reproduce command, then the signatures
grouped by root cause (:mod:`passcheck.hunt.groups`: pass, oracle, kind and pass rule, the
rewrites inside).

Columns: ``nodes`` the shrunk pair's node counts (common/uncommon), ``hits`` the findings that
counted for the signature, ``reproduces`` whether the saved case module shows it again, ``in case``
whether the base's case shows a finding of the same pass, oracle and kind on its own forms (the
hand-written or generated library already has it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

COLUMNS = ("#", "pass", "oracle", "kind", "ops", "rewrite", "nodes", "hits", "reproduces", "in case", "case")


def rows(signatures: dict[str, dict[str, Any]]) -> list[tuple[str, ...]]:
    out = []
    for i, rec in enumerate(signatures.values(), 1):
        s = rec["signature"]
        nodes = "{}/{}".format(*rec["nodes"]) if rec.get("nodes") else "-"
        repro = {True: "yes", False: "no"}.get(rec.get("reproduces"), "-")
        library = "-" if "library" not in rec else "yes" if rec["library"] else "no"
        out.append(
            (
                str(i),
                s["pass_id"],
                s["oracle"],
                s["kind"],
                ",".join(s["ops"]) or "-",
                s["rewrite"],
                nodes,
                str(rec["hits"]),
                repro,
                library,
                rec.get("case") or rec.get("note", ""),
            )
        )
    return out


def nothing_checked_line(items: list[dict[str, Any]]) -> str | None:
    """The line that fails a hunt whose ``items`` (the ones this run added) hold none with status ``done``
    (no pair ran its pass: a budget spent before the first item, every pair refused by the gate or cut
    short); None when one ran."""
    if any(rec.get("status") == "done" for rec in items):
        return None
    statuses: dict[str, int] = {}
    for rec in items:
        statuses[rec.get("status", "?")] = statuses.get(rec.get("status", "?"), 0) + 1
    tried = ", ".join(f"{n} {k}" for k, n in sorted(statuses.items())) or "none tried"
    return f"NOTHING CHECKED: no item ran its pass in this hunt (items: {tried}); raise --budget or choose other cases"


def table(signatures: dict[str, dict[str, Any]], stream: TextIO) -> None:
    """Print the summary of ``signatures`` (a :class:`~passcheck.hunt.store.Store`'s) to ``stream``."""
    if not signatures:
        print("no finding the rewrites are to blame for", file=stream)
        return
    body = rows(signatures)
    if stream.isatty():
        from rich.console import Console
        from rich.table import Table

        t = Table(title=f"{len(body)} distinct signatures (nodes: common/uncommon of the shrunk pair)")
        for c in COLUMNS:
            t.add_column(c, overflow="fold")  # a narrow terminal folds a cell, never cuts it
        for r in body:
            t.add_row(*r)
        Console(file=stream).print(t)
    else:
        print("\t".join(COLUMNS), file=stream)
        for r in body:
            print("\t".join(r), file=stream)
    for i, rec in enumerate(signatures.values(), 1):
        if rec.get("repro"):
            print(f"#{i} reproduce: {rec['repro']}", file=stream)
        else:
            f = rec["found_on"]
            print(f"#{i} found on {f['base']} rewritten as {f['form']} under {f['pass']}: {f['message']}", file=stream)
        for line in window_lines(rec):
            print(f"#{i} {line}", file=stream)
    for line in cause_lines(signatures):
        print(line, file=stream)


def cause_lines(signatures: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One line per root cause (:func:`passcheck.hunt.groups.group`): its key, the signatures in it
    (their ``#`` in the table), hits, the rewrites and the signature with the smallest shrunk pair."""
    from passcheck.hunt.groups import group

    number = {k: i for i, k in enumerate(signatures, 1)}
    groups = group(signatures)
    out = [f"root causes: {len(groups)} groups of {len(signatures)} signatures (pass, oracle, kind, pass rule):"]
    for n, g in enumerate(groups, 1):
        out.append(
            f"cause {n}: {g.label} {g.oracle} {g.kind}: {g.rule}; {len(g.keys)} signatures "
            f"(#{', #'.join(str(number[k]) for k in g.keys)}), {g.hits} hits; rewrites: {', '.join(g.rewrites)}; "
            f"smallest pair: #{number[g.smallest()]}"
        )
    return out


def window_lines(rec: Mapping[str, Any]) -> list[str]:
    """A signature's version window and its bisect command (``hunt --env``), else nothing."""
    from passcheck.hunt.windows import window_text

    if not rec.get("window"):
        return []
    return [f"window: {window_text(rec['window'])}", *([f"bisect: {rec['bisect']}"] if rec.get("bisect") else [])]


def coverage_lines(cmap, before: Iterable[Mapping[str, Any]], after: Iterable[Mapping[str, Any]]) -> list[str]:
    """Per tool: catalogue entries with at least one spelling tried before this run and after it,
    of the entries the bases trigger and of the catalogue (items from a hunt's state)."""
    from passcheck.coverage.report import tried

    was, now = tried(list(before), cmap), tried(list(after), cmap)
    out = ["coverage (catalogue entries with a spelling tried under them, before -> after this run):"]
    tools = dict.fromkeys(e.tool for e in cmap.entries.values())
    for tool in tools:
        keys = [k for k, e in cmap.entries.items() if e.tool == tool]
        reach = [k for k in keys if cmap.triggered(k)]
        n0, n1 = sum(k in was for k in reach), sum(k in now for k in reach)
        pairs0 = sum(len(was[k]["forms"]) for k in reach if k in was)
        pairs1 = sum(len(now[k]["forms"]) for k in reach if k in now)
        out.append(
            f"  {tool}: {n0} -> {n1} of {len(reach)} triggered entries ({len(keys)} in the catalogue); "
            f"(entry, spelling) pairs {pairs0} -> {pairs1}"
        )
    return out


def pass_lines(
    passes: Iterable[str],
    items: Iterable[Mapping[str, Any]],
    signatures: Mapping[str, Mapping[str, Any]],
    cases_of: Callable[[str], int | None] = lambda p: None,
) -> list[str]:
    """The passes searched: per pass the items run (steps another shard ran left out), the distinct
    signatures of that pass and, without ``--pass``, how many cases draw from it (``cases_of``);
    a pass outside :data:`~passcheck.passes.DEFAULT_PASSES` is marked."""
    from collections import Counter

    from passcheck.hunt.store import OTHER_SHARD
    from passcheck.passes import DEFAULT_PASSES

    ran = Counter(r["pass"] for r in items if r["status"] != OTHER_SHARD)
    found = Counter(rec["signature"]["pass_id"] for rec in signatures.values() if rec.get("signature"))
    planned = list(passes)
    passes = list(dict.fromkeys([*planned, *ran, *found]))  # ``input``: a form onnxruntime cannot run
    out = [f"passes searched ({len(planned)}; items, distinct signatures):"]
    for p in passes:
        n = cases_of(p) if p in planned else None
        extra = ("" if n is None else f", {n} cases") + ("" if p in DEFAULT_PASSES else ", not a default")
        out.append(f"  {p}: {ran.get(p, 0)} items, {found.get(p, 0)} signatures{extra}")
    return out


def reproduce(rec: Mapping[str, Any]) -> str:
    """A signature's reproduce command, or where it was found when it has no saved pair."""
    if rec.get("repro"):
        return rec["repro"]
    f = rec.get("found_on") or {}
    return f"found on {f.get('base')} rewritten as {f.get('form')} under {f.get('pass')}: {f.get('message', '')}"


def status_counts(items: Iterable[Mapping[str, Any]]) -> str:
    """``N done, M base-fails, …`` over item records (steps another shard ran left out), then how many equivalent
    neighbours were also judged as pairs, by the pair's status (``; K also judged as pairs (K done)``), and how
    many items were rewrites of a neighbour (:mod:`.compose`), by status."""
    from collections import Counter

    from passcheck.hunt.compose import is_composed
    from passcheck.hunt.store import OTHER_SHARD

    ran = [r for r in items if r["status"] != OTHER_SHARD]
    statuses = Counter(r["status"] for r in ran)
    out = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "no item"
    pairs = Counter(r["pair"]["status"] for r in ran if r.get("pair"))  # equivalent neighbours (.vary_equiv)
    if pairs:
        out += (
            f"; {sum(pairs.values())} also judged as pairs ("
            + ", ".join(f"{n} {s}" for s, n in sorted(pairs.items()))
            + ")"
        )
    composed = Counter(r["status"] for r in ran if is_composed(r["form"]))
    if composed:
        out += (
            f"; {sum(composed.values())} of them rewrites of a neighbour ("
            + ", ".join(f"{n} {s}" for s, n in sorted(composed.items()))
            + ")"
        )
    return out


def _where(key: str, rec: Mapping[str, Any]) -> str:
    """``, known (found.md row N)`` for a documented signature (:mod:`.documented`), else ``""``."""
    from passcheck.hunt.documented import label, which

    entry = which(key, rec)
    return "" if entry is None else f", known ({label(entry)})"


def markdown(
    signatures: dict[str, dict[str, Any]], items: list[Mapping[str, Any]], known: Mapping[str, Any] | None, title: str
) -> str:
    """The hunt's summary in GitHub Markdown (``$GITHUB_STEP_SUMMARY``): new signatures with the
    shrunk pair's node counts and reproduce command, known ones counted, noise per category.

    ``known``: the baseline's entries (:func:`passcheck.hunt.baseline.load`); None: every signature is new."""
    from passcheck.hunt import noise
    from passcheck.hunt.baseline import split
    from passcheck.hunt.store import OTHER_SHARD

    new, old = split(signatures, known or {})
    ran = [r for r in items if r["status"] != OTHER_SHARD]
    esc = lambda text: str(text).replace("|", "\\|").replace("\n", " ")  # noqa: E731 - one table cell
    out = [
        f"## {esc(title)}",
        "",
        f"{len(ran)} items ({status_counts(ran)}); {len(signatures)} distinct signatures: **{len(new)} new**, "
        f"{len(old)} known" + ("" if known is not None else " (no baseline)"),
        "",
    ]
    if new:
        from passcheck.hunt.groups import group

        number = {k: i for i, k in enumerate(new, 1)}
        groups = group(new)
        out += [
            f"### New signatures by root cause ({len(groups)} causes)",
            "",
            "| cause | pass | oracle | kind | rule | signatures | hits | rewrites | smallest pair |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for n, g in enumerate(groups, 1):
            sigs = ", ".join(f"#{number[k]}" for k in g.keys)
            cells = [str(n), g.label, g.oracle, g.kind, g.rule, f"{len(g.keys)}: {sigs}", str(g.hits)]
            cells += [", ".join(g.rewrites), f"#{number[g.smallest()]}"]
            out.append("| " + " | ".join(map(esc, cells)) + " |")
        out += [
            "",
            "### New signatures",
            "",
            "| # | pass | oracle | kind | ops | rewrite | nodes | hits | reproduce |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r, rec in zip(rows(new), new.values()):
            out.append("| " + " | ".join([*map(esc, r[:8]), f"`{esc(reproduce(rec))}`"]) + " |")
        out.append("")
        out += [f"- #{r[0]} {esc(x)}" for r, rec in zip(rows(new), new.values()) for x in window_lines(rec)]
        out += [""] if any(rec.get("window") for rec in new.values()) else []
    else:
        out += ["No new signature.", ""]
    if old:
        hits = sum(rec.get("hits", 0) for rec in old.values())
        out += [
            f"<details><summary>{len(old)} known signatures seen again ({hits} hits)</summary>",
            "",
            *(f"- `{esc(k)}` ({rec.get('hits', 0)} hits){_where(k, rec)}" for k, rec in old.items()),
            "",
            "</details>",
            "",
        ]
    found = noise.counts(ran)
    out += ["### Noise (neither findings nor signatures)", ""]
    for cat, label in noise.LABELS.items():
        slot = found.get(cat)
        if not slot:
            out.append(f"- {label}: 0 items")
            continue
        top, n = max(slot["reasons"].items(), key=lambda kv: kv[1])
        reasons = len(slot["reasons"])
        out.append(f"- {label}: {slot['items']} items, {reasons} distinct reasons; commonest ({n}): {esc(top)}")
    return "\n".join(out) + "\n"
