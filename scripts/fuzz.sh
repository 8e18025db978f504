#!/usr/bin/env bash
# Runs one libFuzzer target for a while: scripts/fuzz.sh NAME SECONDS
#   NAME: gguf | tokenizer | image | snapshot | chat_template | tool_calls | chat_json | all
# Builds the target in the `asan` preset (clang, ASan + UBSan; the same build runs every test
# suite under the sanitizers) first. The corpus grows in build/fuzz/corpus/NAME (seeded from
# tests/fuzz/corpus/NAME and seeds the targets write); crashes land in build/fuzz/findings/NAME.
# Exit status: 0 when nothing was found.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz.sh NAME SECONDS}
seconds=${2:-60}
targets=(gguf tokenizer image snapshot chat_template tool_calls chat_json)
if [[ $name == all ]]; then
    for t in "${targets[@]}"; do "$0" "$t" "$seconds"; done
    exit 0
fi
[[ " ${targets[*]} " == *" $name "* ]] || { echo "unknown target $name (${targets[*]})" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "clang++ is needed (apt install clang libomp-dev)" >&2; exit 2; }
[[ -f build/asan/CMakeCache.txt ]] || cmake --preset asan >/dev/null
cmake --build build/asan --target "fuzz_$name" >/dev/null
corpus=build/fuzz/corpus/$name
findings=build/fuzz/findings/$name
mkdir -p "$corpus" "$findings"
[[ -d tests/fuzz/corpus/$name ]] && cp -n tests/fuzz/corpus/$name/* "$corpus"/ 2>/dev/null || true
# Seeds our own tools make (kept out of git: binary).
case $name in
    gguf)
        [[ -f $corpus/seed-tiny.gguf ]] || build/release/app/folio-cli make-model --arch deepseek32 \
            --preset tiny --type q8_0 --seed 1 --out "$corpus/seed-tiny.gguf" >/dev/null 2>&1 || true ;;
    image)
        for f in build/release/generated/samples/*.png; do
            [[ -f $f ]] && [[ $(stat -c %s "$f") -lt 200000 ]] && cp -n "$f" "$corpus"/ || true
        done ;;
esac
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export FOLIO_FUZZ_SEED_DIR=$corpus
log=build/fuzz/$name.log
set +e
"build/asan/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=3072 \
    -timeout=10 -artifact_prefix="$findings/" -print_final_stats=1 "$corpus" >"$log" 2>&1
status=$?
set -e
runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
echo "fuzz_$name: ${seconds}s, ${runs:-?} executions, exit $status (log: $log)"
if [[ $status -ne 0 ]]; then
    grep -E 'ERROR|SUMMARY|==[0-9]+==' "$log" | head -20 >&2
    exit 1
fi
