"""Start-up: settings, the development guild sync, and the command surface."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.settings import BotSettings
from tests.support.fixtures import simulated
from tests.support.sim import reply_text

DEV_GUILD = 1_400_000_000_000_000_000


def test_settings_come_from_the_environment(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///x.sqlite3")
    monkeypatch.setenv("DEV_GUILD_ID", str(DEV_GUILD))
    monkeypatch.setenv("EVALUATOR", "local")
    settings = BotSettings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc"
    assert "abc" not in repr(settings)
    assert settings.dev_guild_id == DEV_GUILD
    assert settings.evaluator_settings.evaluator == "local"
    assert settings.sets_file is None


@pytest.mark.asyncio(loop_scope="session")
async def test_commands_sync_to_the_development_guild(store, evaluator, tmp_path) -> None:
    settings = BotSettings(
        database_url=f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3", dev_guild_id=DEV_GUILD
    )
    async with simulated(create_bot(settings, store=store, evaluator=evaluator)) as env:
        guild = env.create_guild("dev", id=DEV_GUILD)
        channel = guild.create_text_channel("dev")
        alice = guild.add_member(env.create_user("alice"))
        assert {"training", "qualification", "duel", "answer", "resign", "rules", "sets list"} <= (
            set(alice.available_commands(channel))
        )
        synced = env.backend.commands
        assert not synced.get(None), "commands were synced globally, not to the dev guild only"
        assert {name for name, _type in synced[DEV_GUILD]} >= {"training", "rules", "sets"}
        rules = await alice.slash(channel, "rules")
        assert rules.ephemeral and not reply_text(rules)
        assert rules.response.embeds[0].title == "The game"  # type: ignore[union-attr]
