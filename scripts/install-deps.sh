#!/bin/sh
# install-deps.sh: install (idempotently) every Debian package xdptc needs to build,
# run and test. Safe to call repeatedly: it does nothing when all tools are present.
#
# Packages: clang/llvm (BPF compiler), libbpf-dev + bpftool from bookworm-backports
# (libbpf 1.4 has the tcx API), libelf/zlib (libbpf's link deps), libcmocka-dev (unit
# tests), libjansson-dev (run.json), iproute2/ethtool (topologies), linux-perf, bpftrace.
# Exit status: 0 when everything is present afterwards, 1 otherwise.
set -eu

BACKPORTS_LIST=/etc/apt/sources.list.d/xdptc-bookworm-backports.list
PKGS="make gcc pkg-config procps clang llvm libelf-dev zlib1g-dev libcmocka-dev libjansson-dev \
iproute2 ethtool linux-perf bpftrace"
BP_PKGS="libbpf-dev bpftool"

have_all() {
	for p in $PKGS $BP_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || return 1
	done
	# libbpf must be new enough for bpf_program__attach_tcx (>= 1.3)
	v=$(pkg-config --modversion libbpf 2>/dev/null || echo 0)
	case "$v" in 0.*|1.0*|1.1*|1.2*) return 1 ;; esac
	return 0
}

if have_all; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages and not root; run as root: sudo $0" >&2
	exit 1
fi

echo "install-deps: installing build and run dependencies (Debian packages)..." >&2
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
if [ "$codename" = bookworm ] && [ ! -f "$BACKPORTS_LIST" ]; then
	echo "deb http://deb.debian.org/debian bookworm-backports main" > "$BACKPORTS_LIST"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PKGS >/dev/null
if [ "$codename" = bookworm ]; then
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends -t bookworm-backports $BP_PKGS >/dev/null
else
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $BP_PKGS >/dev/null
fi
have_all || { echo "install-deps: packages still missing after apt-get" >&2; exit 1; }
echo "install-deps: done" >&2
