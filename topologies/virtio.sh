#!/bin/sh
# virtio.sh: the virtio topology of xdptc: a qemu guest whose virtio-net NIC (the DUT,
# eth0 in the guest) is fed by a tap in a host network namespace.
#
#   virtio.sh up PREFIX      boot the guest; print the topology as KEY=VALUE lines
#   virtio.sh down PREFIX    stop the guest, remove the namespace and the run's files
#   virtio.sh exec PREFIX CMD...   run a shell command in the guest (through the agent)
#   virtio.sh cleanup        remove topologies whose run is gone (like veth.sh cleanup)
#   virtio.sh kernel         fetch and unpack the guest kernel GUEST_KERNEL and build its
#                            initramfs (what a boot needs); print KDIR, KERNEL_PACKAGE,
#                            KERNEL_VERSION, KERNEL_SUITE, KERNEL_RELEASE as KEY=VALUE
#   virtio.sh kernel-resolve SPEC   print "UPSTREAM PACKAGE VERSION SUITE" of the Debian
#                            kernel SPEC names (guest_kernel.sh; exit 2: none does)
#   virtio.sh kernel-defaults   one version prefix per kernel series available, oldest
#                            first (the matrix's default KERNELS)
#   virtio.sh probe-accel    print "kvm|why" or "tcg|why" (a KVM test boot, cached)
#
# Environment:
#   GUEST_KERNEL=SPEC       the guest kernel: a version prefix (6.1, the default; 6.12,
#                           6.18, 7.3) or a full Debian package version, the newest
#                           match in bookworm, trixie, their backports, or sid
#   XDPTC_CACHE=DIR         where kernels and initramfs images are kept
#                           (default /var/cache/xdptc; never inside the source tree)
#   XDPTC_OWNER_PID=PID     the process that owns the topology (default: the caller;
#                           see veth.sh); if it ends while the guest boots, `up` stops
#                           the guest and removes the topology itself
#   BOOT_TIMEOUT=SECONDS    how long the guest may take to start its agent (default 180)
#   ACCEL=kvm|tcg           skip the accelerator probe
#   QEMU=PATH               the qemu binary (default qemu-system-x86_64)
#   QEMU_FROM=backports     bookworm-backports' qemu (10.0.2, with igb) instead, unpacked
#                           into the cache beside the installed one (qemu_backports.sh;
#                           xdptc run --qemu backports); its plugin is built for it
#   ICOUNT=1                the icount engine: TCG with -icount shift=0,sleep=off, so the
#                           guest's clock advances 1 ns per guest instruction (no probe)
#   ICOUNT_FIXED=LIST       under ICOUNT=1, what the guest does not randomize from one
#                           boot to the next (comma list; default kaslr,aslr,rng):
#                           kaslr: the kernel's base addresses (nokaslr); aslr: user-space
#                           address layouts (norandmaps); rng: qemu's random numbers
#                           (-seed 1: RDRAND/RDSEED under TCG, what the guest's RNG starts
#                           from); none: leave all three random. What was fixed is printed
#                           in the ICOUNT line.
#   XDPTC_PLUGIN=PATH       under ICOUNT=1, the instruction-counting plugin (default
#                           build/insn_count.so, `make plugin`; installed: PREFIX/lib/
#                           xdptc, else built into the cache at first use; its version file beside
#                           it must name the installed qemu's source version). Its
#                           windows go to INSNS_OUT (printed): in the share when there is
#                           one (the guest reads it at xdptc.insns=, XDPTC_INSNS), else
#                           in the run's state directory (the host reads it)
#   XDPTC_SHARE=DIR         a host directory the guest mounts read-write at
#                           /run/xdptc-share (9p tag xdptcshare): the icount engine's
#                           results and progress log
#
# The guest kernel comes from Debian's package (apt-get download through a private apt
# configuration in the cache + dpkg-deb -x into the cache; nothing is installed on the
# host, the host's apt sources are left alone: guest_kernel.sh). The initramfs (busybox-static plus the
# modules virtio-net, 9p, overlay, virtio_console, sch_ingress, cls_bpf and veth need,
# resolved with depmod/modprobe for that kernel) mounts the host's root read-only over
# 9p under a tmpfs overlay, so the guest runs the very binaries built on the host.
# Control: a virtio-serial port (xdptc.ctl) to the unix socket /run/xdptc/PREFIX/ctl.sock.
# Accelerator: KVM only when a real test boot under KVM succeeds within 20 s, else TCG.
# Addresses: tap 198.18.0.1/30 in namespace PREFIX-host, guest eth0 198.18.0.2/30.
# Exit status: 0 done, 1 failed (what was made is removed), 2 bad usage.
set -eu
. "$(dirname "$0")/lib.sh"

QEMU=${QEMU:-qemu-system-x86_64}
CACHE=${XDPTC_CACHE:-/var/cache/xdptc}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
HOST_ADDR=198.18.0.1
GUEST_ADDR=198.18.0.2
GUEST_MAC=52:54:00:d7:c0:02
# the modules every guest loads (its initramfs): tun is the tap topology's, e1000 the nic
# topology's sender NIC
MODULES="virtio_pci virtio_net 9pnet_virtio 9p overlay virtio_console sch_ingress cls_bpf veth tun e1000"
# what the cache keeps of each kernel beyond them: the drivers of the NIC models qemu
# emulates (guest_kernel.sh; a cached kernel kept with another list is fetched again)
KEEP_MODULES="e1000e vmxnet3 8139cp 8139too pcnet32 tulip ne2k-pci e100 igb"
# FEED=hub (the nic topology): the guest's second NIC, the sender's, an e1000 on one qemu
# hub with the DUT: its transmit runs inside the guest's own register write, so every
# frame reaches the DUT at a point of the guest's instruction stream, not the host's
SND_MAC=52:54:00:d7:c0:01
# DUT_NIC: the DUT's qemu device model (the nic topology's --nic, run/nic_models.c; default
# virtio-net-pci), DUT_MODULES: its driver's modules, added to the initramfs's (each must
# be in the kernel cache: KEEP_MODULES)
DUT_NIC=${DUT_NIC:-virtio-net-pci}
# the cache's list is the same whatever the DUT (its modules are among KEEP_MODULES): one
# fetch of a kernel serves every NIC model
CACHE_MODULES=$MODULES
MODULES="$MODULES${DUT_MODULES:+ $DUT_MODULES}"

die() {
	echo "virtio.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: $0 up PREFIX | down PREFIX | exec PREFIX CMD... | cleanup | kernel | kernel-resolve SPEC | kernel-defaults | probe-accel" >&2
	exit 2
}


# ---- guest kernel ----

. "$HERE/guest_kernel.sh"

# Fetch and unpack the guest kernel GUEST_KERNEL (default 6.1) into the cache; set KDIR.
kernel_dir() {
	kernel_fetch "${GUEST_KERNEL:-6.1}"
}

kernel_version() {
	ls "$1/lib/modules" | head -n 1
}

# Build (or reuse) the initramfs for kernel directory $1; set IMG to its path.
# (kernel_dir, initramfs and accel_for set variables instead of printing: run in a
# command substitution's subshell, their scratch files would escape the exit trap.)
initramfs() {
	kdir=$1
	kver=$(kernel_version "$kdir")
	sum=$( { cat "$HERE/guest/initramfs-init" /bin/busybox; echo "$MODULES"; } | md5sum | cut -c1-12)
	img=$kdir/initramfs-$sum.gz
	# one builder at a time: runs side by side share the cache (and $img.tmp, depmod's
	# indexes); the others wait and then find it built
	exec 8<"$kdir"
	flock 8
	if [ ! -f "$img" ]; then
		echo "virtio.sh: building the guest initramfs for $kver" >&2
		work=$(mktemp -d)
		scratch "$work"
		scratch "$img.tmp"
		mkdir -p "$work/bin" "$work/lib/modules" "$work/proc" "$work/sys" "$work/dev"
		cp /bin/busybox "$work/bin/busybox"
		cp "$HERE/guest/initramfs-init" "$work/init"
		chmod +x "$work/init"
		depmod -b "$kdir" "$kver"
		: > "$work/modules.list"
		for m in ${DUT_MODULES:-}; do
			modprobe -d "$kdir" -S "$kver" --show-depends "$m" >/dev/null 2>&1 ||
				die "the guest kernel $kver has no module $m (the DUT's driver; kept in the cache: $KEEP_MODULES)"
		done
		for m in $MODULES; do
			modprobe -d "$kdir" -S "$kver" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" {print $2}'
		done | awk '!seen[$0]++' | while read -r ko; do
			name=$(basename "$ko")
			case "$name" in
			*.ko.xz) xz -dc "$ko" > "$work/lib/modules/${name%.xz}"; name=${name%.xz} ;;
			*.ko.zst) zstd -qdc "$ko" > "$work/lib/modules/${name%.zst}"; name=${name%.zst} ;;
			*) cp "$ko" "$work/lib/modules/$name" ;;
			esac
			echo "$name" >> "$work/modules.list"
		done
		(cd "$work" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$img.tmp")
		mv "$img.tmp" "$img"
		rm -rf "$work"
	fi
	exec 8>&-
	IMG=$img
}

# ---- accelerator ----

# Sets ACCEL_LINE to "kvm|REASON" when a real boot under KVM reaches the initramfs within
# 20 s, else "tcg|REASON"; cached per kernel until the host reboots. /dev/kvm alone proves nothing:
# on some hosts it exists but guests hang under it.
accel_for() {
	vmlinuz=$1
	img=$2
	kver=$3
	if [ -n "${ACCEL:-}" ]; then
		ACCEL_LINE="$ACCEL|chosen with ACCEL=$ACCEL"
		return
	fi
	cache=$STATE_DIR/accel-$kver
	if [ -f "$cache" ]; then
		ACCEL_LINE=$(cat "$cache")
		return
	fi
	if [ ! -c /dev/kvm ]; then
		result="tcg|no /dev/kvm"
	else
		echo "virtio.sh: probing KVM with a test boot (up to 20 s)" >&2
		log=$(mktemp)
		scratch "$log"
		timeout 20 "$QEMU" -nodefaults -accel kvm -m 256 -smp 1 -display none \
			-no-reboot -serial "file:$log" -kernel "$vmlinuz" -initrd "$img" \
			-append "console=ttyS0 quiet panic=-1 xdptc.probe=1" >/dev/null 2>&1 || true
		if grep -q XDPTC-BOOT-OK "$log"; then
			result="kvm|a test boot under KVM succeeded"
		else
			result="tcg|a test boot under KVM did not finish within 20 s"
		fi
		rm -f "$log"
	fi
	mkdir -p "$STATE_DIR"
	echo "$result" > "$cache"
	ACCEL_LINE=$result
}

# ---- topology ----


down() {
	p=$1
	dir=$STATE_DIR/$p
	# a helper of a killed run still at work (a download, a boot): stopped and waited for
	kill_tagged "$p"
	# a guest that kill_tagged cannot know: one an older xdptc started untagged
	if [ -f "$dir/qemu.pid" ]; then
		pid=$(cat "$dir/qemu.pid" 2>/dev/null || true)
		if [ -n "$pid" ] && pid_running "$pid"; then
			kill "$pid" 2>/dev/null || true
			i=0
			while pid_running "$pid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
			kill -9 "$pid" 2>/dev/null || true
			while pid_running "$pid" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		fi
	fi
	if ns_exists "$p-host"; then
		ip netns delete "$p-host" || true
	fi
	if [ -f "$dir/insns_out" ]; then
		out=$(cat "$dir/insns_out")
		rm -f "$out" "$out.tmp"
	fi
	rm -rf "$dir"
	rm -f "$STATE_DIR/$p.owner" "$STATE_DIR/$p.kind"
}

# What a failed boot said: the lines naming an error first (a panic's stack trace
# would bury them), then the end of the console.
console_excerpt() {
	[ -f "$1" ] || return 0
	echo "virtio.sh: guest console ($1):" >&2
	grep -E 'XDPTC-|cannot|not found|No such|failed|panic' "$1" | grep -v '^ *\[<' | head -n 10 >&2 || true
	echo "  ... last lines:" >&2
	tail -n 5 "$1" >&2 || true
}


up() {
	p=$1
	ns=$p-host
	tap=$p-t
	dir=$STATE_DIR/$p
	bin=${XDPTC_BIN:-$REPO/build/xdptc}
	if [ "${QEMU_FROM:-installed}" = backports ]; then
		QEMU=$(sh "$HERE/qemu_backports.sh") || die "bookworm-backports' qemu is not at hand (above)"
	fi
	command -v "$QEMU" >/dev/null || die "$QEMU is not installed (Debian package qemu-system-x86)"
	[ -x "$bin" ] || die "no xdptc binary at $bin (run 'make' first)"
	ns_exists "$ns" && die "namespace $ns exists already"
	# from here on, what is made is removed on any failure, and everything this script
	# starts stops when its owner ends (lib.sh)
	up_begin "$p"
	mkdir -p "$dir"
	kernel_dir
	kdir=$KDIR
	kver=$(kernel_version "$kdir")
	vmlinuz=$(ls "$kdir"/boot/vmlinuz-* | head -n 1)
	initramfs "$kdir"
	img=$IMG
	if [ "${ICOUNT:-0}" = 1 ]; then
		accel_line="tcg|the icount engine (-icount shift=0,sleep=off: 1 ns of guest time per instruction)"
		icount_args="-icount shift=0,sleep=off"
		fixed_for "${ICOUNT_FIXED-kaslr,aslr,rng}"
		# the DUT's receive path in a kernel thread of its own: its CPU time (guest ns,
		# that is instructions) is then the DUT's cost, read per task
		napi_cmdline=xdptc.threadednapi=1
		plugin_for "$p" "$dir"
	else
		accel_for "$vmlinuz" "$img" "$kver"
		accel_line=$ACCEL_LINE
		icount_args=
	fi
	accel=${accel_line%%|*}
	accel_reason=${accel_line#*|}
	share_args=
	share_cmdline=
	if [ -n "${XDPTC_SHARE:-}" ]; then
		[ -d "$XDPTC_SHARE" ] || die "XDPTC_SHARE=$XDPTC_SHARE is not a directory"
		share_args="-virtfs local,path=$XDPTC_SHARE,mount_tag=xdptcshare,security_model=none"
		share_cmdline=xdptc.share=1
	fi

	ip netns add "$ns"
	ip -n "$ns" link set lo up
	ip -n "$ns" tuntap add dev "$tap" mode tap
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	ip -n "$ns" addr add "$HOST_ADDR/30" dev "$tap"
	ip -n "$ns" link set "$tap" up
	ip -n "$ns" neigh replace "$GUEST_ADDR" lladdr "$GUEST_MAC" dev "$tap" nud permanent
	tapmac=$(dev_mac "$ns" "$tap")

	if [ "$DUT_NIC" = virtio-net-pci ]; then
		dut_device="virtio-net-pci,netdev=n0,mac=$GUEST_MAC,guest_tso4=off,guest_tso6=off,guest_ecn=off,guest_ufo=off"
	else
		dut_device="$DUT_NIC,netdev=n0,mac=$GUEST_MAC"
	fi
	if [ "${FEED:-tap}" = hub ]; then
		net_args="-netdev hubport,id=n0,hubid=0 -device $dut_device -netdev hubport,id=n1,hubid=0 -device e1000,netdev=n1,mac=$SND_MAC"
		nic_cmdline="xdptc.nicpair=$GUEST_MAC,$SND_MAC"
	else
		net_args="-netdev tap,id=n0,ifname=$tap,script=no,downscript=no,vhost=off -device $dut_device"
		nic_cmdline=
	fi
	echo "virtio.sh: booting guest $kver under $accel ($accel_reason)" >&2
	cpu=max
	[ "$accel" = kvm ] && cpu=host
	# shellcheck disable=SC2086
	ip netns exec "$ns" "$QEMU" -name "$p,debug-threads=on" -nodefaults -accel "$accel" -cpu "$cpu" \
		$icount_args ${seed_args:-} ${plugin_args:-} $share_args -m 1024 -smp 1 -display none -no-reboot -daemonize -pidfile "$dir/qemu.pid" \
		-serial "file:$dir/console.log" \
		-kernel "$vmlinuz" -initrd "$img" \
		-append "console=ttyS0 quiet panic=-1 xdptc.init=$HERE/guest/guest-init.sh xdptc.bin=$bin xdptc.addr=$GUEST_ADDR/30 xdptc.peer=$HOST_ADDR xdptc.peermac=$tapmac $share_cmdline ${napi_cmdline:-} ${insns_cmdline:-} ${fixed_cmdline:-} $nic_cmdline" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on \
		-device virtio-serial-pci -chardev "socket,id=ctl,path=$dir/ctl.sock,server=on,wait=off" \
		-device virtserialport,chardev=ctl,name=xdptc.ctl \
		$net_args || die "qemu did not start"

	t0=$(date +%s)
	limit=${BOOT_TIMEOUT:-180}
	while ! grep -q XDPTC-AGENT-READY "$dir/console.log" 2>/dev/null; do
		# an owner killed meanwhile (a run's SIGKILL) never takes this guest down, and a
		# cleanup may have come and gone before this script made anything: stop now
		owner_alive "$p" || die "the owner of $p is gone (killed?): stopping its guest"
		if grep -q XDPTC-BOOT-FAILED "$dir/console.log" 2>/dev/null; then
			console_excerpt "$dir/console.log"
			die "the guest failed to boot"
		fi
		pid=$(cat "$dir/qemu.pid" 2>/dev/null || true)
		if [ -z "$pid" ] || ! pid_running "$pid"; then
			console_excerpt "$dir/console.log"
			die "qemu exited during boot"
		fi
		if [ $(( $(date +%s) - t0 )) -ge "$limit" ]; then
			console_excerpt "$dir/console.log"
			die "the guest did not start its agent within $limit s (BOOT_TIMEOUT)"
		fi
		sleep 0.2
	done
	echo "virtio.sh: guest up in $(( $(date +%s) - t0 )) s" >&2
	up_done
	echo "SND_NS=$ns"
	echo "SND_DEV=$tap"
	echo "SND_ADDR=$HOST_ADDR"
	echo "DUT_ADDR=$GUEST_ADDR"
	echo "DUT_DEV=eth0"
	echo "DUT_MAC=$GUEST_MAC"
	echo "CTL_SOCK=$dir/ctl.sock"
	echo "QEMU_PID=$(cat "$dir/qemu.pid")"
	echo "ACCEL=$accel"
	echo "ACCEL_REASON=$accel_reason"
	echo "GUEST_KERNEL=$kver"
	echo "QEMU_VERSION=$("$QEMU" --version | head -n 1)"
	echo "ICOUNT=${icount_args:-off}${icount_args:+${fixed_line:-}}"
	echo "INSNS_OUT=${insns_out:-}"
}

# What the icount guest keeps the same from one boot to the next, from the comma list $1
# (ICOUNT_FIXED): sets fixed_cmdline (the kernel's command line), seed_args (qemu's) and
# fixed_line (what the ICOUNT line adds: "; fixed kaslr,aslr,rng" or "; fixed none").
fixed_for() {
	fixed_cmdline=
	seed_args=
	fixed=
	old_ifs=$IFS
	IFS=,
	for f in $1; do
		case $f in
		kaslr) fixed_cmdline="$fixed_cmdline nokaslr" ;;
		aslr) fixed_cmdline="$fixed_cmdline norandmaps" ;;
		rng) seed_args="-seed 1" ;;
		none|'') continue ;;
		*) IFS=$old_ifs; die "ICOUNT_FIXED: '$f' is none of kaslr, aslr, rng, none" ;;
		esac
		fixed="${fixed:+$fixed,}$f"
	done
	IFS=$old_ifs
	fixed_line="; fixed ${fixed:-none}"
}

# Sets plugin, the plugin's path when XDPTC_PLUGIN names none, for the qemu's source
# version WANT: in a checkout (REPO holds the Makefile), its build/insn_count.so (`make
# plugin`); installed (REPO is PREFIX/share/xdptc), PREFIX/lib/xdptc/insn_count.so
# when `make install` put one there for this qemu, else one built into the cache at
# first use (scripts/plugin-build.sh: qemu's source header fetched once, then gcc),
# again after a qemu upgrade. Under QEMU_FROM=backports: build/insn_count-backports.so
# (`make plugin QEMU=backports`; built here when missing or of another version), or
# installed, the cache's plugin-backports/insn_count.so.
default_plugin() {
	if [ "${QEMU_FROM:-installed}" = backports ]; then
		plugin=$CACHE/plugin-backports/insn_count.so
		[ -f "$REPO/Makefile" ] && plugin=$REPO/build/insn_count-backports.so
	else
		plugin=$REPO/build/insn_count.so
		[ -f "$REPO/Makefile" ] && return
		plugin=$REPO/../../lib/xdptc/insn_count.so
		[ -f "$plugin" ] && [ "$(cat "${plugin%.so}.version" 2>/dev/null)" = "$1" ] && return
		plugin=$CACHE/plugin/insn_count.so
	fi
	[ -f "$plugin" ] && [ "$(cat "${plugin%.so}.version" 2>/dev/null)" = "$1" ] && return
	echo "virtio.sh: building the instruction-counting plugin into $plugin (once per qemu version)" >&2
	sh "$REPO/scripts/plugin-build.sh" "$plugin" >&2 ||
		die "building the plugin failed (scripts/plugin-build.sh, above)"
}

# The icount engine's plugin for guest PREFIX with state directory DIR: sets plugin_args,
# insns_out (the host path of its windows) and insns_cmdline (the guest's path of them,
# when the guest can read them through the share).
plugin_for() {
	want=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null || echo unknown)
	[ "${QEMU_FROM:-installed}" != backports ] || want=$(cat "$CACHE/qemu-backports/version")
	if [ -n "${XDPTC_PLUGIN:-}" ]; then plugin=$XDPTC_PLUGIN; else default_plugin "$want"; fi
	[ -f "$plugin" ] || die "no instruction-counting plugin at $plugin: run 'make plugin'" \
		"(it fetches qemu's source header once)"
	have=$(cat "${plugin%.so}.version" 2>/dev/null || echo unknown)
	[ "$have" = "$want" ] || die "the plugin $plugin was built for qemu $have, the installed" \
		"qemu is $want: run 'make plugin${QEMU_FROM:+ QEMU=$QEMU_FROM}' again"
	if [ -n "${XDPTC_SHARE:-}" ]; then
		insns_out=$XDPTC_SHARE/.insns-$1
		insns_cmdline=xdptc.insns=/run/xdptc-share/.insns-$1
	else
		insns_out=$2/insns
		insns_cmdline=
	fi
	rm -f "$insns_out" "$insns_out.tmp"
	echo "$insns_out" > "$2/insns_out" # for down: it may lie outside $2
	plugin_args="-plugin $plugin,out=$insns_out"
}

cleanup() {
	# only the topologies whose state directory records them (made right after the owner
	# record, before anything else): a namespace that only looks like ours is left alone
	prefixes=$(ls "$STATE_DIR" 2>/dev/null | sed -n 's/^\(xdptc-[A-Za-z0-9]*\)$/\1/p' | sort -u)
	# shellcheck disable=SC2086
	remove_dead "guest topology" $prefixes
}

[ $# -ge 1 ] || usage
case "$1" in
up) [ $# -eq 2 ] || usage; check_prefix "$2"; up_tagged "$2" "$@"; up "$2" ;;
down) [ $# -eq 2 ] || usage; check_prefix "$2"; down "$2" ;;
exec) [ $# -ge 3 ] || usage; check_prefix "$2"; p=$2; shift 2
	exec "${XDPTC_BIN:-$REPO/build/xdptc}" guest-exec --ctl "$STATE_DIR/$p/ctl.sock" -- "$@" ;;
cleanup) [ $# -eq 1 ] || usage; cleanup ;;
kernel) [ $# -eq 1 ] || usage; kernel_dir; initramfs "$KDIR"
	echo "KDIR=$KDIR"
	echo "KERNEL_PACKAGE=$KPKG"
	echo "KERNEL_VERSION=$KVERSION"
	echo "KERNEL_SUITE=$KSUITE"
	echo "KERNEL_RELEASE=$(kernel_version "$KDIR")" ;;
kernel-resolve) [ $# -eq 2 ] || usage; kernel_refresh_lists; kernel_resolve "$2" ;;
kernel-defaults) [ $# -eq 1 ] || usage; kernel_refresh_lists; kernel_defaults ;;
probe-accel) [ $# -eq 1 ] || usage
	kernel_dir
	initramfs "$KDIR"
	accel_for "$(ls "$KDIR"/boot/vmlinuz-* | head -n 1)" "$IMG" "$(kernel_version "$KDIR")"
	echo "$ACCEL_LINE" ;;
*) usage ;;
esac
