#!/usr/bin/env bash
# Installs every Debian (bookworm) package that Folio's build, tests and app need.
# A quick no-op when everything is present. Works as root (CI) or through sudo.
set -euo pipefail

PACKAGES=(
    # toolchain
    build-essential cmake ninja-build pkg-config ccache git file dpkg-dev
    # fuzzing (scripts/fuzz.sh): clang with libFuzzer and its OpenMP runtime
    clang libomp-dev
    # scripts/check-format.sh (CI) and the optional .clang-tidy checks
    clang-format clang-tidy
    # engine
    libeigen3-dev libstb-dev libsqlite3-dev
    # HTTP server (folio-cli serve) and remote client: cpp-httplib (with OpenSSL), nlohmann json
    libcpp-httplib-dev libssl-dev nlohmann-json3-dev
    # Qt 6.4: Widgets, Gui, Concurrent, Network, Test (qt6-base-dev), Pdf + PdfWidgets, Charts, Svg
    qt6-base-dev qt6-pdf-dev qt6-charts-dev qt6-svg-dev libqt6svg6 qt6-qpa-plugins
    qt6-image-formats-plugins libqt6opengl6-dev libgl-dev libvulkan-dev
    # translations: lrelease / lupdate and Qt6LinguistTools for CMake; Qt's own strings (OK,
    # Cancel, the file dialog) in the user's language (qtbase_*.qm, loaded by ui/i18n)
    qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
    # the system keyring for API keys (Secret Service / KWallet)
    qtkeychain-qt6-dev
    # OCR of scanned pages (core/ocr): Tesseract's C++ API with Leptonica, and the English and
    # Simplified Chinese language data
    libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-chi-sim
    # fonts for the sample report (Latin + Chinese pages) and the UI
    fonts-dejavu-core fonts-wqy-microhei
    # headless runs and screenshots
    xvfb xauth imagemagick
    # the report export test reads the ODT's content.xml (tests/core/report)
    unzip
)

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
