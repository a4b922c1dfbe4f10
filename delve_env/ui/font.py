"""A 5 x 7 bitmap font for ASCII 32-126, written as data (no font file, no dependency).

Each glyph is seven rows of five pixels; a row is a 5-bit number whose bit 4 is the leftmost
pixel. `CELLS` is the font as a (95, 8, 6) bool array: each glyph in a 6 x 8 cell (a blank
column on the right, a blank row below), the form `render.py` blits."""

import numpy as np

FIRST, LAST = 32, 126  # ' ' .. '~'
CELL_W, CELL_H = 6, 8

# one line a glyph, in ASCII order from ' ': seven hex rows, top first
GLYPHS = """
00 00 00 00 00 00 00
04 04 04 04 04 00 04
0A 0A 0A 00 00 00 00
0A 0A 1F 0A 1F 0A 0A
04 0F 14 0E 05 1E 04
18 19 02 04 08 13 03
0C 12 14 08 15 12 0D
04 04 08 00 00 00 00
02 04 08 08 08 04 02
08 04 02 02 02 04 08
00 04 15 0E 15 04 00
00 04 04 1F 04 04 00
00 00 00 00 0C 04 08
00 00 00 1F 00 00 00
00 00 00 00 00 0C 0C
00 01 02 04 08 10 00
0E 11 13 15 19 11 0E
04 0C 04 04 04 04 0E
0E 11 01 02 04 08 1F
1F 02 04 02 01 11 0E
02 06 0A 12 1F 02 02
1F 10 1E 01 01 11 0E
06 08 10 1E 11 11 0E
1F 01 02 04 08 08 08
0E 11 11 0E 11 11 0E
0E 11 11 0F 01 02 0C
00 0C 0C 00 0C 0C 00
00 0C 0C 00 0C 04 08
02 04 08 10 08 04 02
00 00 1F 00 1F 00 00
08 04 02 01 02 04 08
0E 11 01 02 04 00 04
0E 11 01 0D 15 15 0E
0E 11 11 11 1F 11 11
1E 11 11 1E 11 11 1E
0E 11 10 10 10 11 0E
1C 12 11 11 11 12 1C
1F 10 10 1E 10 10 1F
1F 10 10 1E 10 10 10
0E 11 10 17 11 11 0F
11 11 11 1F 11 11 11
0E 04 04 04 04 04 0E
07 02 02 02 02 12 0C
11 12 14 18 14 12 11
10 10 10 10 10 10 1F
11 1B 15 15 11 11 11
11 11 19 15 13 11 11
0E 11 11 11 11 11 0E
1E 11 11 1E 10 10 10
0E 11 11 11 15 12 0D
1E 11 11 1E 14 12 11
0F 10 10 0E 01 01 1E
1F 04 04 04 04 04 04
11 11 11 11 11 11 0E
11 11 11 11 11 0A 04
11 11 11 15 15 15 0A
11 11 0A 04 0A 11 11
11 11 11 0A 04 04 04
1F 01 02 04 08 10 1F
0E 08 08 08 08 08 0E
00 10 08 04 02 01 00
0E 02 02 02 02 02 0E
04 0A 11 00 00 00 00
00 00 00 00 00 00 1F
08 04 02 00 00 00 00
00 00 0E 01 0F 11 0F
10 10 16 19 11 11 1E
00 00 0E 10 10 11 0E
01 01 0D 13 11 11 0F
00 00 0E 11 1F 10 0E
06 09 08 1C 08 08 08
00 0F 11 11 0F 01 0E
10 10 16 19 11 11 11
04 00 0C 04 04 04 0E
02 00 06 02 02 12 0C
10 10 12 14 18 14 12
0C 04 04 04 04 04 0E
00 00 1A 15 15 11 11
00 00 16 19 11 11 11
00 00 0E 11 11 11 0E
00 00 1E 11 1E 10 10
00 00 0D 13 0F 01 01
00 00 16 19 10 10 10
00 00 0E 10 0E 01 1E
08 08 1C 08 08 09 06
00 00 11 11 11 13 0D
00 00 11 11 11 0A 04
00 00 11 11 15 15 0A
00 00 11 0A 04 0A 11
00 00 11 11 0F 01 0E
00 00 1F 02 04 08 1F
02 04 04 08 04 04 02
04 04 04 04 04 04 04
08 04 04 02 04 04 08
00 00 08 15 02 00 00
"""


def _cells() -> np.ndarray:
    """The glyph table as (95, CELL_H, CELL_W) bools."""
    rows = [line.split() for line in GLYPHS.strip().splitlines()]
    assert len(rows) == LAST - FIRST + 1 and all(len(r) == 7 for r in rows)
    bits = np.array([[int(v, 16) for v in r] for r in rows], dtype=np.uint8)  # (95, 7)
    cells = np.zeros((len(rows), CELL_H, CELL_W), dtype=np.bool_)
    for col in range(5):
        cells[:, :7, col] = (bits >> (4 - col)) & 1
    return cells


CELLS = _cells()


def glyph_indices(text: str) -> np.ndarray:
    """Each character's row of CELLS; anything outside ASCII 32-126 shows as '?'."""
    codes = np.frombuffer(text.encode("ascii", "replace"), dtype=np.uint8).astype(np.int64)
    codes[(codes < FIRST) | (codes > LAST)] = ord("?")
    return codes - FIRST
