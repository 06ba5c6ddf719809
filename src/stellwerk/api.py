"""The public engine API: create, load, act, undo, save, look (docs/architecture.md).

A game is a function of title, players, options, seed and its action log.  ``process``
either applies an action completely or raises :class:`IllegalAction` and leaves the game
exactly as before: a refused action and an undo restore the nearest engine checkpoint (kept
every few actions, see :mod:`stellwerk.checkpoints`) and replay the few actions after it.

Two logs are kept: ``raw_actions``, everything in the game's record in order (undone actions,
``undo``/``redo``, ``message``/``log``, ``program_*``, each with its id and ``user`` field),
which ``to_file`` writes back; and ``actions``, the live ones after undo/redo are resolved
(``stellwerk.io.undo``), which the engine has applied.

**Live play and replay.**  Live play (``process(action)``) accepts only what the rules offer
now: the action must be listed by ``legal_actions()`` or lie in the space a listed action
describes (``stellwerk.core.live``); it is checked before the engine sees it, so a refusal
changes nothing.  Replay (``process(action, replay=True)``, ``from_file``) accepts what
18xx.games accepted when the file was written, so that every real game loads.  Beyond live
play, replay accepts:

* amounts the reference engine does not check: a bid on the cheapest private at any price
  (it is bought for the amount named), buy and sell actions whose ``percent`` differs from the
  certificates (a partial sale of a president's certificate), certificates and trains other
  than the listed one of a kind, a raise in an auction on a private not being auctioned;
* recorded route revenues as given (common rules §2.3) and the tile and token checks the
  reference engine skips while loading (common rules §3.6): the engine's checks policy is
  ``stellwerk.core.policy.RECORDED`` while a file is replayed, ``LIVE`` otherwise: every
  question (``legal_actions``, ``active_entities``, ``snapshot``, ``view``) is answered as live
  play has it, after a replayed action too; where ``LIVE`` leaves nobody to act in a position a
  record reached, the recorded turn stands and only its passes are offered
  (``Game._stalled``);
* fields we do not read (``share_price`` overrides, ``exchange``, ...), and any ``program_*``
  standing order type (as a no-op; its effects are the recorded ``auto_actions``);
* recorded ``auto_actions`` as given instead of derived ones (common rules §3.5);
* 1841: a par of a closed historical corporation (18xx.games' ``can_par?`` does not look at
  ``closed``; rules/1841.md 2.2.1 and 2.4 item 1 forbid it): it buys the first treasury
  certificate at the least par price and the corporation stays closed, as 18xx.games has it
  (``stellwerk.titles.g1841.stock.reopen_on_replay``).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from stellwerk.checkpoints import Checkpoints, copy_engine
from stellwerk.core import moves
from stellwerk.core.actions import action_id
from stellwerk.core.entities import Corporation as CoreCorporation
from stellwerk.core.entities import Entity, EntityId, Player, PlayerId, Train
from stellwerk.core.errors import EngineError, GameFileError, IllegalAction
from stellwerk.core.game import Game as CoreGame
from stellwerk.core.jsondata import JSONObject, JSONValue
from stellwerk.core.map.board import Board
from stellwerk.core.policy import LIVE, RECORDED
from stellwerk.core.routes.model import RouteSearch
from stellwerk.core.routes.optimize import BestRun
from stellwerk.reading import Reader
from stellwerk.titles.registry import title_class
from stellwerk.views import Choice, Question, RoundView

T = TypeVar("T")

if TYPE_CHECKING:
    from stellwerk.io.snapshot import Snapshot

__all__ = [
    "Choice",
    "EngineError",
    "EntityId",
    "Game",
    "GameFileError",
    "IllegalAction",
    "JSONObject",
    "JSONValue",
    "PlayerId",
    "Question",
    "RoundView",
    "action_id",
]

OWN_KEYS = frozenset(
    {"id", "title", "players", "settings", "actions", "status", "result", "game_end_reason"}
)
"""Game-file keys ``to_file`` writes itself; others of a loaded file are written back as read."""

LOG = logging.getLogger("stellwerk.engine")

"""Engine defects are logged here (level ERROR, with the action and the traceback)."""


class Game:
    """One game in progress."""

    def __init__(
        self,
        title: str,
        players: list[tuple[PlayerId, str]],
        options: list[str],
        seed: int,
        game_id: int | str | None = None,
    ) -> None:
        self.title = title
        self.players = [(pid, name) for pid, name in players]
        self.options = list(options)
        self.seed = seed
        self.game_id = game_id
        self.actions: list[JSONObject] = []
        self.raw_actions: list[JSONObject] = []
        self._ids_seen = (0, 0)
        """How many entries of ``raw_actions`` ``next_id`` has looked at, and the highest id."""
        self.file_extras: JSONObject = {}
        self.checkpoints = Checkpoints()
        self.front_kept: dict[str, tuple[int, object]] = {}
        """Answers front ends keep about this game (:meth:`kept`), by question: the length
        of ``raw_actions`` they were found at and the answer."""
        self._engine: CoreGame = self._fresh()

    def kept(self, what: str, ask: Callable[[], T]) -> T:
        """``ask()``, kept on this game while its record has the same length: for front ends
        that ask one position the same question many times (the game master's order checks,
        ``stellwerk.gm.look``; the web pages' pictures).  Every processed action, undo, redo
        or site action lengthens ``raw_actions`` and a refused one changes nothing, so a kept
        answer is the answer for the game as it is.  Kept on the game, never in a table of
        the process, so no other game sees it and it goes with the game.  Each ``what`` must
        be asked with one ``ask`` only (so the kept answer has its type); callers must not
        change what they get."""
        length = len(self.raw_actions)
        found = self.front_kept.get(what)
        if found is not None and found[0] == length:
            return found[1]  # type: ignore[return-value]  # stored below for ``what``
        value = ask()
        self.front_kept[what] = (length, value)
        return value

    @property
    def engine(self) -> CoreGame:
        """The title game itself, for tools and tests that look inside it or change it
        directly.  Taking it makes the engine forget what it remembered about who may act
        (``CoreGame.changing``), since the taker may change the state without an action; one
        who keeps it and changes it later, after other calls, calls ``changing`` itself."""
        self._engine.changing()
        return self._engine

    @engine.setter
    def engine(self, value: CoreGame) -> None:
        self._engine = value

    @property
    def engine_to_look_at(self) -> CoreGame:
        """The title game for a look that changes nothing in it: unlike :attr:`engine`, what
        the engine remembered about the position is kept.  For tools that only read the game
        or try moves on copies of it (the selfplay veto, tools/oracle_defects_1841.py, asked
        at picks of one position, after which the driver lists the position again); changing
        the game taken here leaves stale answers."""
        return self._engine

    def _fresh(self) -> CoreGame:
        cls = title_class(self.title)
        return cls(self.players, self.options, self.seed)

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        title: str,
        players: list[tuple[PlayerId, str]],
        options: list[str] | None = None,
        seed: int = 0,
    ) -> Game:
        """A new game."""
        return cls(title, players, list(options or []), seed)

    @classmethod
    def from_file(cls, data: JSONObject) -> Game:
        """Load an 18xx.games game file: resolve undo/redo and apply every live action.
        A game that cannot be set up (title, player count, options) or a refused action is
        reported as a :class:`GameFileError` (naming the action).

        The actions are replayed as 18xx.games took them (``RECORDED``); live play goes on
        from there with every printed rule checked (``LIVE``).  Where those checks leave
        nobody to act in the position the file reached (1841: the player 18xx.games waits
        for has only a trade that closes a control loop), the recorded turn stands and live
        play offers its passes only (:meth:`_stalled` says why), so a loaded game never gets
        stuck."""
        from stellwerk.io.gamefile import load_game_file

        gf = load_game_file(data)
        try:
            game = cls(gf.title, gf.players, gf.optional_rules, gf.seed, gf.game_id)
        except IllegalAction as error:  # title, player count or options
            raise GameFileError(f"cannot set up this game: {error}") from error
        game.raw_actions = list(gf.actions)
        game.file_extras = {k: v for k, v in data.items() if k not in OWN_KEYS}
        game._engine.policy = RECORDED
        # one checkpoint near the end: what an undo or a refused next action needs
        every = game.checkpoints.every
        kept = (len(gf.live) - 1) // every * every
        for action in gf.live:
            try:
                game._engine.resume()  # nothing but actions changes the state here
                game._engine.process_action(action)
            except IllegalAction as error:
                raise GameFileError(str(error), action_id(action)) from error
            game.actions.append(action)
            if len(game.actions) == kept:
                game._checkpoint()
        game._engine.policy = LIVE
        return game

    # -- the policy live play answers with -----------------------------------------------
    def _stalled(self) -> bool:
        """Whether live play's checks (``LIVE``) leave nobody to act in a game that is not
        over, and set the engine's policy live play answers with: ``LIVE``, or ``RECORDED``
        when stalled.

        A recorded file is replayed as 18xx.games plays (``RECORDED``), and 18xx.games checks
        some printed rules less than live play does (``stellwerk.core.policy``).  Its turn
        order follows its own checks: 1841's house rule against control loops (seed 000 item
        3.1, rules/1841.md 2.2.1) never fires there, so after a purchase 18xx.games gives the
        turn to a player whose only trade would close a loop, and waits for him (its files
        hold that turn: docs/architecture.md defect Q).  Live play refuses that trade, but the
        turn was given by the recorded rules, and nothing moves it on without an action: by
        ``LIVE`` alone nobody could act and the game would be stuck.

        Decision: live play never rewrites a position the record made (the file stays one that
        18xx.games and our replay take as it is), and keeps every printed rule wherever that
        leaves someone a move.  Where it leaves nobody one, the turn is the recorded
        engine's: the same entities are to act (``active_entities``), and of their moves
        live play offers only ``pass`` -- the one move no rule forbids, after which the
        recorded turn order goes on (a stock round: the player is out until someone else
        acts, as a player who cannot act is skipped, rules/1841.md 2.2.1).  Only when the
        recorded engine offers no pass either are all its moves offered, taken as a replay
        takes them: the game goes on as 18xx.games has it rather than stop.  That pass is an
        ordinary recorded action, so the game's file replays here and on 18xx.games.
        Skipping the player silently instead would change the turn without an action,
        and a file written after it could no longer be replayed by either engine.

        The policy fields that differ between ``LIVE`` and ``RECORDED``: ``lay_position``,
        ``token_reach`` and ``run_revenue`` change what a corporation's lay, token or run may
        be, and its steps offer ``pass`` either way; ``trial_copy`` changes only the cost;
        ``printed_starts`` lets a replayed start reopen a closed corporation, whose buyer
        keeps his turn with purchases and ``pass`` under ``LIVE`` too; ``control_loops``
        decides who is skipped in a stock round and gives the stalled positions above.  The
        check here is general: whatever field stalls a loaded position, it is answered so."""
        engine = self._engine
        engine.policy = LIVE
        if engine.finished:
            return False
        with engine.remembering():
            if engine.round.active_entities():
                return False
        engine.policy = RECORDED
        return True

    def _recorded_menu(self, hex_id: str | None = None, all_lays: bool = False) -> list[JSONObject]:
        """In a stalled position (:meth:`_stalled`, the engine ``RECORDED``): the recorded
        engine's passes, or all its moves when it offers no pass."""
        from stellwerk.core.legal import legal_actions

        with self._engine.remembering(), self._engine.looking_ahead():
            menu = legal_actions(self._engine, hex_id, all_lays)
        passes = [a for a in menu if a.get("type") == "pass"]
        return passes or menu

    # -- acting -----------------------------------------------------------------------------
    def process(self, action: JSONObject, replay: bool = False) -> None:
        """Apply one action.  Refused: IllegalAction, and the game is unchanged.

        Live play (default): the action must be one that ``legal_actions()`` offers or lie in
        the space of one (module docstring); the server's automatic follow-ups are derived and
        stored in the action's ``auto_actions``.  ``replay=True`` (loading a game file): the
        recorded ``auto_actions`` are applied as given and nothing is derived (common rules
        §3.5), and the checks the reference engine skips while loading are skipped too (the
        engine's policy is ``RECORDED`` for the action, ``LIVE`` in live play).
        ``undo`` and ``redo`` are resolved as 18xx.games resolves them (common rules §3.4).
        """
        action = dict(action)
        given, expected = action.get("id"), self.next_id()
        if not isinstance(given, int) or isinstance(given, bool):
            action["id"] = expected
        elif given < expected:  # ids ascend in the record, in replay too
            raise IllegalAction(
                f"action id {given} must be at least {expected}", "common rules §3.2"
            )
        if action.get("type") in ("undo", "redo"):
            self._undo_redo(action, replay)
            return
        # the policy is set before the live gate: a live action is judged by every printed
        # rule, unless they leave nobody to act (``_stalled``: then by the recorded turn)
        if replay:
            self._engine.policy = RECORDED
        else:
            action.pop("auto_actions", None)
            self._check_live(action)
        try:
            self._engine.resume()  # the routing asks what the last action's state answered
            if not replay:  # turns live play ends where the record waits: passes (_auto_actions)
                self._engine.recorded_passes = []
            self._engine.process_action(action)
            self._engine.policy = LIVE  # the follow-ups and every later question: live play's
            autos = [] if replay else self._auto_actions()
            if autos:
                action["auto_actions"] = [*autos]
        except IllegalAction:
            self._engine = self._rebuild(self.actions)
            raise
        except Exception as error:
            self._engine = self._rebuild(self.actions)
            raise _defect(error, action) from error
        finally:
            self._engine.recorded_passes = None
        self.actions.append(action)
        self.raw_actions.append(action)
        if not replay:
            self._checkpoint()

    def verify(self, action: JSONObject) -> None:
        """Refuse ``action`` (``IllegalAction``, with its rule) exactly as live play's
        :meth:`process` would, changing nothing: the live gate, then the action tried on a
        copy of the game.  For a front end that must know a move is legal before it does
        something else with it (an offer that waits for another player's consent)."""
        if action.get("type") in ("undo", "redo"):
            raise IllegalAction("undo and redo are not verified ahead", "common rules §3.4")
        trial = {k: v for k, v in action.items() if k != "auto_actions"}
        trial["id"] = self.next_id()
        self._check_live(trial)  # leaves the policy live play judges by (``_stalled``)
        engine = copy_engine(self._engine)  # (the checkpoints' pickle: a deep copy's state)
        self._engine.policy = LIVE
        try:
            engine.resume()
            engine.process_action(trial)
        except IllegalAction:
            raise
        except Exception as error:
            raise _defect(error, trial) from error

    def next_id(self) -> int:
        """The id a new action gets: one more than the highest in the record
        (``stellwerk.io.undo.next_id``, found incrementally: the record only grows)."""
        highest_id = _highest_id()
        seen, highest = self._ids_seen
        raw = self.raw_actions
        if seen > len(raw):  # the record was replaced by a shorter one
            seen, highest = 0, 0
        highest = highest_id(raw[seen:], highest)  # look at the new entries only
        self._ids_seen = (len(raw), highest)
        return highest + 1

    def _check_live(self, action: JSONObject) -> None:
        """The live gate (``stellwerk.core.live``): refuse before anything changes.  The
        engine is left with the policy the action is processed with: ``LIVE``, or in a
        stalled position (:meth:`_stalled`) ``RECORDED``, where only the passes of
        :meth:`_recorded_menu` are moves (site actions are taken as always)."""
        from stellwerk.core.actions import SITE_TYPES
        from stellwerk.core.live import check_live

        if self._stalled() and action.get("type") not in SITE_TYPES:
            menu = self._recorded_menu()
            if any(a.get("type") == "pass" for a in menu) and action.get("type") != "pass":
                raise IllegalAction(
                    f"{action.get('type')} breaks a printed rule here and nothing else is "
                    "left to do: only a pass",
                    "common rules §3.6 (a recorded turn in live play)",
                )
        try:
            with self._engine.remembering(), self._engine.looking_ahead():
                check_live(self._engine, action)
        except IllegalAction:
            raise
        except Exception as error:
            raise _defect(error, action) from error

    def _undo_redo(self, action: JSONObject, replay: bool = False) -> None:
        """Append ``undo``/``redo`` to the record and make the engine follow the live actions
        it leaves (common rules §3.4).  A redo with nothing to redo, or an undo naming an
        action that is not in the record, is refused; in live play an undo/redo that would
        change nothing is refused too (``stellwerk.io.undo.controlled_mask``, the check the
        store makes), while a recorded one is taken as 18xx.games took it."""
        from stellwerk.io.undo import controlled_mask, live_actions

        if action.get("entity") is None:
            raise IllegalAction(f"{action['type']} needs an entity", "common rules §3.2")
        raw = [*self.raw_actions, action]
        if not replay:
            controlled_mask(self.raw_actions, action)
        try:
            live = live_actions(raw)
        except GameFileError as error:
            raise IllegalAction(error.reason, "common rules §3.4") from error
        if live != self.actions:
            self._engine = self._rebuild(live)
        self.actions = live
        self.raw_actions = raw

    def _auto_actions(self) -> list[JSONObject]:
        """Run the server's automatic follow-ups and return them for the game file, each
        turn live play ended where the recorded rules wait written in as that entity's
        ``pass`` right after the action or follow-up that ended it (:meth:`_recorded_passes`)."""
        engine = self._engine
        autos = self._recorded_passes()
        for _ in range(100):
            if engine.finished:
                break
            with engine.remembering(), engine.looking_ahead():
                batch = engine.round.auto_actions()
            if not batch:
                break
            for auto in batch:
                engine.process_single(moves.parse(auto))
                autos.append(auto)
                autos.extend(self._recorded_passes())
        return autos

    def _recorded_passes(self) -> list[JSONObject]:
        """The passes that write the turns live play ended for want of a move, where the
        recorded rules wait, into the file (``CoreGame.note_turn_end``); taken from the
        engine's list, which is emptied.

        Live play checks every printed rule (``LIVE``), and a step that offers the entity in
        turn no move is skipped as if passed (rules/1841.md 5.1, automatic skipping).  A file is
        replayed as 18xx.games plays (``RECORDED``), whose check of 1841's rule against
        control loops (seed 000 item 3.1) never fires (docs/architecture.md defect Q): there
        the player whose only trade closes a loop gets the turn, and the game waits for him.
        Written as it was played, the next live action in the file is then out of turn, and
        neither our replay nor 18xx.games takes it.

        Decision: the skip is written into the file as the skipped entity's ``pass`` among
        the ``auto_actions`` of the action after which it happened, in the order the engine
        met it -- the form 18xx.games itself writes for a player's standing order to pass
        (``program_share_pass``: his pass in the preceding action's ``auto_actions``, as in
        the 1841 bank fixture, common rules §3.5), and
        the one move both engines take from the entity they wait for (common rules §3.5:
        recorded ``auto_actions`` are replayed as given).  A pass ends the turn exactly as
        the skip does (the step's ``skip`` is its ``pass_``), so the replayed game reaches
        the state live play left, with the same entities to act.  The live engine notes
        only such skips; where nobody is skipped nothing is written, and the extra look under
        ``RECORDED`` is taken only at a skip in a position the title says the policies may
        judge differently (``turn_may_follow_policy``: 1841 with the rule on and some
        corporation holding another's certificates)."""
        from stellwerk.core.flow.base import act

        engine = self._engine
        noted = engine.recorded_passes
        if not noted:
            return []
        engine.recorded_passes = []
        return [act(entity, "pass") for entity in noted]

    def _checkpoint(self) -> None:
        """Save the engine now and then (every ``checkpoints.every`` actions)."""
        if self.checkpoints.due(len(self.actions)):
            self.checkpoints.save(self.actions, self._engine)

    def _rebuild(self, actions: list[JSONObject]) -> CoreGame:
        """The engine after ``actions`` (a prefix of this game's log): the nearest checkpoint
        and the few actions after it, never the engine in hand (a refused action may have
        changed it half-way)."""
        return self.checkpoints.restore(actions, self._fresh)

    def undo(self) -> None:
        """Take back the last action: restore the state before it from a checkpoint."""
        if not self.actions:
            raise IllegalAction("nothing to undo", "common rules §3.4")
        undone = self.actions.pop()
        self.raw_actions.append(_undo_record(undone, self.actions, self.next_id()))
        self._engine = self._rebuild(self.actions)

    # -- looking ----------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self._engine.finished

    @property
    def result(self) -> dict[str, int]:
        return self._engine.result() if self._engine.finished else {}

    @property
    def game_end_reason(self) -> str | None:
        return self._engine.game_end_reason

    @property
    def view(self) -> Reader:
        """The game's read-only views (``stellwerk.views``: players, corporations with their
        holders and chains of control, companies, market, step and bids, the map's facts),
        read from the game as it is now; take it anew after an action."""
        self._stalled()  # the policy live play answers with (who acts, what is offered)
        return Reader(self._engine)

    @property
    def round(self) -> RoundView:
        """The round the game is in now (:class:`RoundView`)."""
        engine = self._engine
        rnd = engine.round
        return RoundView(rnd.seq, rnd.kind, rnd.name, engine.turn, rnd.round_num)

    def holders_of(self, symbol: str) -> list[EntityId]:
        """Who holds certificates of the corporation ``symbol`` (players by id, corporations
        by symbol; not the pool or the bank), or the owner of the company ``symbol``; [] for
        an unknown symbol."""
        engine = self._engine
        corp = engine.corporation_or_none(symbol)
        if corp is not None:
            holders = [h for h in corp.share_holders if isinstance(h, Player | CoreCorporation)]
            return [_entity_id(h) for h in holders]
        company = next((c for c in engine.companies if c.sym == symbol), None)
        owner = company.owner if company is not None else None
        if isinstance(owner, Player | CoreCorporation):
            return [_entity_id(owner)]
        return []

    def decider_of(self, entity: EntityId | None) -> PlayerId | None:
        """The player who decides for ``entity`` (a player id, a corporation's or company's
        symbol): the player himself; for a corporation the player at the end of its chain of
        control (the title's controller: 1841's frozen and circular corporations have none),
        or the player a title's procedure names for a corporation it forms that has no
        president yet (1841's merger: its deciding player); for a company its owner, or its
        owning corporation's decider; None when nobody does (a corporation in receivership)
        or the entity is unknown."""
        engine = self._engine
        if any(pid == entity for pid, _ in self.players):
            return entity
        corp = engine.corporation_or_none(str(entity))
        if corp is not None:
            found = engine.decider(corp)
            return found.id if isinstance(found, Player) else None
        company = next((c for c in engine.companies if c.sym == str(entity)), None)
        owner = company.owner if company is not None else None
        if isinstance(owner, Player):
            return owner.id
        if isinstance(owner, CoreCorporation):
            return self.decider_of(owner.sym)
        return None

    def symbols(self) -> list[str]:
        """The symbols of the game's corporations, in the game's order."""
        return [c.sym for c in self._engine.corporations]

    def company_owner(self, symbol: str) -> EntityId | None:
        """Who owns the company ``symbol`` (a player by id, a corporation by symbol); None
        for the bank, a closed company or an unknown symbol."""
        company = next((c for c in self._engine.companies if c.sym == symbol), None)
        owner = company.owner if company is not None else None
        return _entity_id(owner) if isinstance(owner, Player | CoreCorporation) else None

    @property
    def operating(self) -> str | None:
        """The symbol of the corporation whose operating turn it is (None outside one)."""
        found = getattr(self._engine.round, "current_operator", None)
        return found.sym if isinstance(found, CoreCorporation) else None

    def active_entities(self) -> list[EntityId]:
        """Who may act now: players by id, corporations and companies by symbol (in a
        position where live play's checks leave nobody to act, the recorded turn's entities:
        :meth:`_stalled`)."""
        self._stalled()
        with self._engine.remembering():
            return [_entity_id(e) for e in self._engine.round.active_entities()]

    def question(self) -> Question | None:
        """The decision asked now as a set of named answers (:class:`Question`): a title
        procedure's question (1841's share offers, exchanges, token purchases, token
        removals and home stations; 1835's Prussian formation and price drop; 1849's
        presidency swap, loan, E-token ...) with its facts and every answer's meaning and
        action.  None when no step asks one: ordinary moves (a tile lay, a share purchase,
        a train) are :meth:`legal_actions` and their meaning is the action itself.  Every
        choice's action is one of :meth:`legal_actions`."""
        return self.view.question()

    def sentence(self, key: str, facts: Sequence[tuple[str, object]], lang: str = "en") -> str:
        """The title's sentence ``key`` (``topic.<topic>``, ``choice.<kind>``) in ``lang``
        filled with ``facts``, money in the title's currency
        (``stellwerk.titles.contract.Presentation.sentence``); a key the title has no
        sentence for is said by its facts (``buy_tokens: count 2``)."""
        from stellwerk.titles.registry import TITLES

        named = dict(facts)
        entry = TITLES.get(self.title)
        found = entry.presentation.sentence(key, named, lang) if entry is not None else None
        if found is not None:
            return found
        kind = key.partition(".")[2] or key
        told = ", ".join(f"{name} {value}" for name, value in facts)
        return f"{kind}: {told}" if told else kind

    def question_text(self, question: Question, lang: str = "en") -> str:
        """What ``question`` asks, in ``lang`` (:meth:`sentence` of its topic)."""
        return self.sentence(f"topic.{question.topic}", question.facts, lang)

    def choice_text(self, choice: Choice, lang: str = "en") -> str:
        """What answering with ``choice`` does, in ``lang`` (:meth:`sentence` of its kind)."""
        return self.sentence(f"choice.{choice.kind}", choice.facts, lang)

    def snapshot(self) -> Snapshot:
        from stellwerk.io.snapshot import snapshot

        self._stalled()  # its ``active``: who may act now (:meth:`active_entities`)
        return snapshot(self._engine)

    def legal_actions(self, hex_id: str | None = None, all_lays: bool = False) -> list[JSONObject]:
        """What the entities that may act now can send.  Tile lays are listed for ``hex_id``
        on request, or for every hex with ``all_lays``.  Where live play's checks leave
        nobody to act, the recorded turn's passes (:meth:`_stalled`)."""
        from stellwerk.core.legal import legal_actions

        if self._stalled():
            return self._recorded_menu(hex_id, all_lays)
        with self._engine.remembering(), self._engine.looking_ahead():
            return legal_actions(self._engine, hex_id, all_lays)

    def lay_hexes(self) -> list[str]:
        """The hexes where ``legal_actions(hex_id)`` may list tile lays (a superset, found
        without checking lays), in a fixed order: to look for one lay hex by hex."""
        from stellwerk.core.legal import lay_hexes

        if self._stalled() and any(a.get("type") == "pass" for a in self._recorded_menu()):
            return []
        with self._engine.remembering(), self._engine.looking_ahead():
            return lay_hexes(self._engine)

    def best_routes(self, corporation: str, trains: Sequence[str] | None = None) -> BestRun:
        """The best routes of ``corporation`` on the board as it stands (common rules §6.1),
        proven optimal unless ``BestRun.optimal`` says the search was cut short.  ``trains``
        names train types to run instead of its own (a what-if, e.g. ``["8H", "8H"]``); an
        unknown corporation or train type is refused with :class:`IllegalAction`."""
        engine = self._engine
        corp = engine.corporation(corporation)
        if trains is None:
            return engine.best_run(corp)
        return engine.best_run(corp, what_if_trains(engine, trains))

    def route_search(self, corporation: str) -> RouteSearch:
        """What a search of ``corporation``'s routes needs now: its run context, its trains
        and the title's route rules (common rules §6.1; the GM matches named routes with it);
        an unknown corporation is refused with :class:`IllegalAction`."""
        engine = self._engine
        return engine.route_search(engine.corporation(corporation))

    def routes_through(
        self, corporation: str, proposed: Sequence[tuple[str, Sequence[str]]]
    ) -> list[JSONObject]:
        """The ``routes`` of a run_routes action of ``corporation`` for routes a player names
        by their stops: per train id (``"4H-0"``) its stops in walking order, each ``"H12.2"``
        (hex and tile node index, the map's ``data-node``) or ``"H12"`` (the hex's only stop);
        no stops: the train does not run.  The track between two stops is found on the board
        (``stellwerk.core.routes.stops``); every route carries its revenue by the title's
        rules.  A run that breaks a rule is refused (``IllegalAction`` with the rule); nothing
        changes.  Whether the corporation may run now is :meth:`verify`'s question."""
        from stellwerk.core.routes.stops import ProposedRoute, routes_through, stop_of

        search = self.route_search(corporation)
        board = search.ctx.board
        wanted = [
            ProposedRoute(train, tuple(stop_of(board, stop) for stop in stops))
            for train, stops in proposed
        ]
        return routes_through(search, wanted)

    def place_stop(
        self,
        corporation: str,
        proposed: Sequence[tuple[str, Sequence[str]]],
        train: str,
        stop: str,
    ) -> list[tuple[str, list[str]]]:
        """The ``proposed`` routes (as for :meth:`routes_through`) with ``stop`` added to the
        route of ``train`` where the run stays legal -- at either end or between two
        consecutive stops -- and of the legal places where it pays most (ties: the end, then
        the earliest place); a route of no stops takes it as its only one
        (``stellwerk.core.routes.place``).  The stops come back as ``"H12.2"``.  Refused
        (``IllegalAction`` with the rule) when no place is legal; nothing changes."""
        from stellwerk.core.routes.place import place_stop
        from stellwerk.core.routes.stops import ProposedRoute, stop_of

        search = self.route_search(corporation)
        board = search.ctx.board
        wanted = [
            ProposedRoute(name, tuple(stop_of(board, text) for text in stops))
            for name, stops in proposed
        ]
        placed = place_stop(search, wanted, train, stop_of(board, stop))
        return [(route.train, [f"{h}.{n}" for h, n in route.stops]) for route in placed]

    @property
    def board(self) -> Board:
        """The map as it stands: tiles, tokens, reservations (``stellwerk.core.map.board``;
        read it, do not change it)."""
        return self._engine.map.board

    def to_file(self) -> JSONObject:
        """The 18xx.games game file of this game: every action of the record (undone ones,
        undo/redo, messages, programs) and the keys of a loaded file we do not own."""
        out: JSONObject = {
            **copy.deepcopy(self.file_extras),
            "id": self.game_id or self.seed,
            "title": self.title,
            "players": [{"id": pid, "name": name} for pid, name in self.players],
            "settings": {"seed": self.seed, "optional_rules": list(self.options)},
            "actions": [*copy.deepcopy(self.raw_actions)],
        }
        if self.finished:
            result: JSONObject = {**self.result}
            out["status"] = "finished"
            out["result"] = result
            out["game_end_reason"] = self.game_end_reason
        return out


def _highest_id() -> Callable[[list[JSONObject], int], int]:
    """``stellwerk.io.undo.highest_id``, imported once (io sits above the API, so not at the
    top; an import in ``next_id`` itself cost a few microseconds per action)."""
    global _HIGHEST_ID
    if _HIGHEST_ID is None:
        from stellwerk.io.undo import highest_id

        _HIGHEST_ID = highest_id
    return _HIGHEST_ID


_HIGHEST_ID: Callable[[list[JSONObject], int], int] | None = None


def what_if_trains(engine: CoreGame, names: Sequence[str]) -> list[Train]:
    """Distinct train objects of the game, one per name (for a what-if run: ``best_routes``)."""
    pool: dict[str, list[Train]] = {}
    for train in engine.depot.trains:
        pool.setdefault(train.name, []).append(train)
    out = []
    for name in names:
        copies = pool.get(name)
        if not copies:
            known = ", ".join(sorted(pool))
            raise IllegalAction(
                f"no train type {name!r} in this game (types: {known})", "common rules §6.1"
            )
        out.append(copies.pop(0))
    return out


def _defect(error: Exception, action: JSONObject) -> EngineError:
    """The ``EngineError`` for an unexpected exception while processing ``action``; logged
    with the action and the traceback (an engine defect, never a rule refusal)."""
    LOG.error("engine defect at action %s: %r", action.get("id"), action, exc_info=error)
    return EngineError(f"{type(error).__name__}: {error}", action)


def _undo_record(undone: JSONObject, live: list[JSONObject], new_id: int) -> JSONObject:
    """The ``undo`` action that records taking back ``undone`` as 18xx.games stores it:
    everything after the action now last is undone (common rules §3.4)."""
    return {
        "type": "undo",
        "entity": undone.get("entity"),
        "entity_type": undone.get("entity_type", "player"),
        "id": new_id,
        "action_id": live[-1].get("id", 0) if live else 0,
    }


def _entity_id(entity: Entity) -> EntityId:
    """How game files name ``entity``: a player by id, a corporation or company by symbol."""
    return entity.id if isinstance(entity, Player) else entity.sym
