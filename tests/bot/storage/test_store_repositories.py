"""The Store is split by subject (issue 30): it opens the database and holds one
repository per subject, inherits nothing and answers nothing itself, and every
repository it holds is named where a maintainer looks for it."""

from __future__ import annotations

import ast
import inspect

import bot.storage
from bot.storage import Store
from tests.support.paths import ROOT

DOCS = (ROOT / "docs" / "ARCHITECTURE.md", ROOT / "docs" / "GLOSSARY.md")


def repositories() -> dict[str, str]:
    """`Store.__init__`'s `self.<attribute> = <Class>(...)`: attribute -> class name."""
    tree = ast.parse((ROOT / "bot" / "storage" / "_store.py").read_text("utf-8"))
    init = next(
        node
        for top in ast.walk(tree)
        if isinstance(top, ast.ClassDef) and top.name == "Store"
        for node in top.body
        if isinstance(node, ast.FunctionDef) and node.name == "__init__"
    )
    return {
        target.attr: node.value.func.id
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id.endswith("Store")
        for target in node.targets
        if isinstance(target, ast.Attribute)
    }


def test_the_store_inherits_no_part_and_keeps_no_subject_of_its_own() -> None:
    """Seen failing (with the other two tests) on the Store that inherited BoardsPart,
    OffersPart and ModerationPart and kept the games' and the installation's methods."""
    assert Store.__mro__ == (Store, object)
    own = {
        name
        for name, value in vars(Store).items()
        if not name.startswith("_") and inspect.isfunction(value)
    }
    assert own == {"close"}


def test_each_subject_has_its_repository() -> None:
    held = repositories()
    wanted = {
        "games": "GameStore",
        "boards": "BoardStore",
        "challenges": "ChallengeStore",
        "sets": "ServerSetStore",
        "moderation": "ModerationStore",
        "install": "InstallStore",
        "servers": "ServerStore",
    }
    assert wanted.items() <= held.items()


def test_every_repository_is_named_in_the_docs_and_the_package() -> None:
    package = bot.storage.__doc__ or ""
    for attribute, klass in repositories().items():
        assert f"`store.{attribute}`" in package, attribute
        for doc in DOCS:
            text = doc.read_text("utf-8")
            assert f"`Store.{attribute}`" in text, (doc.name, attribute)
            assert f"`{klass}`" in text, (doc.name, klass)
