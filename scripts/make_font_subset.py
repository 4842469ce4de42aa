#!/usr/bin/env python3
"""Regenerate static/fonts/xiangqi-cards.woff2 and static/fonts/OFL.txt.

The cards' 14 xiangqi glyphs, 四色牌 and a space, from Noto Serif CJK TC Bold, renamed
"Xiangqi Cards" as the SIL Open Font License asks of modified versions. The outputs are
committed; regenerate them after changing the glyph list:

    apt-get install fonts-noto-cjk && make install
    .venv/bin/python scripts/make_font_subset.py
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
# Red/white (帥 仕 相 俥 傌 炮 兵) then yellow/green (將 士 象 車 馬 包 卒) pieces, the game's
# name (四色牌: the brand and the footer) and a space.
GLYPHS = "帥仕相俥傌炮兵將士象車馬包卒四色牌 "
FAMILY = "Xiangqi Cards"
DEFAULT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
DEFAULT_FACE = "Noto Serif CJK TC"
DEFAULT_LICENSE_SOURCE = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def load_face(source: Path, face: str) -> TTFont:
    """The font named `face` (a family name such as "Noto Serif CJK TC") from a .ttc or .otf."""
    if source.suffix.lower() == ".ttc":
        for font in TTCollection(str(source)).fonts:
            if font["name"].getDebugName(1) == face:
                return font
        raise SystemExit(f"{source}: no face named {face!r}")
    return TTFont(str(source))


def rename(font: TTFont) -> None:
    """Give the subset its own names (family, full, PostScript), keeping copyright and licence."""
    name_table = font["name"]
    names = {1: FAMILY, 2: "Bold", 3: f"{FAMILY} Bold subset", 4: f"{FAMILY} Bold"}
    names[6] = "XiangqiCards-Bold"
    for record in list(name_table.names):
        if record.nameID in (16, 17):  # typographic family/subfamily: drop the original's
            name_table.removeNames(nameID=record.nameID)
    for name_id, text in names.items():
        name_table.setName(text, name_id, 3, 1, 0x409)
        name_table.setName(text, name_id, 1, 0, 0)
    # The CFF table carries its own copy of the PostScript name.
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [names[6]]
        top = cff.topDictIndex[0]
        for attr in ("FullName", "FamilyName"):
            if hasattr(top, attr):
                setattr(top, attr, names[4] if attr == "FullName" else FAMILY)


def make_subset(font: TTFont, out: Path) -> None:
    options = subset.Options()
    options.flavor = "woff2" if out.suffix == ".woff2" else "woff"
    options.layout_features = []  # single glyphs, horizontal text: no shaping needed
    options.hinting = False
    options.desubroutinize = True  # compresses better under brotli
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright, version and licence
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=GLYPHS)
    subsetter.subset(font)
    missing = [ch for ch in GLYPHS if ord(ch) not in font.getBestCmap()]
    if missing:
        raise SystemExit(f"the source font lacks {''.join(missing)!r}")
    rename(font)
    out.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(out), options)


def licence_text(font_copyright: str, debian_copyright: Path) -> str:
    """The OFL 1.1 text from Debian's machine-readable copyright file, under the font's notice."""
    lines = debian_copyright.read_text(encoding="utf-8").splitlines()
    # The licence text is the stand-alone "License: SIL-1.1" stanza (the one followed by an
    # indented body), not the one-line reference inside the "Files: *" stanza.
    starts = [
        i
        for i, line in enumerate(lines[:-1])
        if line == "License: SIL-1.1" and lines[i + 1].startswith(" ")
    ]
    if not starts:
        raise SystemExit(f"{debian_copyright}: no OFL text found")
    start = starts[0]
    body: list[str] = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):  # the next stanza starts at column 0
            break
        # Debian's format indents every line by one space and writes blank lines as " .".
        body.append("" if line.strip() == "." else line[1:])
    text = "\n".join(body).strip()
    if "SIL OPEN FONT LICENSE" not in text.upper():
        raise SystemExit(f"{debian_copyright}: no OFL text found")
    return (
        f"static/fonts/xiangqi-cards.woff2 is a subset of Noto Serif CJK TC Bold, renamed\n"
        f'"{FAMILY}" as the licence asks of modified versions.\n\n'
        f"{font_copyright}\n\n{text}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--face", default=DEFAULT_FACE)
    parser.add_argument("--license-source", type=Path, default=DEFAULT_LICENSE_SOURCE)
    parser.add_argument("--out", type=Path, default=ROOT / "static/fonts/xiangqi-cards.woff2")
    args = parser.parse_args(argv)

    font = load_face(args.source, args.face)
    font_copyright = re.sub(r"\s+", " ", font["name"].getDebugName(0) or "").strip()
    make_subset(font, args.out)
    licence = args.out.parent / "OFL.txt"
    licence.write_text(licence_text(font_copyright, args.license_source), encoding="utf-8")
    print(f"{args.out}: {args.out.stat().st_size} bytes; {licence} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
