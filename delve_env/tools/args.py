"""The command line's parser: argparse's, with a bad argument said in one line.

argparse answers a bad argument with the whole usage and then the error; a command's usage
runs to twenty lines, and the line that matters is the last. Every `delve` command says it
alone, with where to read more, and exits with status 2.
"""

from __future__ import annotations

import argparse


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")
