"""`muster` and `python -m generator`: the command line (cli.run). `muster build` forks the second process of a
build first, so that it imports the stages while this one imports the command line (building/pipeline.py)."""

import sys


def run() -> None:
    if sys.argv[1:2] == ["build"]:
        from .building.pipeline import prepare

        prepare()
    from .cli import run as command

    command()


if __name__ == "__main__":
    run()
