"""What-if odds for a branch (issue 15 item 8): seeded bot continuations from a node, win rate per House with a
95% Clopper-Pearson interval, mean spice and settlements at the end; deterministic for a seed."""

from __future__ import annotations

import pandas as pd
import pytest

from dunenb.analysis.whatif import NO_WINNER, odds_table, whatif_odds
from dunenb.engine import make_config
from dunenb.errors import InputError
from dunenb.play import advance
from dunenb.record import GameRecord

HOUSES = ["atreides", "harkonnen", "fremen"]


@pytest.fixture(scope="module")
def record():
    record = GameRecord(make_config(HOUSES, seed=3, turn_limit=4))
    advance(record, record.root, until="turn", seed=3)
    return record


def test_whatif_odds_is_deterministic_for_a_seed_and_sums_to_one(record):
    node = record.leaf()
    first = whatif_odds(record, node, n=5, seed=9, bots="random", progress=False)
    again = whatif_odds(record, node, n=5, seed=9, bots="random", progress=False)
    pd.testing.assert_frame_equal(first, again)
    assert list(first["house"]) == [*HOUSES, NO_WINNER]
    assert first["wins"].sum() == 5 and first["win_rate"].sum() == pytest.approx(1.0)
    assert (first["ci_low"] <= first["win_rate"]).all() and (first["win_rate"] <= first["ci_high"]).all()
    assert first.loc[first["house"] != NO_WINNER, "mean_spice"].notna().all()


def test_whatif_continuations_differ_between_seeds(record):
    node = record.leaf()
    tables = [whatif_odds(record, node, n=3, seed=s, bots="random", progress=False) for s in (1, 2)]
    assert not tables[0]["mean_spice"].equals(tables[1]["mean_spice"])


def test_whatif_interval_is_clopper_pearson():
    results = [{"winner": "atreides", "spice": {"atreides": 1}, "settlements": {"atreides": 2}}] * 3 + \
              [{"winner": None, "spice": {"atreides": 3}, "settlements": {"atreides": 0}}]
    table = odds_table(results, ["atreides"]).set_index("house")
    # 3 of 4: the exact interval is [0.1941, 0.9937] (Clopper-Pearson 1934)
    assert table.loc["atreides", "ci_low"] == pytest.approx(0.19412, abs=1e-4)
    assert table.loc["atreides", "ci_high"] == pytest.approx(0.99369, abs=1e-4)
    assert table.loc["atreides", "mean_spice"] == 1.5 and table.loc["atreides", "mean_settlements"] == 1.5
    assert table.loc[NO_WINNER, "wins"] == 1


def test_whatif_on_dask_gives_the_same_table(record):
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0")
    try:
        with distributed.Client(cluster) as client:
            on_dask = whatif_odds(record, record.leaf(), n=3, seed=4, bots="random", progress=False, dask=client)
    finally:
        cluster.close()
    pd.testing.assert_frame_equal(on_dask, whatif_odds(record, record.leaf(), n=3, seed=4, bots="random",
                                                       progress=False))


@pytest.mark.parametrize("kwargs, code", [({"n": 0}, "whatif/n"), ({"n": 2, "bots": "nobody"}, "whatif/bots"),
                                          ({"n": 2, "bots": ["random"]}, "whatif/bots")])
def test_whatif_arguments_are_checked(record, kwargs, code):
    with pytest.raises(InputError) as error:
        whatif_odds(record, record.leaf(), progress=False, **kwargs)
    assert error.value.code == code
