#!/bin/sh
# install-deps.sh: install (idempotently) every Debian package xdptc needs to build,
# run and test. Safe to call repeatedly: it does nothing when all tools are present.
#
# Packages: clang/llvm (BPF compiler), libbpf-dev + bpftool from bookworm-backports
# (Debian 12's own libbpf 1.1 lacks the tcx API of 1.3 and later), libelf/zlib (libbpf's link deps), libcmocka-dev (unit
# tests), libjansson-dev (run.json), iproute2/ethtool/procps (topologies), and for the
# virtio topology qemu-system-x86, busybox-static, cpio, kmod (depmod/modprobe for the
# guest's modules), xz-utils and zstd (guest kernels' modules are compressed) and
# debian-archive-keyring (the guest kernels' private apt configuration checks Debian's
# signatures with it); bpftrace for the
# by-hand counting scripts in probes/, linux-perf for the flame graphs, gnuplot-nox for
# the plots, libclang-rt-dev for `make fuzz` (libFuzzer and the sanitizers' runtimes,
# only recommended by clang, so not installed with --no-install-recommends), and
# python3-jsonschema for the tests' check of every run.json against docs/run.schema.json
# and, with python3-yaml, of the matrix's GitHub workflow against its vendored schema,
# groff-base for the test that renders the manual page (build/xdptc.8), chromium for the
# test that drives the flame graphs' script in a headless browser (test_flame_browser),
# parallel (GNU parallel) for the test that runs a matrix's cells as separate jobs,
# libcmark-gfm-dev and libcmark-gfm-extensions-dev (cmark-gfm, GitHub's Markdown
# renderer: a run's and a matrix's index.html from summary.md and matrix.md),
# debhelper (with dpkg-dev) and lintian for `make deb` and the test of the installed
# package, man-db for its `man xdptc`, libglib2.0-dev for the icount plugin built
# against qemu 10's plugin header (QEMU=backports), which includes glib.h, strace for
# the test that counts the sender's sendmmsg calls (--batch, test_run_batch).
# On Debian 12 it adds bookworm-backports to apt's sources
# (/etc/apt/sources.list.d/xdptc-bookworm-backports.list). Elsewhere, install the
# equivalents by hand (libbpf >= 1.3 with its bpftool) and run `make`.
# Exit status: 0 when everything is present afterwards, 1 otherwise.
set -eu

BACKPORTS_LIST=/etc/apt/sources.list.d/xdptc-bookworm-backports.list
PKGS="make gcc pkg-config procps clang llvm libelf-dev zlib1g-dev libcmocka-dev libjansson-dev \
iproute2 ethtool qemu-system-x86 busybox-static cpio kmod xz-utils zstd debian-archive-keyring \
bpftrace linux-perf gnuplot-nox \
libclang-rt-dev python3-jsonschema python3-yaml groff-base chromium parallel \
libcmark-gfm-dev libcmark-gfm-extensions-dev debhelper dpkg-dev lintian man-db libglib2.0-dev strace"
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

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: this is not a Debian-like system (no apt-get). Install clang, llvm," >&2
	echo "  libbpf (>= 1.3) with bpftool, libelf, zlib, jansson, cmocka, iproute2 and ethtool," >&2
	echo "  then run 'make' and './build/xdptc run' directly." >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages and not root; run as root: sudo $0" >&2
	exit 1
fi

echo "install-deps: some packages are missing; installing them (once, about a minute)" >&2
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
if [ "$codename" = bookworm ] && [ ! -f "$BACKPORTS_LIST" ]; then
	echo "install-deps: adding bookworm-backports to apt's sources ($BACKPORTS_LIST)" >&2
	echo "deb http://deb.debian.org/debian bookworm-backports main" > "$BACKPORTS_LIST"
fi
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: apt-get update" >&2
apt-get update -q >/dev/null
echo "install-deps: apt-get install $PKGS" >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PKGS >/dev/null
echo "install-deps: apt-get install $BP_PKGS (bookworm-backports on Debian 12)" >&2
if [ "$codename" = bookworm ]; then
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends -t bookworm-backports $BP_PKGS >/dev/null
else
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $BP_PKGS >/dev/null
fi
have_all || { echo "install-deps: packages still missing after apt-get" >&2; exit 1; }
echo "install-deps: done" >&2
