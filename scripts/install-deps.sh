#!/usr/bin/env bash
# Installs what building and testing Saessak needs on Debian, skipping what is already there.
# Run as root (the quick start assumes a fresh Debian machine); it only calls apt-get when something is missing.
set -euo pipefail

packages=(
    pkg-config               # SwiftPM finds libvips' flags with it
    libsqlite3-dev           # GRDB builds against the system SQLite
    libvips-dev              # photos: decoding, EXIF, thumbnails
    libcairo2-dev            # the book: Cairo's PDF surface
    libpango1.0-dev          # the book: Pango lays out the text (HarfBuzz shaping, line breaks)
    libqrencode-dev          # the second step: the QR code an authenticator app scans
    libjemalloc-dev          # the server's allocator (glibc's malloc contends across Swift's task threads)
    ffmpeg                   # video: ffprobe inspects clips, ffmpeg makes poster frames and web renditions
    libvips-tools            # tests and benchmarks: makes test images; vipsthumbnail is the benchmark's reference
    libimage-exiftool-perl   # tests: writes EXIF tags into test images
    python3                  # test oracles and black-box tests run in a venv
    python3-venv
    chromium                 # tests: the web app in a real browser, headless
    chromium-driver          # tests: Selenium drives chromium through it
    fonts-noto-cjk           # the book's fonts (embedded in its PDF); Korean glyphs in the browser's screenshots
    fonts-noto-color-emoji   # tests: the pages' emoji icons in the screenshots
    default-jre-headless     # tests: runs the Nu HTML Checker (vnu.jar)
    systemd                  # tests: systemd-analyze checks deploy/saessak.service
    postgresql               # tests: a throwaway PostgreSQL cluster (scripts/postgres-cluster.sh) for the second engine
    restic                   # scheduled, encrypted, deduplicated snapshots to a second place (docs/backup.md)
    dpkg-dev                 # the package: dpkg-shlibdeps reads its Depends off the binary (scripts/build-deb.sh)
    debootstrap              # tests: a bare Debian bookworm to install the package into
    lintian                  # tests: Debian's checks of the package
    binutils                 # the package: strip
    poppler-utils            # tests: pdftotext, pdffonts, pdfimages and pdftoppm read the book back
    qpdf                     # tests: qpdf --check of the book's PDF structure
)

if ! command -v swift >/dev/null 2>&1; then
    echo "Saessak needs the Swift 6.3 toolchain on PATH (swift.org); it is not a Debian package." >&2
    exit 1
fi

missing=()
for package in "${packages[@]}"; do
    # A venv-capable Python from elsewhere (pyenv, a distribution build) is as good as Debian's.
    if [ "$package" = python3-venv ] && python3 -m venv --help >/dev/null 2>&1 && python3 -c 'import ensurepip' 2>/dev/null; then
        continue
    fi
    if [ "$package" = python3 ] && command -v python3 >/dev/null 2>&1; then
        continue
    fi
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "Run as root, or install them yourself: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
