"""Where a replay follows 18xx.games rather than the printed rules: the checks policy.

A game file is replayed as 18xx.games loads it (common rules §3.6): its engine skips some
legality checks while loading a file (``@game.loading``: the position of a tile lay, the reach
of a token, the revenue of a run), and a few of its checks are laxer than the printed rules, so
real files hold actions the printed rules refuse.  Rule code does not ask whether a file is
being loaded; it asks the game's :class:`Policy` (``Game.policy``) for the one decision it
makes, by name.  Live play uses :data:`LIVE` (every printed rule checked); replaying a recorded
file (``stellwerk.api.Game.from_file``, ``process(replay=True)``, checkpoints, the history)
uses :data:`RECORDED`.

Every field is True where the printed rule is checked: :data:`LIVE` has every field True and
:data:`RECORDED` every field False (``tests/unit/core/test_policy.py`` keeps it so, and keeps
rule code from asking for a file being loaded).  Shape, colour, supply, money, slots and the
order of play are checked in both (they are not fields here).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Policy:
    """Which checks run: True, live play's way (the printed rule is checked, before anything
    changes); False, the action is taken as the recorded file has it, as 18xx.games takes it
    while loading a file."""

    lay_position: bool
    """Where a tile may go and how it is turned (common rules §6.3.5-6.3.7): the hex is not
    blocked by a private company, the corporation reaches it (or it is a teleport hex), the
    rotation's new exits face linked hexes and one of them is reached, the title's own lay
    rules hold (``TrackRules.legal_rotation`` such as gauge matching, fixed rotations, lays
    from bases no earlier lay of the turn used), and the lay reaches new track or a changed
    value.  18xx.games skips all of these while loading a file (``Step::Tracker``: the
    blocking ability, ``legal_tile_rotation?``, ``check_track_restrictions!`` under
    ``@game.loading``; common rules §3.6 item 4), so files laid under older engine versions
    replay."""

    token_reach: bool
    """A token placed must go into a city the corporation reaches (common rules §6.4), and a
    token bought from another corporation must be one the title's rules let the buyer replace
    (in a city it reaches, the seller keeping a token on the map, the buyer not on that hex
    yet).  18xx.games skips both while loading a file (``Step::Token``/``Tokener``
    ``check_connected``, the titles' ``BuyToken`` ``can_replace_token?``; common rules §3.6
    item 4)."""

    run_revenue: bool
    """A run is checked and its revenue computed by the rules (common rules §6.1), and a
    claimed revenue without routes (games imported from reports that record only the total)
    must be one the best routes reach.  A replay takes the revenue the file records, as
    18xx.games does while loading (common rules §3.6 item 4, §7: a replay must not depend on
    recomputed revenue)."""

    printed_starts: bool
    """A corporation starts only as the title's printed rules allow: a closed corporation is
    never started again, a corporation formed by an event is never started by a par, and a
    corporation starts only while a city can take its home token.  18xx.games' ``can_par?``
    looks at none of these, so recorded files hold such starts; a replay takes them as
    18xx.games has them (a reopened corporation's certificates at the least par price, its
    home tokens in the first city with room, its token purchase stalled)."""

    trial_copy: bool
    """A procedure that cannot check an answer before changing the game (a merger whose
    exchange the rules refuse when it ends without a president or with a new circular chain
    of control) tries it on a copy first, so a refused answer leaves the game as it was.  A
    recorded file's refusal ends its replay and ``stellwerk.api.Game`` rebuilds the engine
    from a checkpoint, so no half-changed game is used and the copy (most of a merger's
    replay time) is skipped.  Only the cost differs: the same answers are refused."""

    control_loops: bool
    """A title's rule against control loops is checked: no share purchase, sale or merger
    after which corporations control each other, directly or through others (where the
    title's rules and its chosen settings have that rule; the title's rules document cites
    the items).  18xx.games means to check it, but it compares the corporations it marks
    circular before and after the trade and marks none, so its check never fires
    (docs/architecture.md, defects L and Q) and recorded files hold such trades; a replay
    takes them as 18xx.games does."""


LIVE = Policy(
    lay_position=True,
    token_reach=True,
    run_revenue=True,
    printed_starts=True,
    trial_copy=True,
    control_loops=True,
)
"""Live play: every printed rule is checked."""

RECORDED = Policy(
    lay_position=False,
    token_reach=False,
    run_revenue=False,
    printed_starts=False,
    trial_copy=False,
    control_loops=False,
)
"""A recorded file replayed as 18xx.games loads it (common rules §3.6)."""
