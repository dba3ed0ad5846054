#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# plugin-build.sh OUT: build the icount engine's instruction-counting qemu plugin
# (plugins/insn_count.c) into OUT (a .so), against qemu-plugin.h of the installed qemu's
# Debian source (qemu-plugin-header.sh fetches it into the cache once: root, network),
# and write the qemu source version it was built for beside it (OUT without .so, plus
# .version), which topologies/virtio.sh checks before it loads the plugin.
# Used by `make plugin` in a checkout (OUT build/insn_count.so) and by virtio.sh for an
# installed xdptc (OUT in the cache) at the first icount run. The sources are found
# beside this script: SCRIPTS/../plugins/insn_count.c, in a checkout and under
# PREFIX/share/xdptc alike. CC names the compiler (default cc). QEMU_FROM=backports:
# for bookworm-backports' qemu (topologies/qemu_backports.sh), whose header (plugin API 4,
# qemu 10.0.2) includes glib.h: its flags from pkg-config (libglib2.0-dev, make deps).
# Exit status: 0 built; 1 with a sentence on stderr (no header, no compiler, a build
# error); 2 bad usage.
set -eu

[ $# -eq 1 ] || { echo "usage: plugin-build.sh OUT.so" >&2; exit 2; }
out=$1
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../plugins/insn_count.c
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 ||
	{ echo "plugin-build: no C compiler ($cc): install gcc to build the icount plugin" >&2; exit 1; }
hdr=$(sh "$here/qemu-plugin-header.sh")
glib=
if grep -q '#include <glib.h>' "$hdr/qemu-plugin.h"; then
	glib=$(pkg-config --cflags glib-2.0 2>/dev/null) || { echo "plugin-build: qemu" \
		"$(cat "$hdr/version")'s plugin header needs glib's headers: install" \
		"libglib2.0-dev (make deps)" >&2; exit 1; }
fi
mkdir -p "$(dirname "$out")"
echo "$cc -shared -fPIC -I$hdr $glib $src -o $out" >&2
# shellcheck disable=SC2086
"$cc" -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -shared -fPIC -I"$hdr" $glib \
	"$src" -o "$out.tmp" -lpthread
mv "$out.tmp" "$out"
cp "$hdr/version" "${out%.so}.version"
