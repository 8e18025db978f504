#!/usr/bin/env python3
"""Generates engine/tokenizer/unicode_tables.cpp: the Unicode general-category classes and the
White_Space property as compact code point ranges, for the byte-level BPE pre-tokenizers
(grouped the way llama.cpp's src/unicode.cpp groups them).

Input: the Unicode Character Database as Debian's package `unicode-data` installs it
(/usr/share/unicode/UnicodeData.txt and PropList.txt). The output is committed, so building
Folio needs neither this script nor the package; rerun it only to move to a newer Unicode:

    sudo apt-get install unicode-data
    python3 tools/unicode/gen_unicode_tables.py [--ucd /usr/share/unicode] \
        [--out engine/tokenizer/unicode_tables.cpp]

Classes follow llama.cpp's table (first letter of the general category): N number, L letter,
Z separator, M mark, P punctuation, S symbol, C control (Cc Cf Co Cs); unassigned (Cn) code
points are not listed and read as "undefined". `<..., First>` / `<..., Last>` pairs in
UnicodeData.txt denote whole ranges (CJK, Hangul, private use, ...).
"""

import argparse
import os
import re
import sys

# Bits of tokenizer::UnicodeClass (engine/tokenizer/unicode.h).
CLASS_BITS = {"N": 0x01, "L": 0x02, "Z": 0x04, "M": 0x08, "P": 0x10, "S": 0x20, "C": 0x40}
CLASS_NAMES = {0x01: "kNumber", 0x02: "kLetter", 0x04: "kSeparator", 0x08: "kMark",
               0x10: "kPunctuation", 0x20: "kSymbol", 0x40: "kControl"}
MAX_CP = 0x110000


def read_categories(path):
    cls = {}
    first = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split(";")
            if len(fields) < 3:
                continue
            cp = int(fields[0], 16)
            name, cat = fields[1], fields[2].strip()
            if cat == "Cn":
                continue
            bit = CLASS_BITS[cat[0]]
            if name.endswith(", First>"):
                first = cp
                continue
            if name.endswith(", Last>"):
                assert first is not None
                for c in range(first, cp + 1):
                    cls[c] = bit
                first = None
                continue
            cls[cp] = bit
    return cls


def read_property(path, prop):
    cps = set()
    pat = re.compile(r"^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*(\w+)")
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = pat.match(line)
            if m and m.group(3) == prop:
                lo = int(m.group(1), 16)
                hi = int(m.group(2), 16) if m.group(2) else lo
                cps.update(range(lo, hi + 1))
    return cps


def to_ranges(items):
    """items: sorted (cp, value); returns [(first, last, value)] merging consecutive equal."""
    ranges = []
    for cp, v in items:
        if ranges and ranges[-1][1] == cp - 1 and ranges[-1][2] == v:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp, v])
    return ranges


def unicode_version(ucd):
    # The first line of PropList.txt reads "# PropList-15.0.0.txt".
    try:
        with open(os.path.join(ucd, "PropList.txt"), encoding="utf-8") as f:
            m = re.search(r"PropList-(\d+\.\d+\.\d+)", f.readline())
            return m.group(1) if m else "unknown"
    except OSError:
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ucd", default="/usr/share/unicode")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "..", "engine", "tokenizer",
                                                   "unicode_tables.cpp"))
    args = ap.parse_args()

    cls = read_categories(os.path.join(args.ucd, "UnicodeData.txt"))
    ws = read_property(os.path.join(args.ucd, "PropList.txt"), "White_Space")
    cat_ranges = to_ranges(sorted(cls.items()))
    ws_ranges = to_ranges([(c, 1) for c in sorted(ws)])
    version = unicode_version(args.ucd)

    out = []
    out.append("// GENERATED FILE - do not edit. Made by tools/unicode/gen_unicode_tables.py from the")
    out.append(f"// Unicode Character Database {version} (Debian package unicode-data: UnicodeData.txt,")
    out.append("// PropList.txt). General-category classes and White_Space as code point ranges")
    out.append("// (grouped as llama.cpp's src/unicode.cpp does); code points in no range are unassigned")
    out.append("// (\"undefined\").")
    out.append("#include \"tokenizer/unicode_tables.h\"")
    out.append("")
    out.append("namespace folio::tokenizer {")
    out.append("")
    out.append("// clang-format off")
    out.append(f"const char* const kUnicodeTablesVersion = \"{version}\";")
    out.append("")
    out.append(f"const UnicodeClassRange kUnicodeClassRanges[{len(cat_ranges)}] = {{")
    for lo, hi, v in cat_ranges:
        out.append(f"    {{0x{lo:05X}, 0x{hi:05X}, {CLASS_NAMES[v]}}},")
    out.append("};")
    out.append(f"const size_t kUnicodeClassRangeCount = {len(cat_ranges)};")
    out.append("")
    out.append(f"const CodepointRange kWhitespaceRanges[{len(ws_ranges)}] = {{")
    for lo, hi, _ in ws_ranges:
        out.append(f"    {{0x{lo:05X}, 0x{hi:05X}}},")
    out.append("};")
    out.append(f"const size_t kWhitespaceRangeCount = {len(ws_ranges)};")
    out.append("// clang-format on")
    out.append("")
    out.append("} // namespace folio::tokenizer")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(f"{args.out}: {len(cat_ranges)} class ranges, {len(ws_ranges)} whitespace ranges "
          f"(Unicode {version})", file=sys.stderr)


if __name__ == "__main__":
    main()
