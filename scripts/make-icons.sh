#!/usr/bin/env bash
# Makes the app's icons once (committed in Sources/WebApp/Resources/assets/): "새싹" in white on the theme green,
# inside the middle 80 % so that phones may crop them to a circle (`purpose: "any maskable"` in the manifest).
# Needs libvips-tools and fonts-noto-cjk (both in scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/WebApp/Resources/assets
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 192 512 180; do
    point=$((size * 28 / 100))
    vips text "$work/text.v" "새싹" --font "Noto Sans CJK KR Bold $point" --dpi 72
    vips gravity "$work/text.v" "$work/mask.v" centre "$size" "$size"
    vips black "$work/black.v" "$size" "$size" --bands 3
    vips linear "$work/black.v" "$work/green.v" "1 1 1" "43 110 69" --uchar    # #2b6e45, the pages' theme colour
    vips linear "$work/black.v" "$work/white.v" "1 1 1" "255 255 255" --uchar
    name=$([ "$size" = 180 ] && echo apple-touch-icon.png || echo "icon-$size.png")
    vips ifthenelse "$work/mask.v" "$work/white.v" "$work/green.v" "$work/$name" --blend
    # Metadata stripped, so the committed bytes do not depend on the vips version's comments.
    vips copy "$work/$name" "$out/$name[strip,compression=9]"
done
ls -l "$out"/*.png
