"""Every site a rewrite reports applies alone: ``apply(m, [label])`` changes exactly ``[label]``.

The labels of :class:`~passcheck.mutations._base.Rewrite` are those of the model as given (``#i:Sub``
for an unnamed Sub the rewrite turns into Add, not ``#i:Add``). A rewrite that labels a site after its
edit reports sites whose ``ID@LABEL`` form changes nothing, and ``iter_mutants`` (the hunt, ``check
--mutations``) drops such a form without a word: its single-site forms were never tried.

The forms below are a greedy cover of the library: together they give 105 rewrites at least two sites.
"""

from __future__ import annotations

import pytest

from passcheck.cases._registry import load_builtin
from passcheck.mutations.registry import REWRITES

COVER = (
    "fusion-gqa/llama:concat-axis-2",
    "data-prop/reshape-heads-int32-opset21:unsqueeze-negative",
    "control-flow/loop-scan-output:scan-output",
    "fusion-conv/pad-shared:common",
    "pattern-onnxscript/relu-relu:common",
    "fusion-norm/layernorm-r1:sub-duplicated",
    "const-fold/reshape-target:constant-nodes",
    "data-prop/fill-sub:int32",
    "pattern-ort-qdq/clip-quant:constant-nodes",
    "fusion-norm/layernorm-r1:keepdims0-unsqueeze",
    "pattern-onnxscript-ort/transpose-matmul-div-transpose:common",
    "broadcast/scalar-rank:rank1",
    "data-prop/fill-sub:cast-same",
    "non-tensor/sequence-at:sequence",
    "pattern-ort/transpose-pair:common",
    "data-prop/fill-sub:gather-negative",
    "pattern-onnxscript/clip-clip:common",
    "pattern-ort-qdq/clip-quant:zp-omitted",
    "shape/size-vs-reduceprod:sliced-product",
    "pattern-onnxscript/reshape-both-matmul-reshape:common",
    "control-flow/if-branch-constants:branch-constants-only",
    "pattern-onnxscript-ort/transpose-matmul-div-transpose:mul-quarter",
)

#: rewrites whose sites are not independent, each with why a single site may not apply alone
TOGETHER = {
    "axes-as-input": "every axes attribute moves with the one opset stamp: a selection must name them all",
    "axes-as-attribute": "every axes input moves with the one opset stamp: a selection must name them all",
    "merge-duplicate-nodes": "a node duplicates another only once the nodes it reads are merged",
    "reverse-topo-order": "a site is a node the whole reordering moves; alone it is deferred, which may not move it",
    "reverse-topo-order-bodies": "as reverse-topo-order, in each body",
}
# a rewrite at nested sites (M461) runs the rewrite on each body: its sites depend on each other as the rewrite's do
TOGETHER |= {f"in-body-{rid}": f"as {rid}, in a body or function lifted to a model" for rid in list(TOGETHER)}


def _model(ref: str):
    case_id, form = ref.rsplit(":", 1)
    (case,) = [c for c in load_builtin().select([case_id]) if c.id == case_id]
    return case.forms[form].build()


@pytest.mark.parametrize("ref", COVER)
def test_every_reported_site_applies_alone_and_names_itself(ref):
    model = _model(ref)
    wrong, checked = [], 0
    for rid, rewrite in REWRITES.items():
        if rid in TOGETHER:
            continue
        sites = rewrite.sites(model)
        if len(sites) < 2:
            continue  # one site: the all-at-once form is the single-site form
        for label in sites[:2]:
            checked += 1
            got = rewrite.apply(model, [label])
            changed = None if got is None else list(got[1].nodes)
            if changed != [label]:
                wrong.append(f"{rid}@{label}: changed {changed}")
    assert checked, f"{ref}: no rewrite has two sites here any more (pick another form for the cover)"
    assert not wrong, "\n".join(wrong)


def test_the_cover_still_reaches_the_rewrites_it_was_picked_for():
    models = [_model(ref) for ref in COVER]  # built once each, not once per rewrite
    reached = {
        rid for m in models for rid, rewrite in REWRITES.items() if rid not in TOGETHER and len(rewrite.sites(m)) >= 2
    }
    assert len(reached) >= 100, len(reached)
