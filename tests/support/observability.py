"""Reading the observability server as Prometheus and an orchestrator do: over HTTP on
loopback, parsed by prometheus-client's own parsers (text or OpenMetrics)."""

from __future__ import annotations

from collections.abc import Iterable

import aiohttp
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse_om
from prometheus_client.parser import text_string_to_metric_families as parse_text
from prometheus_client.samples import Sample

from bot.observability import HealthServer

OPENMETRICS = "application/openmetrics-text; version=1.0.0"


class Scrape:
    """Samples by (name, labels): `scrape[("formula_darts_answers_total", {"code": "ok"})]`."""

    def __init__(self, samples: Iterable[Sample], content_type: str) -> None:
        self.samples = list(samples)
        self.content_type = content_type

    def value(self, name: str, **labels: str) -> float:
        found = [s.value for s in self.samples if s.name == name and s.labels == labels]
        assert len(found) == 1, f"{name}{labels}: {len(found)} samples"
        return found[0]

    def names(self) -> set[str]:
        return {s.name for s in self.samples}

    def labels_of(self, name: str) -> list[dict[str, str]]:
        return [s.labels for s in self.samples if s.name == name]


async def scrape(server: HealthServer, accept: str | None = None) -> Scrape:
    headers = {"Accept": accept} if accept else {}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/metrics", headers=headers) as response,
    ):
        assert response.status == 200
        text = await response.text()
        kind = response.headers["Content-Type"]
    parse = parse_om if kind.startswith("application/openmetrics-text") else parse_text
    return Scrape((s for family in parse(text) for s in family.samples), kind)


async def healthz(server: HealthServer) -> tuple[int, dict[str, object]]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/healthz") as response,
    ):
        return response.status, await response.json()
