"""The command line loads a command's modules only when the command is used (issue 12)."""

from __future__ import annotations

import os
import subprocess
import sys

import click
from click.testing import CliRunner

import groundgraph
from groundgraph.cli import main
from groundgraph.cli.app import COMMAND_LINES, COMMAND_VERBS, COMMANDS
from groundgraph.cli.lazy_group import LazyGroup
from groundgraph.cli.verb_help import VERB_ATTRIBUTE

PROBE = (
    "import sys\n"
    "from groundgraph.cli import main\n"
    "try:\n"
    "    main(ARGS, prog_name='groundgraph')\n"
    "except SystemExit:\n"
    "    pass\n"
    "mods = sys.modules\n"
    "print('LOADED', 'numpy' in mods, 'groundgraph.graph.document_graph' in mods,"
    " sorted(m for m in mods if m.startswith('groundgraph.cli.')))\n"
)


def loaded_after(*args: str) -> str:
    code = PROBE.replace("ARGS", repr(list(args)))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return next(line for line in done.stdout.splitlines() if line.startswith("LOADED"))


def test_version_loads_neither_numpy_nor_the_graph():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"groundgraph, version {groundgraph.__version__}"
    assert loaded_after("--version") == (
        "LOADED False False ['groundgraph.cli.app', 'groundgraph.cli.lazy_group']"
    )


def modules_after(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint('MODULES', ' '.join(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def test_import_groundgraph_loads_neither_numpy_nor_the_graph():
    modules = modules_after("import groundgraph")
    assert "numpy" not in modules
    assert not any(m.startswith("groundgraph.graph") for m in modules)


def test_the_verb_tables_help_text_loads_neither_numpy_nor_the_facade():
    # What the CLI's commands read for their one-line help and examples: every verb's
    # summary, the helpers that register verb commands, and the enums and bounds the
    # entries state (search.choices, graph.bridge_limits, memory.limits, reason.limits).
    modules = modules_after(
        "from groundgraph.cli import main\n"
        "from groundgraph.cli.verb_help import verb_command\n"
        "from groundgraph.graph.verbs import COMPANIONS, VERBS, verb_summary\n"
        "assert all(verb_summary(name) for name in [*VERBS, *COMPANIONS])\n"
    )
    assert "numpy" not in modules
    assert "groundgraph.graph.document_graph" not in modules
    assert "groundgraph.search.documents" not in modules


def test_a_command_loads_its_own_module_only():
    line = loaded_after("search", "--help")
    assert "'groundgraph.cli.reading'" in line
    for other in ("documents", "evidence", "memory", "reasoning", "grounding", "checking"):
        assert f"'groundgraph.cli.{other}'" not in line


def test_the_command_table_names_exactly_the_registered_commands():
    assert isinstance(main, LazyGroup)
    registered = main.load_all()
    assert set(registered) == set(COMMANDS)
    for name, command in registered.items():
        assert command.callback is not None
        assert command.callback.__module__ in COMMANDS[name], name


def test_the_group_help_loads_no_command_module_nor_numpy():
    assert loaded_after("--help") == (
        "LOADED False False ['groundgraph.cli.app', 'groundgraph.cli.lazy_group']"
    )


def test_the_group_help_shown_unloaded_is_the_help_of_the_loaded_commands():
    # The one lines come from the verb table and COMMAND_LINES without loading a command;
    # once every command is loaded, the page is made from the commands themselves.
    code = (
        "from groundgraph.cli import main\n"
        "LOAD\n"
        "try:\n"
        "    main(['--help'], prog_name='groundgraph')\n"
        "except SystemExit:\n"
        "    pass\n"
    )
    for columns in ("50", "80", "200"):
        pages = [
            subprocess.run(
                [sys.executable, "-c", code.replace("LOAD", load)],
                capture_output=True,
                text=True,
                timeout=60,
                env={**os.environ, "COLUMNS": columns},
            ).stdout
            for load in ("pass", "main.load_all()")
        ]
        assert pages[0] == pages[1]
        assert "Commands:" in pages[0]
    registered = main.load_all()
    for name, command in registered.items():
        assert getattr(command, VERB_ATTRIBUTE, None) == COMMAND_VERBS.get(name), name
    assert set(COMMAND_VERBS) | set(COMMAND_LINES) == set(COMMANDS)


def test_help_lists_every_command():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f"  {name} " in result.output, name


def test_an_unknown_command_is_refused():
    result = CliRunner().invoke(main, ["serach", "x"])
    assert result.exit_code == 2
    assert "No such command 'serach'" in result.output
    assert isinstance(main.get_command(click.Context(main), "serach"), type(None))
