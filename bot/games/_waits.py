"""Telling a private game's player that its round waits for them (issue 28).

A round no token of the player's can carry (`Unreachable` with `waits`) waits unseen
for their next press. While the game's kept token can still post a short message
(a round needs it for the whole round more; a note, for a moment), the player is told
where things stand and what shows the round. With no such token (it died, or it is
too old for anything) nothing can be told now: the round itself says it waited when
their next press shows it (`token.waited`).
"""

from __future__ import annotations

import logging

import discord

from bot.games._discord import RestBusy
from bot.games._followups import Followups
from bot.games._riding import Carriers, shows
from bot.i18n import DEFAULT_LOCALE, t
from bot.storage import GameRecord

log = logging.getLogger(__name__)


async def tell_waiting(carriers: Carriers, followups: Followups, record: GameRecord) -> bool:
    """The player told, through the game's kept token, that the open round waits for
    their press (in their language, naming the command that shows it); whether it went."""
    game_id = record.state.id
    kept = carriers.get(game_id)
    rnd = record.state.current_round
    if kept is None or rnd is None or not shows(record, kept):
        return False
    locale = record.meta.locale or DEFAULT_LOCALE
    text = t(f"token.waits_{record.state.mode.value}", locale, number=rnd.number)
    try:
        await followups.post(
            lambda: kept.post(content=text, ephemeral=True),
            f"game {game_id}: round {rnd.number} waits", kept, kept.usable_until(),
        )  # fmt: skip
    except (discord.HTTPException, RestBusy) as error:
        carriers.drop_if_dead(game_id, kept, error)
        log.info("game %s: telling that round %s waits failed: %r", game_id, rnd.number, error)
        return False
    return True
