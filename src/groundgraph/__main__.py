"""``python -m groundgraph``: the command line."""

from groundgraph.cli import main

main(prog_name="groundgraph", obj={})
