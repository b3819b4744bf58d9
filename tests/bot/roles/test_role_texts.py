"""Every reason the bot cannot give a role, and every reward, reads in both languages."""

from __future__ import annotations

import pytest

from bot.i18n import catalog
from bot.roles import Lack
from bot.storage import RoleReward


@pytest.mark.parametrize("locale", ["en", "uk"])
def test_every_lack_and_reward_has_its_text(locale: str) -> None:
    messages = catalog().messages
    keys = [f"roles.lack.{lack.value}" for lack in Lack]
    keys += [f"roles.reward.{r.value}" for r in RoleReward]
    keys += [f"commands.roles.reward.{r.value}" for r in RoleReward]
    assert [k for k in keys if locale not in messages.get(k, {})] == []
