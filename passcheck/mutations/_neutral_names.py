"""The names of :mod:`passcheck.mutations.neutral_ops`' sites (``VALUE:NAME``) and the op type each puts on
the value: a leaf module, so :mod:`passcheck.mutations.sites` reads site signatures without importing the
rewrites."""

_NAMES = (
    "add-zero",
    "sub-zero",
    "mul-one",
    "div-one",
    "and-true",
    "or-false",
    "reduce-sum-noop",
    "reduce-max-noop",
    "reduce-min-noop",
    "cast-same",
    "castlike-self",
    "dropout-inference",
    "clip-unbounded",
    "sum-one",
    "max-one",
    "min-one",
    "mean-one",
    "where-true",
    "not-not",
    "transpose-identity",
    "reshape-zeros",
    "slice-full",
    "expand-ones",
    "concat-one",
    "pad-zeros",
    "tile-ones",
    "unsqueeze-squeeze",
    "split-one",
)
#: name → the op type a pattern matcher then sees reading the value (the first node the op adds).
OP_TYPES = {
    **{n: n.split("-")[0].capitalize() for n in _NAMES},
    "reduce-sum-noop": "ReduceSum",
    "reduce-max-noop": "ReduceMax",
    "reduce-min-noop": "ReduceMin",
    "castlike-self": "CastLike",
    "where-true": "Where",
    "transpose-identity": "Transpose",
    "unsqueeze-squeeze": "Unsqueeze",
}
