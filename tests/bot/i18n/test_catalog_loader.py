"""The catalog is read with libyaml's safe loader where PyYAML has it (`read_yaml`): it
must read every file exactly as PyYAML's pure-Python `safe_load` does."""

from __future__ import annotations

import pytest
import yaml

from bot.i18n._catalog import CATALOG_DIR, Catalog, read_yaml


def test_every_catalog_file_reads_as_safe_load_reads_it() -> None:
    files = sorted(CATALOG_DIR.glob("*.yaml"))
    assert len(files) > 10
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert read_yaml(text) == yaml.safe_load(text), file.name


def test_without_libyaml_the_catalog_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    with_c = Catalog.load().messages
    monkeypatch.setattr(yaml, "__with_libyaml__", False)
    assert Catalog.load().messages == with_c


def test_read_yaml_builds_no_python_objects() -> None:
    with pytest.raises(yaml.constructor.ConstructorError):
        read_yaml("!!python/object/apply:os.system ['true']")
