"""18xx.games' never-asked token purchase after a replayed start of a closed corporation.

18xx.games queues the token purchase of every corporation start, and asks the head of that
queue only while its corporation is open; a closed historical corporation that a replay starts
(:func:`stellwerk.titles.g1841.stock.reopen_on_replay`) is never asked, and every later token
purchase of the same round waits behind it (random game s17 of 18xx.games' engine: SFTC's
transformation into CTDA after CGTF had started the closed SFL)."""

from __future__ import annotations

from dataclasses import replace

from stellwerk.core.entities import Player, move_share
from stellwerk.core.flow.base import act
from stellwerk.core.policy import LIVE, RECORDED
from stellwerk.titles.g1841 import frozen, merger, transform
from stellwerk.titles.g1841.decisions import Decisions, queue
from stellwerk.titles.g1841.game import Game1841
from stellwerk.titles.g1841.merging_steps import game_busy
from stellwerk.titles.g1841.ownership import historical
from stellwerk.titles.g1841.stock import stall_token_purchases

from .test_reopen import closed_sftn_in_phase_4
from .test_transform_tuscan import before_tuscan_merge


def test_replayed_reopening_leaves_a_token_purchase_that_a_new_round_forgets() -> None:
    """The end of the turn that reopened SFTN (historical, printed home) leaves its token
    purchase waiting: the round counts as busy (18xx.games gives no automatic merge pass
    then); the next round starts without it."""
    game = closed_sftn_in_phase_4()
    player = game.round.current_entity()
    game.policy = RECORDED
    game.process_action(act(player, "par", corporation="SFTN", share_price="68,4,2"))
    assert game.stalled_token_purchase is None
    game.process_action(act(player, "pass"))
    game.policy = LIVE
    assert game.stalled_token_purchase == "SFTN"
    assert game_busy(game) and not game.procedures
    game.round = game.new_operating_round(1)
    assert game.stalled_token_purchase is None and not game_busy(game)


def test_transformation_behind_a_never_asked_purchase_never_completes() -> None:
    """rules/1841.md 2.3.12 as 18xx.games plays it behind a waiting purchase: the share offers
    are asked, the required token is not; the transformation stops there -- SFMA is neither
    closed nor restarted, neither corporation is done for the round, and SFMA keeps only its
    unplaced tokens (its placed one became ATFA's)."""
    game, rnd = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    placed = len(game.map.board.token_hexes("SFMA"))
    tokens = sfma.num_tokens
    sftn = game.corporation("SFTN")
    sftn.closed = True
    stall_token_purchases(game, sftn)
    assert game.stalled_token_purchase == "SFTN"
    queue(game, transform.start_transform(game, sfma, atfa))
    decisions = Decisions(game, rnd)
    topics = []
    while (asked := decisions.asked()) is not None:
        topics.append(asked.topic)
        decisions.process({"type": "choose", "entity": 0, "choice": "no"}, asked.entity)
    assert topics and set(topics) == {"share_offer"}
    assert not game.procedures
    assert atfa.num_tokens == tokens and sfma.num_tokens == tokens - placed
    assert not sfma.closed and sfma.share_price is not None
    assert not {"SFMA", "ATFA"} & game.done_this_round


def test_only_a_printed_home_start_leaves_a_purchase_waiting() -> None:
    """18xx.games asks a corporation whose home city is chosen (a non-historical one) for the
    city first; only a historical start with printed homes queues the purchase at once."""
    game, _ = before_tuscan_merge()
    non_historical = next(c for c in game.corporations if not historical(game, c))
    stall_token_purchases(game, non_historical)
    assert game.stalled_token_purchase is None


def test_reopened_sfma_is_asked_nothing_and_nothing_waits() -> None:
    """Second edition: SFMA chooses its home city (rules/1841.md 2.2.3).  18xx.games drops
    that question of a reopened, closed SFMA at once (random game 3 players seed 112): no
    home token, no token purchase, and a corporation started later in the round is asked for
    its home as usual."""
    from stellwerk.titles.g1841.decisions import current
    from stellwerk.titles.g1841.events import close_unstarted

    game = closed_sftn_in_phase_4()
    close_unstarted(game, game.corporation("SFMA"))
    assert any(city < 0 for _, city in game.specs["SFMA"].homes)
    game.policy = RECORDED
    player = game.round.current_entity()
    game.process_action(act(player, "par", corporation="SFMA", share_price="68,4,2"))
    assert game.stalled_token_purchase is None and current(game) is None
    assert not game.map.board.token_hexes("SFMA") and not game_busy(game)
    other = game.round.current_entity()
    assert other is not player
    minor = next(
        c for c in game.corporations
        if not historical(game, c) and game.specs[c.sym].type == "minor" and not c.ipoed
    )  # fmt: skip
    game.process_action(act(other, "par", corporation=minor.sym, share_price="68,4,2"))
    found = current(game)
    assert found is not None and found[1].entity is minor and found[1].topic == "home_token"


def test_behind_a_never_asked_purchase_the_token_money_is_still_raised() -> None:
    """rules/1841.md 2.3.12 (Token EMR) as 18xx.games plays it behind a waiting purchase: the
    required token is never asked, but a target whose chain cannot pay L.50 must still raise
    it by emergency sales first -- 18xx.games sets its TokenEmergencyMoney step before it
    queues the purchase (its random games lite+sfli_run_variant 6 players seed 31006, CTS
    after FTP's transformation, action 742; lite+p2p+version_1 3 players seed 31012)."""
    from stellwerk.titles.g1841 import token_emr

    game, rnd = before_tuscan_merge()
    sfma, atfa = game.corporation("SFMA"), game.corporation("ATFA")
    sftn = game.corporation("SFTN")
    sftn.closed = True
    stall_token_purchases(game, sftn)
    president = transform.merger.controller(sfma)
    assert president is not None
    sfma.cash = 0
    president.cash = 0
    queue(game, transform.start_transform(game, sfma, atfa))
    decisions = Decisions(game, rnd)
    while (asked := decisions.asked()) is not None:
        assert asked.topic == "share_offer"
        decisions.process({"type": "choose", "entity": 0, "choice": "no"}, asked.entity)
    assert game.token_emr_due == ("ATFA", transform.REQUIRED_TOKEN_PRICE)
    assert token_emr.pending(game) is atfa and not token_emr.question_open(game)


def minor_left_to_a_restarted_president(refresh_at_once: bool) -> tuple[Game1841, str]:
    """SFMA's transformation stalls behind a never-asked purchase (it stays started, as
    above); its president's certificate then lies with a corporation that merges and restarts
    (a merger's end, rules/1841.md 2.3.11), as in 18xx.games' random game of the lite map
    with the SFLi variant, 6 players, seed 75506 (CTLP left presided by RSFS, actions 585 and
    609).  The frozen states were up to date before the restart; returns the game and the
    restarted corporation."""
    game, _ = before_tuscan_merge()
    game.settings = replace(game.settings, transformation_updates_frozen=refresh_at_once)
    sfma = game.corporation("SFMA")
    president = next(
        c for c in game.corporations if c.ipoed and c is not sfma and isinstance(c.owner, Player)
    )
    assert sfma.presidents_share is not None
    move_share(sfma.presidents_share, president)
    game.set_president(sfma, president)
    frozen.update(game)
    assert not frozen.is_frozen(game, sfma)
    merger.restart_corporation(game, president)
    merger.hold_frozen_after_restart(game, [president])
    return game, president.sym


def test_a_merger_restart_holds_the_frozen_state_of_a_minor_it_presided_rules_2_3_10() -> None:
    """18xx.games brings the frozen states up to date once a merger's exchanges are over, not
    after its old corporations restart: a stalled minor presided by one of them keeps its
    state (not frozen: an ordinary turn, may merge) until the next update, a share trade."""
    game, _ = minor_left_to_a_restarted_president(refresh_at_once=False)
    sfma = game.corporation("SFMA")
    assert game.frozen_held
    game.refresh_frozen("pass")
    assert not frozen.is_frozen(game, sfma)
    assert merger.is_frozen(game, sfma)  # its chain as it is now ends at no player
    game.operated_corps.add(sfma.sym)
    assert merger.mergeable(game, sfma)  # asked of the kept state, as 18xx.games does
    game.refresh_frozen("buy_shares")
    assert frozen.is_frozen(game, sfma) and not merger.mergeable(game, sfma)


def test_with_the_printed_update_the_minor_is_frozen_at_once_rules_2_3_10() -> None:
    """With the printed rules' update (rules/1841.md 2.3.9) nothing is held: the minor's chain
    ends at no player, so it is frozen after the action."""
    game, _ = minor_left_to_a_restarted_president(refresh_at_once=True)
    sfma = game.corporation("SFMA")
    assert not game.frozen_held
    game.refresh_frozen("pass")
    assert frozen.is_frozen(game, sfma)


def test_a_merger_restart_holds_nothing_when_no_started_corporation_was_its_own() -> None:
    """By the rules a merged corporation presides none (its certificates went to the new
    one): its restart holds nothing."""
    game, _ = before_tuscan_merge()
    restarted = next(c for c in game.corporations if c.ipoed and c.sym != "SFMA")
    for corp in game.corporations:
        assert corp.owner is not restarted or not corp.ipoed
    merger.restart_corporation(game, restarted)
    merger.hold_frozen_after_restart(game, [restarted])
    assert not game.frozen_held
