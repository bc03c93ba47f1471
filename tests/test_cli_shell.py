"""The command shell itself: help, version, language."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from taistelukentta import __version__
from taistelukentta.cli.app import app
from taistelukentta.errors import DataError
from taistelukentta.i18n import set_language, term, tr

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "Usage" in result.output


def test_unknown_language_is_rejected() -> None:
    with pytest.raises(ValueError, match="sv"):
        set_language("sv")


def test_glossary_terms_follow_language() -> None:
    set_language("en")
    try:
        assert term("HEAVY_HIT") == "Heavy hit"
        assert tr("kyllä", "yes") == "yes"
    finally:
        set_language("fi")
    assert term("HEAVY_HIT") == "Raskas osuma"


def test_data_error_lists_every_problem() -> None:
    err = DataError("x.toml", ["a: bad", "b: worse"])
    assert "x.toml" in str(err)
    assert "a: bad" in str(err) and "b: worse" in str(err)
