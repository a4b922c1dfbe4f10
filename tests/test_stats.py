"""Win-rate statistics (delve_env/stats.py): the paired difference's interval and McNemar's
exact test against worked numbers from the literature, and their edge cases."""

import math

import pytest

from delve_env.stats import (
    mcnemar,
    paired_difference,
    pairs,
    runs_difference,
    runs_interval,
    t_quantile,
    t_two_sided,
    wilson,
)

pytestmark = pytest.mark.fast


def test_newcombe_s_paired_interval_matches_the_textbook_example():
    # Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8:
    # complete response before and after consolidation therapy (Cavo et al., 2012),
    # table (59, 6, 16, 80): the Newcombe square-and-add interval -0.0621 (-0.1186 to -0.0046)
    diff, low, high = paired_difference((59, 6, 16, 80))
    assert (round(diff, 4), round(low, 4), round(high, 4)) == (-0.0621, -0.1186, -0.0046)
    # the same table read the other way round: the interval mirrors
    diff2, low2, high2 = paired_difference((59, 16, 6, 80))
    assert (diff2, low2, high2) == pytest.approx((-diff, -high, -low))


def test_mcnemar_exact_p_value_against_the_binomial_by_hand():
    # 6 and 16 discordant pairs: 2 * P(X <= 6), X ~ Binomial(22, 1/2)
    by_hand = 2 * sum(math.comb(22, k) for k in range(7)) / 2**22
    assert mcnemar((59, 6, 16, 80)) == pytest.approx(by_hand) == pytest.approx(0.052479, abs=1e-6)
    assert mcnemar((10, 1, 9, 5)) == pytest.approx(2 * 11 / 1024)  # 1 of 10: 0.0215
    assert mcnemar((3, 4, 4, 3)) == 1.0  # an even split
    assert mcnemar((5, 0, 0, 5)) == 1.0  # no discordant pair
    assert mcnemar((0, 0, 8, 0)) == pytest.approx(2 / 256)


def test_identical_outcomes_give_no_difference_and_an_interval_around_zero():
    for table in ((200, 0, 0, 0), (0, 0, 0, 200), (120, 0, 0, 80)):
        diff, low, high = paired_difference(table)
        assert diff == 0.0 and low < 0.0 < high
        assert mcnemar(table) == 1.0
    # a few discordant pairs each way: the interval still holds 0
    diff, low, high = paired_difference((90, 3, 4, 103))
    assert low < 0 < high and mcnemar((90, 3, 4, 103)) == 1.0


def test_a_large_paired_change_excludes_zero_and_stays_within_bounds():
    diff, low, high = paired_difference((0, 100, 0, 0))  # every seed won before, none after
    assert diff == 1.0 and 0.9 < low < 1.0 and high == 1.0
    diff, low, high = paired_difference((48, 1, 40, 11))
    assert diff == pytest.approx(-0.39) and high < 0 and low > -1
    assert mcnemar((48, 1, 40, 11)) < 1e-9


def test_pairs_counts_the_table_and_refuses_unequal_lengths():
    first = [True, True, False, False, True]
    second = [True, False, True, False, False]
    assert pairs(first, second) == (1, 2, 1, 1)
    with pytest.raises(ValueError, match="as many"):
        pairs([True], [True, False])


def test_wilson_interval_is_the_score_interval():
    low, high = wilson(81, 263)  # Wilson (1927) / Newcombe (1998) example: 0.2553 to 0.3662
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson(0, 0) == (0.0, 1.0)


def test_student_t_against_its_tables():
    # the two-sided 95% quantiles of any t table, and the normal's in the limit
    for df, t in ((1, 12.706), (2, 4.303), (4, 2.776), (10, 2.228), (30, 2.042)):
        assert t_quantile(df) == pytest.approx(t, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(1.960, abs=1e-3)
    assert t_quantile(4, 0.99) == pytest.approx(4.604, abs=1e-3)
    # P(|T| >= 2) at 10 degrees of freedom, and at 1 (the Cauchy: 1 - 2 atan(2) / pi)
    assert t_two_sided(2.0, 10) == pytest.approx(0.07339, abs=1e-5)
    assert t_two_sided(2.0, 1) == pytest.approx(1 - 2 * math.atan(2) / math.pi, abs=1e-9)
    assert t_two_sided(0.0, 5) == pytest.approx(1.0)


def test_runs_difference_by_hand():
    # rates 0.90 / 0.92 / 0.88 against 0.85 / 0.86 / 0.84: difference 0.05; pooled variance
    # (0.0008 + 0.0002) / 4, standard error sqrt(0.00025 * 2 / 3) = 0.012910, t = 3.873 on 4
    # degrees of freedom: the interval 0.05 -+ 2.776 * 0.012910, p = 0.0179
    got = runs_difference([0.90, 0.92, 0.88], [0.85, 0.86, 0.84])
    assert got["difference"] == pytest.approx(0.05)
    assert got["interval"] == pytest.approx((0.01416, 0.08584), abs=1e-5)
    assert got["p"] == pytest.approx(0.0179, abs=1e-4) and got["real"] and got["df"] == 4
    # the same means with thrice the spread: the interval takes 0 in, no star
    wide = runs_difference([0.95, 0.92, 0.83], [0.88, 0.86, 0.81])
    assert wide["difference"] == pytest.approx(0.05) and not wide["real"]
    assert wide["interval"][0] < 0 < wide["interval"][1] and wide["p"] > 0.05
    # one run a side: its spread cannot be measured, so nothing is ever starred
    one = runs_difference([0.99], [0.01])
    assert not one["real"] and one["interval"] == (-1.0, 1.0) and one["p"] == 1.0
    with pytest.raises(ValueError, match="at least one run"):
        runs_difference([], [0.5])


def test_runs_interval_is_t_over_the_runs_inside_0_1():
    # mean 0.9, sd 0.02 over 3 runs: 0.9 -+ 4.303 * 0.02 / sqrt(3)
    low, high = runs_interval([0.88, 0.90, 0.92])
    assert (low, high) == pytest.approx((0.9 - 0.049683, 0.9 + 0.049683), abs=1e-5)
    assert runs_interval([0.99, 1.0, 1.0])[1] == 1.0
    assert runs_interval([0.5]) == (0.0, 1.0)
