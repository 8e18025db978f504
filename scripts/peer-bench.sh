#!/usr/bin/env bash
# Folio against llama.cpp on the same GGUF files, in one command (issue 47):
#
#   scripts/peer-bench.sh PEER_BUILD_DIR FOLIO_CLI FILE.gguf [FILE.gguf ...]
#
#   PEER_BUILD_DIR  a llama.cpp build directory holding bin/llama-bench (or the llama-bench binary)
#   FOLIO_CLI       Folio's folio-cli (e.g. build/release/app/folio-cli; copy it aside first when
#                   someone else may rebuild it while this runs)
#   FILE.gguf       model files both programs load (llama-quantize's own outputs: see NUMERICS.md,
#                   "llama.cpp 0a50d99 side by side", for how the bench-shape files are made)
#
# Environment:
#   ROUNDS=3 P=512 N=64 T=2  rounds per file, prompt/decode tokens, threads
#   PATH_KERNELS=            empty: each program's native path (Folio Auto; the peer as built);
#                            avx2: FOLIO_KERNELS=avx2 for Folio (pair it with an AVX2-only peer build,
#                            -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON)
#   LOG=peer-bench.tsv       per-run lines (appended; the table is printed from this run's lines)
#   TIMEOUT=900              seconds per single run
#
# Per round and file: llama-bench -p P -n N -t T -r 1, then folio-cli bench -p P -n N -t T -r 1
# (alternating, so both see the same machine), each once. Folio's bench prints the machine's state
# measured just before its run: the read probe (GB/s, 2 threads) and the int8 compute probe of the
# path that ran (G MAC/s); both are recorded beside the round with the load average. The table
# gives per-round ratios Folio / llama.cpp and their medians. It builds and downloads nothing.
set -uo pipefail

usage() { sed -n '2,24p' "$0" >&2; exit 2; }
[[ $# -ge 3 ]] || usage
peer=$1; folio=$2; shift 2
if [[ -d $peer ]]; then
    if [[ -x $peer/bin/llama-bench ]]; then lb=$peer/bin/llama-bench; else lb=$peer/llama-bench; fi
else
    lb=$peer
fi
[[ -x $lb ]] || { echo "no llama-bench at $peer" >&2; exit 2; }
[[ -x $folio ]] || { echo "no folio-cli at $folio" >&2; exit 2; }
for f in "$@"; do [[ -f $f ]] || { echo "no file $f" >&2; exit 2; }; done

ROUNDS=${ROUNDS:-3}; P=${P:-512}; N=${N:-64}; T=${T:-2}
PATH_KERNELS=${PATH_KERNELS:-}; LOG=${LOG:-peer-bench.tsv}; TIMEOUT=${TIMEOUT:-900}
label=${PATH_KERNELS:-native}
folio_env=()
if [[ -n $PATH_KERNELS ]]; then folio_env=(FOLIO_KERNELS="$PATH_KERNELS"); else folio_env=(-u FOLIO_KERNELS); fi

# t/s of test $2 (pp512, tg64) from a llama-bench-style markdown table: "... | pp512 | 123.4 ± 1.0 |"
ts() { awk -F'|' -v t="$2" 'NF >= 4 && $(NF-2) ~ "^ *"t" *$" { split($(NF-1), a, " "); print a[1]; exit }' <<<"$1"; }
run_id=$(date +%Y%m%dT%H%M%S)

echo "# $(date -u '+%F %T UTC')  $(lscpu | sed -n 's/^Model name: *//p' | head -1), avx512f: $(grep -qw avx512f /proc/cpuinfo && echo yes || echo no), $(nproc) CPUs"
echo "# peer: $lb   folio: $folio ($("$folio" --version 2>/dev/null | head -1))   path: $label   rounds $ROUNDS, -p $P -n $N -t $T"
cur=()
for f in "$@"; do
    name=$(basename "$f" .gguf)
    for ((r = 1; r <= ROUNDS; r++)); do
        load=$(cut -d' ' -f1 /proc/loadavg)
        lo=$(timeout "$TIMEOUT" "$lb" -m "$f" -p "$P" -n "$N" -t "$T" -r 1 -o md 2>&1)
        lpp=$(ts "$lo" "pp$P"); ltg=$(ts "$lo" "tg$N")
        fo=$(timeout "$TIMEOUT" env "${folio_env[@]}" "$folio" bench -m "$f" -p "$P" -n "$N" -t "$T" -r 1 2>&1)
        fpp=$(ts "$fo" "pp$P"); ftg=$(ts "$fo" "tg$N")
        path=$(sed -n 's/^kernels: \([^ ]*\).*/\1/p' <<<"$fo" | head -1)
        readbw=$(sed -n 's/^paired: .*(\([0-9.]*\) GB\/s).*/\1/p' <<<"$fo" | head -1)
        frac=$(sed -n 's/^paired: fraction of the probe read just before each run \([0-9.]*\).*/\1/p' <<<"$fo" | head -1)
        mac=$(sed -n 's/^compute before each run.*: \([0-9.]*\) G MAC\/s.*/\1/p' <<<"$fo" | head -1)
        [[ -n $lpp && -n $fpp ]] || {
            echo "# $name round $r: a run failed; llama-bench tail:" >&2; tail -5 <<<"$lo" >&2
            echo "# folio tail:" >&2; tail -5 <<<"$fo" >&2; }
        line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$run_id" "$label" "$name" "$r" \
            "${lpp:-NA}" "${fpp:-NA}" "${ltg:-NA}" "${ftg:-NA}" "${path:-NA}" "${readbw:-NA}" "${frac:-NA}" "${mac:-NA}" "$load")
        echo "$line" >>"$LOG"; cur+=("$line")
        echo "# $line" >&2
    done
done

# The table: per-round values and ratios, then the medians of the per-round ratios.
printf '%s\n' "${cur[@]}" | awk -F'\t' '
function med(s,   n, a, i, j, t) { n = split(s, a, " ");
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    if (n == 0) return "NA"; return (n % 2) ? a[(n + 1) / 2] : sprintf("%.2f", (a[n / 2] + a[n / 2 + 1]) / 2) }
function rat(a, b) { return (a == "NA" || b == "NA" || b + 0 == 0) ? "NA" : sprintf("%.2f", a / b) }
BEGIN { print "| path | file | round | llama.cpp pp | Folio pp | pp ratio | llama.cpp tg | Folio tg | tg ratio | Folio decode / read probe | read probe GB/s | int8 probe G MAC/s | load |";
        print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" }
{ rp = rat($6, $5); rt = rat($8, $7)
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $9, $3, $4, $5, $6, rp, $7, $8, rt, $11, $10, $12, $13
  if (!($3 in seen)) { seen[$3] = 1; order[++nf] = $3 }
  if (rp != "NA") PP[$3] = PP[$3] " " rp; if (rt != "NA") TG[$3] = TG[$3] " " rt
  if ($11 != "NA") FR[$3] = FR[$3] " " $11; if ($10 != "NA") BW[$3] = BW[$3] " " $10; if ($12 != "NA") MC[$3] = MC[$3] " " $12 }
END { print ""; print "| file | pp ratio (median) | tg ratio (median) | decode / read probe (median) | read probe GB/s (median) | int8 probe G MAC/s (median) |";
      print "|---|---:|---:|---:|---:|---:|"
      for (i = 1; i <= nf; i++) { f = order[i]
        printf "| %s | %s | %s | %s | %s | %s |\n", f, med(PP[f]), med(TG[f]), med(FR[f]), med(BW[f]), med(MC[f]) } }'
