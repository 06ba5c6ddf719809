"""``python -m stellwerk``: the same command as ``stellwerk``."""

from stellwerk.cli.main import main

if __name__ == "__main__":
    main(prog_name="stellwerk")
