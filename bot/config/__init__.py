"""Server settings: `/config` (daily-post channel, language, timezone) and the daily post.

The cog only parses options; `ServerConfig` checks and stores them (`Store.servers`).
"""

from bot.config._cog import ConfigCog, web_address
from bot.config._service import ConfigError, ServerConfig, missing_permissions, zone_choices

__all__ = [
    "ConfigCog",
    "ConfigError",
    "ServerConfig",
    "missing_permissions",
    "web_address",
    "zone_choices",
]
