#!/usr/bin/env bash
# Checks that the hand-written C++ sources follow .clang-format (clang-format 14, Debian 12's).
# Lists the files that would change and fails if there are any; changes nothing.
#   scripts/check-format.sh        check every tracked *.cpp / *.h
#   scripts/check-format.sh --fix  reformat those files in place instead
# Generated data tables are left out: they are rewritten by their generators, not by hand.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
command -v "$CLANG_FORMAT" > /dev/null || {
    echo "check-format: $CLANG_FORMAT not found (Debian: apt install clang-format)" >&2
    exit 2
}

# tools/unicode/gen_unicode_tables.py and tools/iq_grids/gen_iq_grids.py write these.
GENERATED='^(engine/tokenizer/unicode_tables\.cpp|engine/tensor/iq_grids_iq[0-9]+\.cpp)$'
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -vE "$GENERATED")

if [ "${1:-}" = --fix ]; then
    printf '%s\0' "${files[@]}" | xargs -0 -n 50 -P "$(nproc)" "$CLANG_FORMAT" -i
    exit 0
fi

# --dry-run -Werror prints a "code should be clang-formatted" error per hunk and fails.
rc=0
out="$(printf '%s\0' "${files[@]}" |
    xargs -0 -n 50 -P "$(nproc)" "$CLANG_FORMAT" --dry-run -Werror 2>&1)" || rc=$?
if [ "$rc" -ne 0 ]; then
    bad="$(sed -n 's/^\([^:]*\.\(cpp\|h\)\):[0-9]*:[0-9]*: error: code should be.*/\1/p' <<< "$out" |
        sort -u)"
    if [ -n "$bad" ]; then
        echo "check-format: these files differ from .clang-format (scripts/check-format.sh --fix):" >&2
        echo "$bad" >&2
    else
        echo "$out" >&2
    fi
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
