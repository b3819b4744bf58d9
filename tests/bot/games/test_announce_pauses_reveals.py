"""A round's post refused by a 429's pause (issue 29) keeps the best answers it found:
the post after the pause shows them without asking the solver again. Apart from
test_announce_pauses.py: the solver's fixtures run in the test's own loop."""

from __future__ import annotations

from tests.bot.games.test_announce_pauses import PAUSE_S
from tests.bot.games.test_games_reveals import revealing  # noqa: F401 (fixture)
from tests.support.fixtures import solver  # noqa: F401 (fixture)
from tests.support.sim import button_id, public_message


async def test_a_round_posted_after_a_pause_keeps_the_best_answers_found_before(
    revealing,
) -> None:
    """The post refused by the pause had found round 1's best answers (the solver's work):
    the post after the pause shows them without solving them again. The pause is a
    Cloudflare 429's (simcord's carry no headers), the chaos run's seed 3's."""
    env, guild, channel = revealing
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    env.bot.service.flow.digits = lambda state, number: ["3489", "6002", "7001"][number - 1]
    reveals = env.bot.service.flow.reveals
    asked: list[str] = []
    best = reveals.revealer.best

    async def counted(digits, *args, **kwargs):
        asked.append(digits)
        return await best(digits, *args, **kwargs)

    reveals.revealer = type("Counted", (), {"best": staticmethod(counted)})()
    challenge = await alice.slash(channel, "duel", opponent=bob)
    message = public_message(challenge)
    await bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    thread = channel.threads[-1]
    env.inject_error("PATCH", "/channels/*/messages/*", status=429, times=1)
    await env.advance_time(121)  # round 1 ends; its result's edit meets Cloudflare's 429
    assert env.bot.budget.stats().banned  # every call waits the ban's backoff: round 2 too
    await env.advance_time(PAUSE_S)
    second = " ".join(str(e.to_dict()) for e in thread.last_message.embeds)
    assert "round 2 of 7" in second and "Best possible in round 1" in second
    assert asked.count("3489") <= 2  # one solve a seat, not one more per try of the post
