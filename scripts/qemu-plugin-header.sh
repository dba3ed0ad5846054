#!/bin/sh
# qemu-plugin-header.sh: fetch include/qemu/qemu-plugin.h from the Debian source of the
# installed qemu-system-x86, into the suite's cache, and print the directory that holds
# it. Debian ships no qemu-plugin.h; the plugin (plugins/insn_count.c) must be built
# against the header of the very qemu that loads it.
#
#   sh scripts/qemu-plugin-header.sh      -> prints DIR (DIR/qemu-plugin.h exists)
#   QEMU_FROM=backports sh scripts/qemu-plugin-header.sh   the same for bookworm-backports'
#                                         qemu (topologies/qemu_backports.sh unpacks it
#                                         into the cache; its version file names it)
#
# The source comes through a private apt configuration in the cache
# ($XDPTC_CACHE/qemu-src/apt, default /var/cache/xdptc: its own deb-src sources.list,
# package lists and downloads; the host's apt sources are never touched, nothing is
# installed), `apt-get source --download-only qemu=VERSION`, where VERSION is the
# installed binary package's source version (its binNMU suffix, +bN, dropped). Only the
# header is unpacked from the orig tarball; the download is removed after. For
# backports' qemu the sources list gains a deb-src line for CODENAME-backports. Where the
# archive serves the orig tarball but not the .dsc (deb.debian.org's backports pool here
# answered 404 for qemu 10.0.2's .dsc and debian.tar.xz, 2026-12-03), the header is
# taken from the orig tarball of the same upstream version, which apt checked against
# the signed Sources index, and the script says so: Debian's patches to the header, if
# any, are then not seen.
# Exit status: 0; 1 with a sentence on stderr when qemu is not installed, the source of
# its version cannot be fetched, or the fetched source is of another version.
set -eu

CACHE=${XDPTC_CACHE:-/var/cache/xdptc}
say() { echo "qemu-plugin-header: $*" >&2; }

if [ "${QEMU_FROM:-installed}" = backports ]; then
	sh "$(dirname "$0")/../topologies/qemu_backports.sh" >/dev/null
	ver=$(cat "$CACHE/qemu-backports/version")
	bin="$ver from bookworm-backports, in $CACHE/qemu-backports"
else
	ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null || true)
	bin=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null || true)
fi
[ -n "$ver" ] || { say "qemu-system-x86 is not installed (make deps installs it)"; exit 1; }
dir=$CACHE/qemu-src/$(echo "$ver" | tr ':~' '__')
if [ -f "$dir/qemu-plugin.h" ] && [ "$(cat "$dir/version" 2>/dev/null)" = "$ver" ]; then
	echo "$dir"
	exit 0
fi
[ "$(id -u)" = 0 ] || [ -w "$CACHE" ] ||
	{ say "fetching qemu's source header into $CACHE needs root (once)"; exit 1; }

apt=$CACHE/qemu-src/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/none" "$apt/get"
[ -f "$apt/status" ] || : > "$apt/status"
k="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cat > "$apt/sources.list" <<EOF
# xdptc's private apt sources: qemu's source, for its plugin header only
deb-src $k http://deb.debian.org/debian $codename main
deb-src $k http://deb.debian.org/debian $codename-updates main
deb-src $k http://deb.debian.org/debian-security $codename-security main
EOF
[ "${QEMU_FROM:-installed}" != backports ] ||
	echo "deb-src $k http://deb.debian.org/debian $codename-backports main" >> "$apt/sources.list"
opts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=$apt/none \
-o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o Dir::State::status=$apt/status \
-o Dir::Etc::Preferences=$apt/none -o Dir::Etc::PreferencesParts=$apt/none \
-o Acquire::Languages=none -o APT::Sandbox::User=root -o Debug::NoLocking=1"
say "fetching the source of qemu $ver (installed: qemu-system-x86 $bin) for qemu-plugin.h"
# shellcheck disable=SC2086
apt-get $opts -q update >"$apt/update.log" 2>&1 ||
	{ say "cannot fetch Debian's source lists (see $apt/update.log)"; exit 1; }
rm -rf "$apt/get"/*
# shellcheck disable=SC2086
up=${ver#*:}
up=${up%-*}
# shellcheck disable=SC2086
if ! (cd "$apt/get" && apt-get $opts -q source --download-only "qemu=$ver") >"$apt/source.log" 2>&1; then
	if ls "$apt/get/qemu_$up.orig.tar".* >/dev/null 2>&1; then
		say "the archive served qemu $up's orig tarball but not the rest of source $ver" \
		    "(see $apt/source.log): the header comes from the orig tarball, upstream's"
	else
		say "Debian's archive has no source for qemu $ver, the installed version (see" \
		    "$apt/source.log): the plugin must match it; upgrade qemu-system-x86"
		exit 1
	fi
fi
dsc=$(ls "$apt/get"/qemu_*.dsc 2>/dev/null | head -n 1)
got=$(sed -n 's/^Version: //p' "$dsc" 2>/dev/null | head -n 1)
[ -n "$dsc" ] || got=$ver # no .dsc: the orig tarball's name matched the upstream version
if [ "$got" != "$ver" ]; then
	say "the fetched qemu source is version ${got:-unknown}, the installed qemu is $ver:" \
	    "a plugin built against another version's header is not loaded; stopping"
	exit 1
fi
orig=$(ls "$apt/get/qemu_$up.orig.tar".* | head -n 1)
mkdir -p "$dir.new"
tar -xf "$orig" -C "$dir.new" --wildcards --strip-components=3 '*/include/qemu/qemu-plugin.h' ||
	{ say "no include/qemu/qemu-plugin.h in $orig"; rm -rf "$dir.new"; exit 1; }
echo "$ver" > "$dir.new/version"
rm -rf "$dir" "$apt/get"/*
mv "$dir.new" "$dir"
say "qemu-plugin.h of qemu $ver in $dir"
echo "$dir"
