"""Which page numbers a long list links: the first, the last and those around the page
shown, with a gap (None) where pages are left out; a list of one page has none."""

from __future__ import annotations

AROUND = 2
"""Pages linked on each side of the one shown."""


def page_numbers(page: int, pages: int) -> list[int | None]:
    """0-based page numbers to link, `None` for a gap; empty for a single page."""
    if pages <= 1:
        return []
    wanted = {0, pages - 1, *range(max(0, page - AROUND), min(pages, page + AROUND + 1))}
    if pages <= 2 * AROUND + 3:
        wanted = set(range(pages))
    numbers: list[int | None] = []
    for number in sorted(wanted):
        if numbers and numbers[-1] is not None and number - numbers[-1] > 1:
            numbers.append(None)
        numbers.append(number)
    return numbers
