"""``python -m templeforge`` and the ``templeforge`` program: the command line."""

import sys


def main() -> None:
    """Load the command line and run it; Ctrl-C while it loads is an interruption too."""
    try:
        from templeforge.cli import run
    except KeyboardInterrupt:
        sys.stderr.write("templeforge: interrupted\n")
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
