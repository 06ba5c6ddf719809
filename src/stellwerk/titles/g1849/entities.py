"""1849's corporation: the core corporation plus the charter facts 1849 adds (1849 rules §1-2).

Every corporation of an 1849 game is a :class:`Corporation1849`; :func:`c49` narrows a core
``Corporation`` to it where title code needs these fields.
"""

from __future__ import annotations

from stellwerk.core.entities import Corporation, Share


class Corporation1849(Corporation):
    """A corporation with 1849's own state.

    ``token_fee``: what parring costs on top of the shares (the home token, 1849 rules §1.2);
    ``next_to_par``: whether it is the next corporation of the fixed order that may be parred,
    ``closed_recently``: closed this stock round (may not be parred again in it), ``slot_open``:
    its home city has room (1849 rules §2.2); ``reached_max_value``: its price has reached the
    red E zone once; ``sms_hexes``: the hexes where the SMS home token may still go, or None;
    ``bond``: the bond is issued (1849 rules §7.4); ``e_token``: it holds an E-token;
    ``tokens``: where each charter token is (hex, or None while on the charter; 18xx.games keeps
    the order of its token objects, which decides which one a purchase takes);
    ``last_cert``: the 20 % last certificate, which leaves a holder only as the last of its
    certificates there (1849 rules §2.2).
    """

    def __init__(
        self,
        sym: str,
        name: str,
        share_percents: list[int],
        tokens: int,
        float_percent: int,
        home: str | None,
        token_fee: int,
    ) -> None:
        super().__init__(sym, name, share_percents, tokens, float_percent, home)
        self.token_fee = token_fee
        self.next_to_par = False
        self.closed_recently = False
        self.slot_open = True
        self.reached_max_value = False
        self.sms_hexes: list[str] | None = None
        self.bond = False
        self.e_token = False
        self.tokens: list[str | None] = [None] * tokens
        self.last_cert: Share = self.certificates[-1]


def c49(corp: Corporation) -> Corporation1849:
    """``corp`` as the 1849 corporation it is."""
    if not isinstance(corp, Corporation1849):
        raise TypeError(f"{corp.sym} is not an 1849 corporation")
    return corp
