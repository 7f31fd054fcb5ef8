"""How far to trust grounded verdicts: a Clopper–Pearson lower bound on their precision.

A proof is only as good as the assumptions behind it: that ``via`` really composes
(transitivity), that a fixed chain of relations means what the claim says (paths), and
that ``normalize`` never merges two different entities (normalisation). Each is measured
the same way: take held-out labelled pairs, keep those the graph grounds (or, for
normalisation, those the normaliser merges), count how many the labels confirm, and
report the one-sided Clopper–Pearson lower bound on the precision at level 1 − α.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypedDict

from scipy.special import betaincinv

from groundgraph.errors import InputError

LabeledPair = tuple[str, str, bool]


class Calibration(TypedDict):
    """What a calibration measured: ``n_confirmed`` of ``n_grounded`` scored pairs held."""

    n_grounded: int
    n_confirmed: int
    precision_lower_bound: float
    alpha: float


def clopper_pearson_lower(successes: int, trials: int, alpha: float = 0.1) -> float:
    """One-sided lower confidence bound (level 1 − alpha) on a binomial proportion.

    The p with P(Bin(n, p) ≥ k) = alpha, which is the alpha quantile of Beta(k, n − k + 1);
    0 when k = 0 and alpha^(1/n) when k = n. 10/10 at alpha 0.1 gives 0.794.
    """
    if not 0.0 < alpha < 1.0:
        raise InputError(f"alpha must be in (0, 1), got {alpha!r}")
    if trials < 0 or not 0 <= successes <= trials:
        raise InputError(f"need 0 ≤ successes ≤ trials, got {successes}/{trials}")
    if successes == 0:
        return 0.0
    # The alpha quantile of Beta(k, n - k + 1); betaincinv avoids importing scipy.stats.
    return float(betaincinv(successes, trials - successes + 1, alpha))


def precision_bound(outcomes: Iterable[bool], alpha: float = 0.1) -> Calibration:
    """The calibration record for the labels of the scored pairs (True = confirmed)."""
    labels = list(outcomes)
    confirmed = sum(labels)
    return Calibration(
        n_grounded=len(labels),
        n_confirmed=confirmed,
        precision_lower_bound=clopper_pearson_lower(confirmed, len(labels), alpha),
        alpha=alpha,
    )


def check_labeled_pairs(labeled_pairs: Iterable[Sequence[object]]) -> list[LabeledPair]:
    """The pairs as (subject, object, label) triples; InputError naming the first bad one."""
    checked: list[LabeledPair] = []
    for i, item in enumerate(labeled_pairs):
        if (
            isinstance(item, str)
            or len(item) != 3
            or not isinstance(item[0], str)
            or not isinstance(item[1], str)
            or not isinstance(item[2], bool)
        ):
            raise InputError(
                f"labeled pair #{i} must be (subject, object, label) with two strings and a "
                f"bool, got {item!r}"
            )
        checked.append((item[0], item[1], item[2]))
    return checked


def calibrate_grounding(
    grounded: Callable[[str, str], bool],
    labeled_pairs: Iterable[Sequence[object]],
    alpha: float = 0.1,
) -> Calibration:
    """Precision bound of a yes/no check on held-out pairs: only pairs it accepts are scored.

    ``GroundedReasoner.calibrate_transitivity`` and ``calibrate_path`` pass their own
    ``verify`` and ``verify_path`` here.
    """
    pairs = check_labeled_pairs(labeled_pairs)
    return precision_bound([label for a, b, label in pairs if grounded(a, b)], alpha)


def calibrate_normalization(
    normalize: Callable[[str], str] | None,
    labeled_pairs: Iterable[Sequence[object]],
    alpha: float = 0.1,
) -> Calibration:
    """Precision bound of the normaliser's merges: is a merged pair really one entity?

    Pairs are (spelling, spelling, same_entity). Only pairs of different spellings that
    the normaliser maps to the same key are scored.
    """
    if normalize is None:
        raise InputError(
            "calibrate_normalization needs a normalizer: create the reasoner with "
            "GroundedReasoner(normalize=...)"
        )
    merger = normalize
    return calibrate_grounding(lambda a, b: a != b and merger(a) == merger(b), labeled_pairs, alpha)
