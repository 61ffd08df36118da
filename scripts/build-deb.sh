#!/bin/sh
# Builds saessak_VERSION_ARCH.deb from a built `saessak` (docs/deploy.md, "The package"). `make package` gives it the
# release build with the Swift runtime linked in (`--static-swift-stdlib`), so the machine needs Debian's libraries
# only; the package test gives it the debug build linked the same way (blackbox/test_package.py).
#   scripts/build-deb.sh BINARY OUT_FOLDER [VERSION]
# SAESSAK_DEB_COMPRESSION: xz's level, 0–9 (default 6; the test takes 1).
# VERSION defaults to Installation.sourceVersion; the commit is HEAD's. Depends: what dpkg-shlibdeps reads off the binary,
# and ffmpeg; Recommends: restic.
set -eu

bin=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
version=${3:-$(sed -n 's/^ *public static let sourceVersion = "\(.*\)"$/\1/p' "$root/Sources/Installation/Installation.swift")}
[ -n "$version" ] || { echo "build-deb: no version in Sources/Installation/Installation.swift" >&2; exit 1; }
commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
# Who builds it: Debian's DEBFULLNAME and DEBEMAIL, as dch takes them (example.org, reserved, until they are set).
maintainer="${DEBFULLNAME:-Saessak maintainers} <${DEBEMAIL:-saessak@example.org}>"
arch=$(dpkg --print-architecture)
built=$(dirname "$bin")
for bundle in saessak_WebApp saessak_Places; do
    [ -d "$built/$bundle.resources" ] || { echo "build-deb: $built/$bundle.resources is missing (build first)" >&2; exit 1; }
done
if ldd "$bin" | grep -q 'libswiftCore\|libFoundation'; then
    echo "build-deb: $bin needs the Swift toolchain's libraries: build it with --static-swift-stdlib" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage
install -d -m 0755 "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/share/saessak" "$stage/usr/share/doc/saessak" \
    "$stage/lib/systemd/system" "$stage/etc/default"

# The program, stripped as Debian's dh_strip strips programs.
install -m 0755 "$bin" "$stage/usr/bin/saessak"
strip --remove-section=.comment --remove-section=.note "$stage/usr/bin/saessak"
for bundle in saessak_WebApp saessak_Places; do cp -R "$built/$bundle.resources" "$stage/usr/share/saessak/"; done
printf 'version=%s\ncommit=%s\n' "$version" "$commit" > "$stage/usr/share/saessak/build-info"
install -m 0644 "$root/deploy/saessak.service" "$stage/lib/systemd/system/saessak.service"
install -m 0644 "$root/deploy/debian/saessak.default" "$stage/etc/default/saessak"
install -D -m 0644 "$root/deploy/debian/lintian-overrides" "$stage/usr/share/lintian/overrides/saessak"

# /usr/share/doc: the copyright with the shipped data's licences, and a changelog naming this version.
{
    cat "$root/deploy/debian/copyright"
    for licence in "$root"/LICENSES/*.txt; do
        printf '\nLicense: %s\n' "$(basename "$licence" .txt)"
        sed -e 's/^/ /' -e 's/^ *$/ ./' "$licence"
    done
} > "$stage/usr/share/doc/saessak/copyright"
{
    printf 'saessak (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * Saessak %s, built from commit %s.\n\n' "$version" "$commit"
    printf ' -- %s  %s\n' "$maintainer" "$(date -R -d @"$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n > "$stage/usr/share/doc/saessak/changelog.gz"

find "$stage" -type d -exec chmod 0755 {} +
find "$stage/usr/share" "$stage/etc" "$stage/lib" -type f -exec chmod 0644 {} +

# Depends, the Debian way: the packages whose libraries the program links.
mkdir -p "$work/shlibs/debian"
printf 'Source: saessak\n\nPackage: saessak\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e "$stage/usr/bin/saessak" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

install -m 0755 "$root/deploy/debian/postinst" "$root/deploy/debian/prerm" "$root/deploy/debian/postrm" "$stage/DEBIAN/"
echo /etc/default/saessak > "$stage/DEBIAN/conffiles"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s|@MAINTAINER@|$maintainer|" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    "$root/deploy/debian/control.in" > "$stage/DEBIAN/control"
(cd "$stage" && find usr lib etc -type f ! -path 'etc/*' -exec md5sum {} + | sort -k2) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

mkdir -p "$out"
deb="$out/saessak_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz -z"${SAESSAK_DEB_COMPRESSION:-6}" --build "$stage" "$deb" >/dev/null
echo "$deb"
