#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# build-deb.sh OUTDIR: `make deb`: build xdptc's Debian package with Debian's own tools
# (debian/: debhelper, `dpkg-buildpackage -b`) in a copy of the source tree,
# OUTDIR/xdptc-VERSION/, so that the package build's `make clean` never touches the
# checkout's build/. The .deb (xdptc_VERSION_ARCH.deb) and dpkg-buildpackage's other
# outputs land in OUTDIR, its log in OUTDIR/build.log. The copy holds the files git
# knows of (tracked or not ignored), as they are in the work tree, but results/ (the
# committed examples are the docs' data, not the package's); outside git, the tree but
# build/, results/ and .git. DEB_BUILD_OPTIONS is passed on (default parallel=2
# nocheck: two compilers at a time, no tests: xdptc's need root, namespaces and guests).
# Run from the checkout's top, with the Build-Depends installed (make deps).
# Exit status: 0 built (the .deb's path printed); 1 failed (the log's end on stderr).
set -eu

[ $# -eq 1 ] || { echo "usage: build-deb.sh OUTDIR" >&2; exit 2; }
out=$1
for t in dpkg-buildpackage dh; do
	command -v "$t" >/dev/null 2>&1 ||
		{ echo "build-deb: $t is missing (make deps installs dpkg-dev and debhelper)" >&2; exit 1; }
done
ver=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
src=$out/xdptc-$ver
rm -rf "$src" "$out"/xdptc_* "$out"/xdptc-dbgsym_*
mkdir -p "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# files deleted in the work tree but still tracked are passed over
	# shellcheck disable=SC2016 # the inner shell expands them
	git ls-files -z --cached --others --exclude-standard | grep -zv '^results/' |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done; :' sh |
		tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build --exclude=./results --exclude=./.git -cf - . | tar -xf - -C "$src"
fi
echo "build-deb: dpkg-buildpackage -b in $src (log: $out/build.log)" >&2
if ! (cd "$src" && DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=2 nocheck} \
	dpkg-buildpackage -b -us -uc) > "$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
rm -rf "$src"
echo "$out/xdptc_${ver}_$arch.deb"
