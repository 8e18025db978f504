#!/usr/bin/env bash
# Folio's one entry point for newcomers and CI.
#   scripts/folio.sh run      install deps, build Release, start the workbench on the sample report
#   scripts/folio.sh test     install deps, build Release, run the whole test suite (CTest)
#   scripts/folio.sh build    install deps and build Release only
#   scripts/folio.sh package  build Release and make the .deb (build/release/folio_*.deb)
# Environment: FOLIO_PRESET (release|debug|asan|tsan, default release), FOLIO_JOBS (default: cores),
# FOLIO_TARGETS (build only these targets; default all).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PRESET="${FOLIO_PRESET:-release}"
JOBS="${FOLIO_JOBS:-$(nproc)}"
BUILD_DIR="$ROOT/build/$PRESET"
if [ "$PRESET" = tsan ]; then
    # The build runs our tools (model generators): under TSan they need libomp's Archer tool,
    # which teaches TSan OpenMP's synchronisation (the test preset sets the same).
    export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$ROOT/tests/tsan.supp}"
    export OMP_TOOL_LIBRARIES="${OMP_TOOL_LIBRARIES:-/usr/lib/llvm-14/lib/libarcher.so}"
fi

deps() {
    bash "$ROOT/scripts/install-deps.sh"
}

build() {
    deps
    cd "$ROOT"
    if [ ! -f "$BUILD_DIR/build.ninja" ]; then
        cmake --preset "$PRESET"
    fi
    # FOLIO_TARGETS: build only these targets (and what they need), e.g. the suites CI runs.
    # shellcheck disable=SC2086
    cmake --build --preset "$PRESET" -j "$JOBS" ${FOLIO_TARGETS:+--target $FOLIO_TARGETS}
}

run_app() {
    build
    local samples="$BUILD_DIR/generated/samples"
    local args=("$samples/sample-report.pdf" "$samples/revenue-chart.png")
    local demo="$BUILD_DIR/generated/models/demo-deepseek2.gguf"
    if [ -f "$demo" ]; then
        args+=(--model "$demo")
    fi
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
        echo "folio.sh: no display found (DISPLAY/WAYLAND_DISPLAY unset)." >&2
        echo "  On a headless machine run: xvfb-run -a scripts/folio.sh run" >&2
        exit 1
    fi
    exec "$BUILD_DIR/app/folio" "${args[@]}" "$@"
}

run_tests() {
    build
    cd "$ROOT"
    QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" ctest --preset "$PRESET" "$@"
}

package() {
    build
    cmake --build "$BUILD_DIR" --target package
    ls -1 "$BUILD_DIR"/*.deb
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    run) run_app "$@" ;;
    test) run_tests "$@" ;;
    build) build ;;
    package) package ;;
    *)
        sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
