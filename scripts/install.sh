#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# install.sh install|uninstall: `make install` and `make uninstall`, from one list of
# what goes where (files(), below), so that uninstall removes exactly what install put.
#
#   PREFIX   where (default /usr/local): bin/xdptc, share/man/man8/xdptc.8,
#            share/xdptc/ (the topology and guest scripts; the plugin's source and the
#            scripts that build it at first use), lib/xdptc/ (the icount plugin, when
#            `make plugin` built one), share/doc/xdptc/ (README.md, ARCHITECTURE.md,
#            docs/)
#   DESTDIR  a staging root put before PREFIX (a package's build); default none
#   BUILD    the build directory (default build)
#
# The binary finds its scripts under the PREFIX it was built with (Makefile: PREFIX,
# compiled in), so install with the PREFIX it was built for. Run from the checkout's top.
# Exit status: 0 done; 1 a file could not be installed or a built file is missing (run
# make first); 2 bad usage.
set -eu

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BUILD=${BUILD:-build}
root=$DESTDIR$PREFIX

# One line per file: MODE SOURCE DESTINATION (under PREFIX); optional files start with ?.
files() {
	echo "0755 $BUILD/xdptc bin/xdptc"
	echo "0644 $BUILD/xdptc.8 share/man/man8/xdptc.8"
	for f in topologies/*.sh topologies/guest/*; do
		# a script run by its path is executable; one only sourced (lib.sh) is not
		if head -n 1 "$f" | grep -q '^#!'; then m=0755; else m=0644; fi
		echo "$m $f share/xdptc/$f"
	done
	echo "0644 plugins/insn_count.c share/xdptc/plugins/insn_count.c"
	echo "0755 scripts/qemu-plugin-header.sh share/xdptc/scripts/qemu-plugin-header.sh"
	echo "0755 scripts/plugin-build.sh share/xdptc/scripts/plugin-build.sh"
	echo "?0644 $BUILD/insn_count.so lib/xdptc/insn_count.so"
	echo "?0644 $BUILD/insn_count.version lib/xdptc/insn_count.version"
	for f in README.md ARCHITECTURE.md docs/*.md docs/run.schema.json; do
		echo "0644 $f share/doc/xdptc/$f"
	done
}

# the directories of xdptc's own, removed by uninstall when empty (deepest first)
own_dirs="share/xdptc/topologies/guest share/xdptc/topologies share/xdptc/plugins
share/xdptc/scripts share/xdptc lib/xdptc share/doc/xdptc/docs share/doc/xdptc"

do_install() {
	files | while read -r mode src dst; do
		case $mode in
		\?*) [ -f "$src" ] || continue; mode=${mode#\?} ;;
		*) [ -f "$src" ] || { echo "install: $src is missing (run make first)" >&2; exit 1; } ;;
		esac
		mkdir -p "$(dirname "$root/$dst")"
		cp "$src" "$root/$dst.tmp"
		chmod "$mode" "$root/$dst.tmp"
		mv -f "$root/$dst.tmp" "$root/$dst"
	done
	echo "install: xdptc in $root/bin (its files under $root/share/xdptc, $root/share/doc/xdptc)"
}

do_uninstall() {
	files | while read -r mode src dst; do
		rm -f "$root/$dst"
	done
	for d in $own_dirs; do
		if [ -d "$root/$d" ]; then rmdir "$root/$d" 2>/dev/null || true; fi
	done
	echo "uninstall: xdptc's files removed from $root"
}

case "${1:-}" in
install) do_install ;;
uninstall) do_uninstall ;;
*) echo "usage: install.sh install|uninstall (PREFIX, DESTDIR, BUILD from the environment)" >&2
	exit 2 ;;
esac
