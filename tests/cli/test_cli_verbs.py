"""The CLI reads its help from the verb table, and every command's --help has an example."""

from __future__ import annotations

import click
from click.testing import CliRunner

from groundgraph.cli import main
from groundgraph.cli.lazy_group import LazyGroup
from groundgraph.cli.verb_help import VERB_ATTRIBUTE
from groundgraph.graph.verbs import COMPANIONS, VERBS, verb


def commands(group: click.Group = main, path: tuple[str, ...] = ()):
    loaded = group.load_all() if isinstance(group, LazyGroup) else group.commands
    for name, command in loaded.items():
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def test_every_command_shows_an_example():
    for path, _ in commands():
        result = CliRunner().invoke(main, [*path.split(), "--help"])
        assert result.exit_code == 0, path
        assert "Example:\n    groundgraph " in result.output, path


def test_verb_commands_take_their_help_from_the_table():
    mapped = {
        path: getattr(c, VERB_ATTRIBUTE) for path, c in commands() if hasattr(c, VERB_ATTRIBUTE)
    }
    assert {"search", "index", "ground", "memory query", "memory what-if"} <= set(mapped)
    for path, name in mapped.items():
        command = dict(commands())[path]
        assert path in verb(name).cli, (path, name)
        assert (command.help or "").startswith(verb(name).summary), path


def test_the_table_names_only_commands_that_exist():
    paths = dict(commands())
    for found in VERBS.values():
        for path in found.cli:
            assert path in paths, (found.name, path)
    for _, entry in COMPANIONS.values():
        assert all(path in paths for path in entry.cli)


def test_options_read_their_defaults_and_help_from_the_table():
    search = dict(commands())["search"]
    hops = next(p for p in search.params if p.name == "max_hops")
    assert hops.default == VERBS["search"].param("max_hops").default
    assert hops.help == VERBS["search"].param("max_hops").doc
    what_if = dict(commands())["memory what-if"]
    direction = next(p for p in what_if.params if p.name == "direction")
    assert list(direction.type.choices) == ["effects", "causes"]
