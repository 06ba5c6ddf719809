"""1841's options: 18xx.games' four optional rules (rules/1841.md section 4), the rule
changes and variants of seed 000 (the German 1841 FAQ) and the house rules of seed 003 ("18xx
und Zugzwang"), the rows of rules/1841.md section 6 that name an option id, each declared once
with its effects on :class:`Settings1841`.

This is the only 1841 module that names an option; the game will be built with
``DECLARED.settings(options, players)`` (core :func:`~stellwerk.core.options.apply_options`).
Ids are 18xx.games' symbols where one exists (game files store them), else the id proposed in
rules/1841.md section 6.  Where 18xx.games and a seed differ, the default follows 18xx.games
and the seed's rule is the option.  The core option has no field for a German label: each
note starts with it ("de: ...").

18xx.games checks no combination of 1841's optional rules (meta.rb has no ``check_options``),
so none of the four excludes another; ``sfli_run_variant`` without ``version_1`` is in a real
game file (1841_game_end_offboards, with ``lite``) and changes nothing there.

Two ids of rules/1841.md section 6 change nothing of their own.  ``sfli_runs_in_formation_or``
(seed 000 items 1.17, 4.2; seed 003 H3) is the rule 18xx.games calls ``sfli_run_variant``: it
is declared as an alias that implies that option and has no effect of its own.
``forbid_circular_control`` (seed 000 item 3.1) is marked "on" there, the rule by default:
it is declared as a default option (choosing it restates the default and changes nothing);
options are chosen, never unchosen, so ``allow_circular_control`` switches it off (the first
printed rules).
"""

from __future__ import annotations

from functools import cache

from stellwerk.core.options import Data, Declared, Option, declare
from stellwerk.titles.g1841.settings import Settings1841

ZUGZWANG = (
    "open_concession_auction",
    "priority_tie_by_lot",
    "corp_foreign_sale_no_drop",
    "sfli_run_variant",
    "end_finish_current_or",
    "emr_no_president_to_pool",
    "bankruptcy_zugzwang",
    "default_orders_zugzwang",
)
"""Seed 003's house rules with an option (rules/1841.md §6.7): H1 (two options), H2, H3, H4,
H8, H9, H15.  H5 and H11-H14 are the default rules, H6/H7 are the default (no player-to-player
trading), H10 is marked a proposal in the seed and is left to be chosen on its own."""

OPTIONS: dict[str, Option] = declare(
    # --- 18xx.games' optional rules (rules/1841.md section 4) -------------------------------
    Option(
        "p2p_purchases",
        "Player to player purchases of shares and concessions",
        "18xx.games; seed 000 items 2.3, 2.4; rules/1841.md §4.3, §6.2",
        (Data("player_to_player_purchases", True),),
        note="de: Aktien- und Konzessionskauf direkt von Mitspielern; "
        "seed 003 H6, H7 forbid it (the default)",
    ),
    Option(
        "lite",
        "1841lite map and rules: smaller map, train roster and bank (3-6 players)",
        "18xx.games; rules/1841.md §4.2",
        (Data("short_game", True), Data("firenze_reserved_for_sfma", False)),
        note="de: 1841lite, kleiner Spielplan ohne Toskana, weniger Loks, kleinere Bank",
        players=(3, 4, 5, 6),
    ),
    Option(
        "version_1",
        "Version 1: original auction, map and corporations (first edition)",
        "18xx.games; rules/1841.md §4.1",
        (
            Data("edition", 1),
            Data("firenze_reserved_for_sfma", False),
            Data("secession_token_purchase", False),
        ),
        note="de: Erstausgabe (Konzessionsrunde mit verdeckten Geboten, SFTC/SFV/SFL "
        "Kleingesellschaften); the seeds describe this edition",
    ),
    Option(
        "sfli_run_variant",
        "SFLi runs in the OR it is formed if no predecessor has operated (as Version 2)",
        "18xx.games; seed 000 items 1.17, 4.2; seed 003 H3; rules/1841.md §4.4, §6.1, §6.4, "
        "§6.7 (proposed there as sfli_runs_in_formation_or)",
        (Data("sfli_formation_or_run", True),),
        note="de: Die SFLi agiert schon in der Runde ihrer Gründung; the second edition's "
        "rule already, so it changes the game only with version_1",
    ),
    Option(
        "sfli_runs_in_formation_or",
        "Alias of sfli_run_variant: SFLi runs in the OR it is formed if no predecessor has "
        "operated",
        "seed 000 items 1.17, 4.2; seed 003 H3; rules/1841.md §6.1, §6.4, §6.7 (the id proposed "
        "there; 18xx.games names the same rule sfli_run_variant)",
        note="de: Die SFLi agiert schon in der Runde ihrer Gründung; the rulebook's id for "
        "18xx.games' sfli_run_variant, accepted at creation and choosing it (one rule, one "
        "settings field; game files of 18xx.games store its symbol)",
        implies=("sfli_run_variant",),
    ),
    # --- the printed rules where 18xx.games differs ----------------------------------------
    Option(
        "or_waits_for_last_decisions",
        "The last operator's merger or transformation asks its questions before the OR ends",
        "rules/1841.md §2.3.11, §2.3.12; 18xx.games drops them (its defect H)",
        (Data("round_waits_for_decisions", True),),
        note="de: Die Operationsrunde endet erst, wenn die Fragen einer Fusion oder "
        "Umwandlung der letzten Gesellschaft beantwortet sind (Aktienangebote, Pöppelkauf); "
        "18xx.games ends the round and forgets them",
    ),
    Option(
        "circular_frozen_sells",
        "A circular frozen corporation sells the shares of its chain at its turn",
        "rules/1841.md §2.3.10; seed 000 item 2.23; 18xx.games never does (its defect L)",
        (Data("circular_frozen_sales", True),),
        note="de: Eine zirkulär eingefrorene Gesellschaft verkauft in ihrem Zug die Aktien "
        "ihrer Kontrollkette; 18xx.games marks no corporation circular",
    ),
    Option(
        "closed_shares_worthless",
        "Shares of a closed corporation count nothing in the final score",
        "rules/1841.md §1.4 (final score); 18xx.games counts them at L.68 each (its defect K)",
        (Data("closed_corporation_shares_count", False),),
        note="de: Aktien einer geschlossenen Gesellschaft zählen in der Schlusswertung nichts; "
        "18xx.games counts each share unit at the lowest par price",
    ),
    Option(
        "transform_refreshes_frozen",
        "Every change of control freezes and thaws corporations at once (a transformation's "
        "share moves, the concessions' closing, a concession bought with its president's "
        "certificate)",
        "rules/1841.md §2.3.9, §2.3.10, §2.3.12; 18xx.games keeps the old states until its next "
        "share trade (its defect I)",
        (Data("transformation_updates_frozen", True),),
        note="de: Nach jedem Wechsel der Kontrolle gilt die neue Kontrollkette sofort für das "
        "Einfrieren; "
        "18xx.games updates frozen corporations only at its next share trade",
    ),
    # --- seed 000 (1841 FAQ): clarifications that differ from 18xx.games --------------------
    Option(
        "v1_tie_farthest_from_priority",
        "Tied sealed bids: the tied player farthest from priority takes the concession",
        "seed 000 item 1.1; rules/1841.md §2.1.2, §6.1",
        (Data("sealed_bid_ties", "farthest_from_priority"),),
        note="de: Gleichstand in der Konzessionsrunde: der am weitesten von der "
        "Priority-Karte entfernt Sitzende muss nehmen; 18xx.games auctions tied concessions",
        requires=("version_1",),
        conflicts=("open_concession_auction",),
    ),
    Option(
        "exchange_order_by_value",
        "Exchanges: each player's corporations, and the frozen ones after the pool, decide "
        "in descending share value",
        "seed 000 items 1.16, 2.25; rules/1841.md §5.4, §6.1, §6.2",
        (Data("holder_corporation_order", "share_value"),),
        note="de: Entscheidungen für die geführten Gesellschaften nach absteigendem "
        "Kurswert, eingefrorene Gesellschaften nach dem Bankpool ebenso; 18xx.games uses "
        "definition order",
    ),
    # --- seed 000, part 2: questions the rules leave open ----------------------------------
    Option(
        "sale_drops_reverse_order",
        "Price drops after sales in reverse operating order",
        "seed 000 item 2.2; rules/1841.md §6.2",
        (Data("sale_drop_order", "reverse_operating_order"),),
        note="de: Kurse sinken nach einem Verkauf in umgekehrter Handlungsreihenfolge; "
        "18xx.games moves each price at its sale",
    ),
    Option(
        "emr_round_down",
        "Emergency sales: half-price total rounded down",
        "seed 000 item 2.21; rules/1841.md §2.3.7, §6.2",
        (Data("emr_half_price_rounding", "down"),),
        note="de: Verkauf zum halben Preis: Gesamtbetrag abgerundet; 18xx.games rounds up",
    ),
    Option(
        "merger_table_above_250",
        "Mergers of majors: the conversion table also above L.250 (every sum from L.243: L.242)",
        'seed 000 conversion table ("243 und + auf 242 (Feld N3)"); rules/1841.md §2.3.11, §6.6',
        (Data("merger_keeps_prices_above_250", False),),
        note="de: Umrechnungstabelle auch über L.250: jede Summe ab L.243 ergibt L.242; "
        "18xx.games keeps a price above L.250 (both above and different: the acting "
        "corporation chooses)",
    ),
    Option(
        "end_at_once_top_or_offboards",
        "Game end by top price or offboards: at once, even after the bank broke",
        "seed 000 item 2.27; rules/1841.md §1.4, §6.2",
        (Data("game_end_timing", "immediate"),),
        note="de: Das Spiel endet sofort, wenn ein Kurs L.516 erreicht oder alle "
        "Fernverbindungen angeschlossen sind, auch bei gesprengter Bank; 18xx.games ends "
        "after the current operating turn",
        conflicts=("end_finish_current_or",),
    ),
    # --- seed 000, part 3: rule changes ----------------------------------------------------
    Option(
        "forbid_circular_control",
        "Circular control forbidden (FAQ rule change; the default)",
        "seed 000 item 3.1 (forbid_circular_control, on by default); rules/1841.md §2.2.1, §6.3",
        (Data("circular_control_forbidden", True),),
        note="de: Kein Kauf, Verkauf oder Zusammenschluss, durch den Gesellschaften einander "
        "(auch mittelbar) kontrollieren; the rule the game plays by default, as 18xx.games "
        "means to (its check never fires, docs/architecture.md Q): choosing it changes "
        "nothing but says so",
        conflicts=("allow_circular_control",),
        default=True,
    ),
    Option(
        "allow_circular_control",
        "Circular control allowed (first printed rules): switches off forbid_circular_control",
        "seed 000 item 3.1 (forbid_circular_control, on by default); rules/1841.md §2.2.1, "
        "§2.3.8, §2.3.10, §2.3.11, §6.3",
        (Data("circular_control_forbidden", False),),
        note="de: Aktienkauf, -verkauf und Zusammenschluss dürfen Gesellschaften einander "
        "kontrollieren lassen (Originalregeln); the FAQ's rule change forbids it, as "
        "18xx.games means to: the default.  The option framework chooses options, it switches none "
        "off, so the rule on by default is switched off by this option",
    ),
    Option(
        "upgrade_reachable_city",
        "A reachable city may be upgraded without new reachable track",
        "seed 000 item 3.2; rules/1841.md §2.3.3, §6.3",
        (Data("reachable_city_upgrade_without_new_track", True),),
        note="de: Ausbau einer erreichbaren Stadt auch ohne neue erreichbare Strecke; "
        "18xx.games accepts most such upgrades (UNSURE which cases differ)",
    ),
    Option(
        "secession_payout_unmatched",
        "Ferdinandea Secession: unmatched holders paid out, unstarted corporation frozen",
        "seed 000 item 3.3; rules/1841.md §2.4.1, §6.3",
        (Data("secession_pays_unmatched_holders", True),),
        note="de: Ohne zweites Paar geht die zweite Direktorenaktie in den Pool, Aktionäre "
        "ohne Tausch erhalten den Kurswert; 18xx.games always exchanges",
    ),
    Option(
        "corp_no_rebuy_after_sale",
        "A corporation may not rebuy a corporation it sold this OR, emergency sales included",
        "seed 000 item 3.5; rules/1841.md §2.3.8, §6.3",
        (Data("emr_sales_block_corporate_rebuy", True),),
        note="de: Kein Rückkauf von in dieser Operationsrunde verkauften Aktien, auch nach "
        "Notverkauf; 18xx.games does not record emergency sales (UNSURE)",
    ),
    # --- seed 000, part 4: unofficial variants ---------------------------------------------
    Option(
        "open_concession_auction",
        "Open concession auction, also with Version 1",
        "seed 000 item 4.1; seed 003 H1; rules/1841.md §2.1.1, §6.4, §6.7",
        (Data("concession_auction", "open"),),
        note="de: Offene Versteigerung statt Konzessionsrunde; 18xx.games' Version 2 "
        "auction, so it changes the game only with version_1",
    ),
    Option(
        "corp_buy_same_country_only",
        "Corporations may not buy shares of corporations with tokens beyond a border",
        "seed 000 item 4.3; rules/1841.md §6.4",
        (Data("corporate_buys_within_borders", True),),
        note="de: Kein Aktienkauf von Gesellschaften mit Pöppeln jenseits einer Grenze",
    ),
    # --- seed 000, part 5: common mistakes -------------------------------------------------
    Option(
        "emr_respect_first_or",
        "Emergency sales exclude shares of a corporation in its first OR",
        "seed 000 mistake 5.6; rules/1841.md §2.3.7, §6.5",
        (Data("emr_sales_need_operated", True),),
        note="de: Auch im Notfall keine Aktien einer Gesellschaft in ihrer ersten "
        "Operationsrunde; FAQ item 1.13 and 18xx.games allow it",
    ),
    # --- seed 003: house rules of "18xx und Zugzwang" --------------------------------------
    Option(
        "priority_tie_by_lot",
        "Player order after the auction: ties decided by lot",
        "seed 003 H1; rules/1841.md §2.1.1, §6.7",
        (Data("auction_order_ties", "lot"),),
        note="de: Bei Gleichstand entscheidet das Los; 18xx.games: lowest concession, then seat",
    ),
    Option(
        "corp_foreign_sale_no_drop",
        "A corporation's sale of other corporations' shares does not lower their price",
        "seed 003 H2; rules/1841.md §6.7",
        (Data("corporate_sales_of_others_drop_price", False),),
        note="de: Verkaufen Firmen Fremdaktien, sinkt der Kurs nicht",
    ),
    Option(
        "end_finish_current_or",
        "Game end by top price or offboards: the current OR is played to its end",
        "seed 003 H4; rules/1841.md §1.4, §6.7",
        (Data("game_end_timing", "current_or"),),
        note="de: Die aktive Operationsrunde wird zu Ende gespielt; 18xx.games ends after "
        "the current operating turn",
    ),
    Option(
        "emr_no_president_to_pool",
        "Emergency financing never puts a director certificate into the pool",
        "seed 003 H8; rules/1841.md §2.3.7, §6.7",
        (Data("emr_president_cert_to_pool", False),),
        note="de: Bei der Notfinanzierung dürfen keine Direktoren im Pool landen",
    ),
    Option(
        "bankruptcy_zugzwang",
        "Bankruptcy: the bankrupt's corporations leave the game; he goes on with L.500",
        "seed 003 H9; rules/1841.md §2.6, §6.7",
        (Data("bankruptcy_procedure", "dissolve"),),
        note="de: Bankrott: alle kontrollierten Gesellschaften werden entfernt, weiter mit "
        "500L Kredit, keine Phasenänderung durch eine unbezahlte Lok",
    ),
    Option(
        "grandchild_no_par",
        "Grandchild corporations may not start corporations (proposal)",
        "seed 003 H10; rules/1841.md §6.7",
        (Data("grandchildren_may_par", False),),
        note="de: Vorschlag: Firmen, die selbst Enkel sind, dürfen keine Firma gründen; "
        "a proposal in the seed, so not part of the zugzwang house rules",
    ),
    Option(
        "default_orders_zugzwang",
        "Missing orders in mergers and transformations: cash, no tokens, tokens by lot",
        "seed 003 H15; rules/1841.md §6.7",
        (Data("missing_orders", "cash_no_tokens"),),
        note="de: Bei fehlender Angabe: Geld statt Aktie, keine Pöppel nachkaufen, "
        "möglichst viele Pöppel bleiben, welche entscheidet das Los",
    ),
    Option(
        "zugzwang",
        "House rules of the 18xx und Zugzwang group",
        "seed 003; rules/1841.md §6.7",
        note="de: Hausregeln von 18xx und Zugzwang; H1 (open auction) is the group's rule "
        "for games at the table, by mail it keeps the original concession round; "
        "player-to-player trading is forbidden (H6, H7)",
        conflicts=("p2p_purchases",),
        implies=ZUGZWANG,
    ),
)


@cache
def player_counts() -> tuple[int, ...]:
    """The player counts 1841 allows: ``[players]`` of data/game.toml, 3 to 8 (rules/1841.md
    §1.1; 18xx.games PLAYER_RANGE); the short game's table allows fewer, refused by its
    option's player counts."""
    from stellwerk.core.schema import player_counts as counts_of
    from stellwerk.titles.g1841.data_load import game_data

    return counts_of(game_data())


DECLARED: Declared[Settings1841] = Declared(
    "1841", OPTIONS, Settings1841(), player_counts, "rules/1841.md §1.1", "rules/1841.md §4, §6"
)
"""1841's options, player counts and the settings of 18xx.games' second edition."""
