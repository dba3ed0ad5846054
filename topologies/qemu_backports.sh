#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# qemu_backports.sh: qemu from Debian's bookworm-backports (10.0.2 on 2026-12-03), beside the installed
# qemu-system-x86 (bookworm: 7.2), never replacing it: the xdptc run option --qemu
# backports (make QEMU=backports). qemu 10 has the igb NIC model (qemu 8.0 and later).
#
#   sh topologies/qemu_backports.sh      -> prints DIR/qemu-system-x86_64
#
# DIR ($XDPTC_CACHE/qemu-backports, default /var/cache/xdptc) holds the unpacked
# packages (root/), a wrapper DIR/qemu-system-x86_64 that runs root/'s binary with its
# own modules (QEMU_MODULE_DIR: the installed qemu's modules in /usr/lib/.../qemu are of
# another build and abort it) and its own firmware (-L root/usr/share/qemu and
# root/usr/share/seabios; ipxe's option ROMs come from the host's ipxe-qemu, found after
# them), and DIR/version: the packages' source version, for the plugin's header
# (scripts/qemu-plugin-header.sh with QEMU_FROM=backports).
# The packages come through a private apt configuration (DIR/apt: its own sources.list
# with bookworm and bookworm-backports, signed by the host's debian-archive-keyring;
# lists and downloads there): `apt-get download` of qemu-system-x86, -common, -data,
# -modules-opengl and -modules-spice (their modules' names shadow the installed qemu's)
# and seabios (qemu 10 wants >> 1.16.3, bookworm has 1.16.2), then `dpkg-deb -x`. The
# host's apt sources and its installed packages are never touched. The binary's shared
# libraries are checked with ldd: one bookworm lacks stops it with the names; a module
# whose libraries are missing is removed (one that is never loaded here: a GPU's).
# Exit status: 0; 1 with a sentence on stderr (no network, not root on the first fetch,
# a library missing).
set -eu

CACHE=${XDPTC_CACHE:-/var/cache/xdptc}
DIR=$CACHE/qemu-backports
APT=$DIR/apt
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
PKGS="qemu-system-x86 qemu-system-common qemu-system-data qemu-system-modules-opengl
qemu-system-modules-spice seabios"
say() { echo "qemu_backports: $*" >&2; }

if [ -x "$DIR/qemu-system-x86_64" ] && [ -s "$DIR/version" ]; then
	echo "$DIR/qemu-system-x86_64"
	exit 0
fi
[ "$(id -u)" = 0 ] || { say "fetching bookworm-backports' qemu into $DIR needs root (once)"; exit 1; }
mkdir -p "$DIR"
# one fetch at a time: runs side by side share the cache
exec 9>"$DIR/.lock"
flock 9
if [ -x "$DIR/qemu-system-x86_64" ] && [ -s "$DIR/version" ]; then
	echo "$DIR/qemu-system-x86_64"
	exit 0
fi
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/none" "$APT/get"
[ -f "$APT/status" ] || : > "$APT/status"
k="[signed-by=$KEYRING]"
cat > "$APT/sources.list" <<EOF
# xdptc's private apt sources: bookworm-backports' qemu, unpacked into the cache only
deb $k http://deb.debian.org/debian bookworm main
deb $k http://deb.debian.org/debian bookworm-backports main
EOF
opts="-o Dir::Etc::SourceList=$APT/sources.list -o Dir::Etc::SourceParts=$APT/none \
-o Dir::State::Lists=$APT/lists -o Dir::Cache=$APT/cache -o Dir::State::status=$APT/status \
-o Dir::Etc::Preferences=$APT/none -o Dir::Etc::PreferencesParts=$APT/none \
-o Acquire::Languages=none -o APT::Architecture=amd64 -o APT::Architectures=amd64 \
-o APT::Sandbox::User=root -o Debug::NoLocking=1"
say "fetching qemu from bookworm-backports into $DIR (once)"
# shellcheck disable=SC2086
apt-get $opts -q update >"$APT/update.log" 2>&1 ||
	{ say "cannot fetch Debian's package lists (see $APT/update.log)"; exit 1; }
rm -rf "$APT/get"/* "$DIR/root.new"
want=
for p in $PKGS; do want="$want $p/bookworm-backports"; done
# shellcheck disable=SC2086
(cd "$APT/get" && apt-get $opts -q download $want) >"$APT/download.log" 2>&1 ||
	{ say "cannot download$want (see $APT/download.log)"; exit 1; }
for deb in "$APT/get"/*.deb; do
	dpkg-deb -x "$deb" "$DIR/root.new"
done
bin=$DIR/root.new/usr/bin/qemu-system-x86_64
mods=$DIR/root.new/usr/lib/x86_64-linux-gnu/qemu
missing=$(ldd "$bin" | awk '/not found/ {print $1}' | tr '\n' ' ')
[ -z "$missing" ] || { say "bookworm-backports' qemu needs libraries this host lacks:" \
	"$missing(install them, or use the installed qemu)"; rm -rf "$DIR/root.new"; exit 1; }
for m in "$mods"/*.so; do
	if ldd "$m" 2>/dev/null | grep -q 'not found'; then
		say "left out the module $(basename "$m"): $(ldd "$m" | awk '/not found/ {print $1}' | tr '\n' ' ')missing"
		rm -f "$m"
	fi
done
ver=$(dpkg-deb -f "$(ls "$APT/get"/qemu-system-x86_*.deb)" Source | sed -n 's/^qemu (\(.*\))$/\1/p')
[ -n "$ver" ] || ver=$(dpkg-deb -f "$(ls "$APT/get"/qemu-system-x86_*.deb)" Version)
rm -rf "$DIR/root"
mv "$DIR/root.new" "$DIR/root"
cat > "$DIR/qemu-system-x86_64.new" <<EOF
#!/bin/sh
# bookworm-backports' qemu $ver, unpacked by xdptc (topologies/qemu_backports.sh)
QEMU_MODULE_DIR=$DIR/root/usr/lib/x86_64-linux-gnu/qemu
export QEMU_MODULE_DIR
exec $DIR/root/usr/bin/qemu-system-x86_64 -L $DIR/root/usr/share/qemu -L $DIR/root/usr/share/seabios "\$@"
EOF
chmod +x "$DIR/qemu-system-x86_64.new"
mv "$DIR/qemu-system-x86_64.new" "$DIR/qemu-system-x86_64"
echo "$ver" > "$DIR/version"
rm -rf "$APT/get"/*
say "$("$DIR/qemu-system-x86_64" --version | head -n 1) in $DIR"
echo "$DIR/qemu-system-x86_64"
