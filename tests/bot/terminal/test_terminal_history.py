"""A Training played in the terminal, on the real game service over the bot's database,
is stored with the terminal's face and shows in the player's `/history` in Discord;
Discord announces nothing of it (simcord)."""

from __future__ import annotations

import pytest

from bot.storage import Face
from tests.bot.conftest import World
from tests.bot.terminal.test_terminal import CLASSIC, played
from tests.support.sim import shown

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_terminal_training_shows_in_discords_history(world: World) -> None:
    alice = world.alice
    record, text = await played(
        world.store, world.bot.evaluator, CLASSIC, ["34+89", "2*47+6", ":q"],  # type: ignore[arg-type]
        ["3489", "2476", "1111"], guild_id=world.guild.id, player=alice.id,
    )  # fmt: skip
    assert "34+89 = 123 (int) → 77 points, score 424" in text
    stored = await world.store.games.load_game(record.state.id)
    assert stored is not None and stored.face is Face.TERMINAL and not stored.active
    assert [a.score for r in stored.state.rounds if (a := r.answers[0])] == [424, 274]

    history = shown(await alice.slash(world.channel, "history"))
    listed = "\n".join([history.content or ""] + [e.description or "" for e in history.embeds])
    assert f"`{record.state.id[:8]}`" in listed, listed
    assert world.channel.threads == []  # no thread, no post: Discord did not announce it
    game = shown(await alice.slash(world.channel, "game", id=record.state.id[:8]))
    replay = "\n".join(
        [game.content or ""] + [f"{f.name}\n{f.value}" for e in game.embeds for f in e.fields]
        + [e.description or "" for e in game.embeds]
    )  # fmt: skip
    assert "34+89" in replay and "2*47+6" in replay
