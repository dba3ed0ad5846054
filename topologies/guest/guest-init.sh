#!/bin/sh
# guest-init.sh: PID 1 of the xdptc guest after switch_root; runs on the host's own
# userland (9p root with a tmpfs overlay). Sets up the DUT interface from the kernel
# command line and runs `xdptc agent` on the virtio-serial control port; powers the
# guest off when the agent ends.
#   xdptc.bin=PATH      the xdptc binary (the host's build)
#   xdptc.addr=A/L      the DUT's address (198.18.0.2/30)
#   xdptc.peer=A        the host tap's address
#   xdptc.peermac=M     the host tap's MAC (static neighbour entry)
#   xdptc.share=1       mount the host's share (9p tag xdptcshare) at /run/xdptc-share
#   xdptc.threadednapi=1  run eth0's NAPI in a kernel thread (the icount engine)
#   xdptc.insns=PATH    the icount engine's plugin writes its windows to PATH (through
#                       the share): exported as XDPTC_INSNS to the agent and its children
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
poweroff_now() {
	echo o > /proc/sysrq-trigger
	sleep 10
}
for w in $(cat /proc/cmdline); do
	case "$w" in
	xdptc.bin=*) bin=${w#xdptc.bin=} ;;
	xdptc.addr=*) addr=${w#xdptc.addr=} ;;
	xdptc.peer=*) peer=${w#xdptc.peer=} ;;
	xdptc.peermac=*) peermac=${w#xdptc.peermac=} ;;
	xdptc.share=1) share=1 ;;
	xdptc.threadednapi=1) threadednapi=1 ;;
	xdptc.insns=*) export XDPTC_INSNS="${w#xdptc.insns=}" ;;
	xdptc.nicpair=*) nicpair=${w#xdptc.nicpair=} ;;
	esac
done
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname xdptc-guest 2>/dev/null
# the icount engine's read-write share with the host (results, progress log)
if [ "${share:-0}" = 1 ]; then
	mkdir -p /run/xdptc-share
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 xdptcshare /run/xdptc-share ||
		echo "XDPTC-SHARE-FAILED"
fi
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
ip link set lo up
# a pair of NICs on one qemu hub (the nic topology, run inside): named by their MACs,
# dut0 (the DUT) and snd0 (the sender's), and left to the inner run's nic.sh
agent_dev=eth0
if [ -n "${nicpair:-}" ]; then
	for d in /sys/class/net/*; do
		mac=$(cat "$d/address" 2>/dev/null)
		case "$mac" in
		"${nicpair%,*}") ip link set "${d##*/}" name dut0 ;;
		"${nicpair#*,}") ip link set "${d##*/}" name snd0 ;;
		esac
	done
	agent_dev=dut0
fi
[ -n "${nicpair:-}" ] || ip link set eth0 up
# the icount engine: eth0's NAPI in its own thread (napi/eth0-N), whose CPU time the agent
# reads as the DUT's cost (found when the agent starts, so set before it)
if [ "${threadednapi:-0}" = 1 ] && [ -z "${nicpair:-}" ]; then
	echo 1 > /sys/class/net/eth0/threaded || echo "XDPTC-THREADED-NAPI-FAILED"
fi
if [ -z "${nicpair:-}" ]; then
	sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
	ip addr add "$addr" dev eth0
	ip neigh replace "$peer" lladdr "$peermac" dev eth0 nud permanent
fi
port=
for p in /sys/class/virtio-ports/*; do
	[ "$(cat "$p/name" 2>/dev/null)" = xdptc.ctl ] && port=/dev/${p##*/}
done
if [ -z "$port" ] || [ ! -x "$bin" ]; then
	echo "XDPTC-BOOT-FAILED: control port '$port' or binary '$bin' missing"
	poweroff_now
fi
echo "XDPTC-AGENT-STARTING $(uname -r)"
"$bin" agent --serial "$port" --dev "$agent_dev"
echo "XDPTC-AGENT-EXITED $?"
poweroff_now
