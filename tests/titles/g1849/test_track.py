"""1849 track hooks: gauge-matching rotations and terrain cost by added gauge (1849 rules §3)."""

from __future__ import annotations

import pytest

from stellwerk.core.errors import IllegalAction
from stellwerk.core.map.graph import GraphCache
from stellwerk.core.map.lay import LayOptions, check_lay, legal_lays
from stellwerk.core.policy import RECORDED
from stellwerk.titles.g1849.rules.track import new_board, track_rules

ALL = ("yellow", "green", "brown")


def opts(discount: bool = False, **kw: object) -> LayOptions:
    rules = track_rules(lambda corp: discount)
    return LayOptions(phase_colors=ALL, rules=rules, **kw)  # type: ignore[arg-type]


def test_new_narrow_track_pays_a_quarter() -> None:
    """1849 rules §3.3: only narrow track added -> terrain / 4 (L12: 160 -> 40)."""
    b = new_board()
    g = GraphCache(b)
    b.place_token_at("M13", 0, "ATA")
    assert check_lay(b, g, "ATA", "L12", "78-0", 5, opts()) == 40


def test_gauge_must_match_neighbouring_track() -> None:
    """1849 rules §3.2: a broad exit may not meet M13's narrow stub (no token in L12)."""
    b = new_board()
    g = GraphCache(b)
    b.place_token_at("M13", 0, "ATA")
    with pytest.raises(IllegalAction, match="gauge"):
        check_lay(b, g, "ATA", "L12", "9-0", 2, opts())
    lays = legal_lays(b, g, "ATA", "L12", opts())
    assert ("78-0", 5) in lays and all(t.startswith(("77", "78", "79")) for t, _ in lays)


def test_token_in_hex_lifts_gauge_rule() -> None:
    """1849 rules §3.2: with a token in the hex any rotation that passes the generic rules."""
    b = new_board()
    g = GraphCache(b)
    b.place_token_at("J6", 0, "SFA")
    assert check_lay(b, g, "SFA", "J6", "657-0", 2, opts()) == 40


def test_broad_added_full_or_half_with_discount() -> None:
    """1849 rules §3.3 / §4.2: broad added pays full, half with SIGI (M11: 40 -> 20, as in
    fixture 27939 #197)."""
    b = new_board()
    g = GraphCache(b)
    b.place_token_at("M11", 0, "ATA")
    assert check_lay(b, g, "ATA", "M11", "670-0", 4, opts()) == 40
    assert check_lay(b, g, "ATA", "M11", "670-0", 4, opts(discount=True)) == 20


def test_dual_added_pays_full_even_with_discount() -> None:
    """1849 rules §3.3: dual track added -> full cost, no SIGI discount in 18xx.games."""
    b = new_board()
    g = GraphCache(b)
    b.lay_tile("M11", "670-0", 4)
    b.place_token_at("M11", 0, "ATA")
    assert check_lay(b, g, "ATA", "M11", "674-0", 4, opts(discount=True)) == 40


def test_terrain_is_paid_again_on_upgrade() -> None:
    """1849 rules §3.3: the printed terrain is paid at every lay on the hex."""
    b = new_board()
    g = GraphCache(b)
    b.lay_tile("D4", "73-0", 2)
    b.place_token_at("C5", 0, "RCS")
    assert check_lay(b, g, "RCS", "D4", "681-0", 2, opts(policy=RECORDED)) == 40


def test_sms_lay_needs_no_connection() -> None:
    """1849 rules §4.6: SMS lays in one of the given cities without connection."""
    b = new_board()
    g = GraphCache(b)
    sms = opts(teleport=("B14", "C5"))
    assert check_lay(b, g, "SFA", "B14", "655-0", 0, sms) == 0
    with pytest.raises(IllegalAction):
        check_lay(b, g, "SFA", "H8", "644-0", 0, sms)
    with pytest.raises(IllegalAction, match="reach"):
        check_lay(b, g, "SFA", "B14", "655-0", 0, opts())


def test_blocked_and_frozen_hexes() -> None:
    """1849 rules §3.4 (SCE blocks G13, skipped on replay) and §3.5 (Messina frozen)."""
    b = new_board()
    g = GraphCache(b)
    b.place_token_at("H12", 0, "IFT")
    with pytest.raises(IllegalAction, match="blocked"):
        check_lay(b, g, "IFT", "G13", "58-0", 1, opts(blocked={"G13"}))
    assert check_lay(b, g, "IFT", "G13", "58-0", 1, opts(blocked={"G13"}, policy=RECORDED)) == 0
    with pytest.raises(IllegalAction, match="upgraded now"):
        check_lay(b, g, "IFT", "B14", "655-0", 0, opts(frozen={"B14"}, policy=RECORDED))
