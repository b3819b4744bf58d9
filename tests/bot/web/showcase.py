"""A realistic server for the README's screenshots: eight players' Qualifications of one
day and an Online Duel, played through the rules engine with formulas that compute their
Results (a few shapes of the Digits, the best for the Score left, as a player would)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import rules
from bot.storage import GameMeta, GameRecord, Reveal, Store

GUILD = 7
DAY = "2026-01-01"
START = 1_767_225_600.0
PLAYERS = {
    201: "Оксана Мельник", 202: "Taras K.", 203: "Марта 🎯", 204: "dmytro_dev",
    205: "Ірина Коваленко", 206: "Bohdan", 207: "Соломія", 208: "alex",
}  # fmt: skip
SHAPES = (
    "{a}{b}+{c}{d}", "{a}{b}*{c}+{d}", "{a}*{b}{c}+{d}", "{a}{b}{c}+{d}", "{a}+{b}{c}{d}",
    "{a}*{b}*{c}+{d}", "{a}{b}-{c}+{d}", "{a}{b}*{c}-{d}", "{a}*{b}+{c}*{d}", "{a}{b}{c}-{d}",
    "{a}{b}-{c}{d}", "{a}*{b}-{c}+{d}", "{a}-{b}+{c}-{d}", "{a}*{b}*{c}*{d}", "{a}{b}/{c}+{d}",
)  # fmt: skip


def _answers(digits: str) -> list[tuple[str, float]]:
    """(formula, Result) for each shape of `digits` (evaluated as PHP would them)."""
    a, b, c, d = tuple(digits)
    found = []
    for shape in SHAPES:
        formula = shape.format(a=a, b=b, c=c, d=d)
        if re.search(r"(?<!\d)0\d", formula):
            continue  # a leading 0 is octal to PHP
        try:
            value = eval(formula)  # digits and + - * / only, as written above
        except ZeroDivisionError:
            continue
        found.append((formula, float(value) if isinstance(value, float) else value))
    return found


def _play(state: rules.GameState, seat: int, digits: str, at: float, skill: float,
          pick: random.Random) -> tuple[rules.GameState, Reveal]:  # fmt: skip
    """The seat answers: its best shape, or (missing `skill`) a worse one; and the best."""
    player = state.players[seat]
    ranked = []
    for formula, value in _answers(digits):
        trial = rules.apply(replace(state, rounds=list(state.rounds)), rules.Submit(
            player, formula, value, at))  # fmt: skip
        answer = trial.rounds[-1].answers[seat]
        assert answer is not None
        ranked.append((float(answer.score), formula, value, answer.points))
    ranked.sort(key=lambda r: r[0])
    chosen = ranked[0] if pick.random() < skill else ranked[min(len(ranked) - 1, 2)]
    best = ranked[0]
    reveal = Reveal(len(state.rounds), seat, best[1], best[2], best[3], best[0])
    return rules.apply(state, rules.Submit(player, chosen[1], chosen[2], at)), reveal


async def populate(store: Store) -> tuple[str, str]:
    """The day's board and one duel; (the server's page key, the duel's id)."""
    pick = random.Random(33)
    day_digits = [f"{pick.randint(1000, 9999)}" for _ in range(7)]
    for number, (user, skill) in enumerate(
        zip(PLAYERS, (1, 1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4), strict=True)
    ):
        game_id = f"{pick.getrandbits(128):032x}"
        state = rules.new_game(game_id, rules.Mode.QUALIFICATION, rules.CLASSIC, [str(user)])
        reveals = []
        for index, digits in enumerate(day_digits):
            if state.outcome is not None:
                break
            opened = START + 600 * number + 130 * index
            state = rules.apply(state, rules.StartRound(digits, opened))
            at = opened + 8 + pick.random() * 70
            state, reveal = _play(state, 0, digits, at, skill, pick)
            reveals.append(reveal)
        await store.games.save_game(GameRecord(
            state=state, guild_id=GUILD, channel_id=1, period=DAY, seed="s",
            created_at=START + 600 * number, meta=GameMeta(best=tuple(reveals)),
        ))  # fmt: skip
    duel_id = f"{pick.getrandbits(128):032x}"
    state = rules.new_game(duel_id, rules.Mode.DUEL, rules.CLASSIC, ["201", "203"])
    reveals = []
    for index in range(7):
        if state.outcome is not None:
            break
        digits = f"{pick.randint(1000, 9999)}"
        opened = START + 9000 + 130 * index
        state = rules.apply(state, rules.StartRound(digits, opened))
        for seat, skill in ((0, 0.9), (1, 0.8)):
            state, reveal = _play(
                state, seat, digits, opened + 10 + pick.random() * 60, skill, pick
            )
            reveals.append(reveal)
    record = GameRecord(
        state=state, guild_id=GUILD, channel_id=1, seed="s", created_at=START + 9000,
        meta=GameMeta(best=tuple(reveals)),
    )  # fmt: skip
    await store.games.save_game(record)
    await store.boards.record_duel_result(record)
    await store.names.remember(GUILD, PLAYERS, 1.0)
    settings = await store.servers.set_web(GUILD, True, 1.0)
    await store.servers.name_server(GUILD, "Львівський клуб дартсу 🎯", 1.0)
    assert settings.web_key is not None
    return settings.web_key, duel_id
