"""`formula-darts run`: the invite lists every permission; a bad token or no network is
one line and exit code 1, not a traceback."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.cli import _run


def failing_main(error: BaseException):
    """What `run_discord` does when Discord refuses the token or cannot be reached."""

    async def main() -> None:
        raise error

    return main


def test_the_invite_instructions_list_every_permission_the_bot_uses() -> None:
    text = _run.setup_help()
    for permission in (
        "Send Messages",
        "Send Messages in Threads",
        "Create Public Threads",
        "Embed Links",
        "Attach Files",
        "Read Message History",
        "Use Application Commands",
    ):
        assert permission in text
    assert "{" not in text


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (discord.LoginFailure("Improper token has been passed."), "the token was refused"),
        (
            aiohttp.ClientConnectorError(None, OSError(-3, "Temporary failure")),  # type: ignore[arg-type]
            "cannot reach Discord",
        ),
        (OSError(101, "Network is unreachable"), "cannot reach Discord"),
        (discord.GatewayNotFound(), "cannot reach Discord"),
    ],
)
def test_a_refused_token_or_no_network_is_one_line(capsys, error, said) -> None:
    assert _run.run_bot(failing_main(error)) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert "not-a-token" not in err
