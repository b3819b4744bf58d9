"""Each game's events go to the face it was started from (`Faces`): on one service, a
Training started from the terminal is announced by the terminal only, one started from
Discord by Discord only; a process resumes only the games of the faces it has."""

from __future__ import annotations

import io

import pytest

import rules
from bot.play import Face, Faces, GameService
from bot.storage import Store
from bot.terminal import TerminalFace
from evaluator import Evaluator
from tests.bot.games.test_games_service import Clock, Recorder
from tests.support.fixtures import ForcedDigits, evaluator, store  # noqa: F401 (fixtures)

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def no_channel(game_set: rules.GameSet) -> int:
    del game_set
    return 50


async def test_each_game_is_announced_by_its_own_face(store: Store, evaluator: Evaluator) -> None:
    clock, out, discord = Clock(), io.StringIO(), Recorder()
    terminal = TerminalFace(out, clock)
    faces = Faces()
    faces.attach(Face.DISCORD, discord)
    faces.attach(Face.TERMINAL, terminal, terminal)
    digits = ForcedDigits()
    digits.extend("7001", "7001")
    service = GameService(
        store, evaluator, rules.load_sets(), clock=clock, digits_source=digits, faces=faces
    )
    try:
        here = await service.start_single(
            rules.Mode.TRAINING, 1, 10, "darts", "en", no_channel, face=Face.TERMINAL
        )
        there = await service.start_single(rules.Mode.TRAINING, 1, 20, "darts", "en", no_channel)
        assert (here.face, there.face) == (Face.TERMINAL, Face.DISCORD)
        await service.submit(here.state.id, 10, "700+1")
        await service.submit(there.state.id, 20, "700+1")
    finally:
        await service.close()
    assert {game for _, game, _ in discord.events} == {there.state.id}
    assert [name for name, _, _ in discord.events] == ["round_started", "round_resolved",
                                                       "game_over"]  # fmt: skip
    shown = out.getvalue()
    assert "Digits 7001" in shown and "✓ 700+1 = 701 (int)" in shown and "PERFECT" in shown
    assert terminal.over.is_set()


async def test_a_process_resumes_only_the_games_of_its_faces(
    store: Store, evaluator: Evaluator
) -> None:
    clock, out = Clock(), io.StringIO()
    terminal = TerminalFace(out, clock)
    faces = Faces()
    faces.attach(Face.TERMINAL, terminal, terminal)
    service = GameService(store, evaluator, rules.load_sets(), clock=clock, faces=faces)
    try:  # a terminal closed without a word: its game is left running in the store
        left = await service.start_single(
            rules.Mode.TRAINING, 1, 10, "darts", "en", no_channel, face=Face.TERMINAL
        )
    finally:
        await service.close()
    discord = Recorder()
    bot = GameService(store, evaluator, rules.load_sets(), discord, clock=clock)
    try:
        assert await bot.recover() == 0
        assert bot.active.get(left.state.id) is None and discord.events == []
    finally:
        await bot.close()
