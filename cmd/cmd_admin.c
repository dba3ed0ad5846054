/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_admin.c: xdptc doctor and xdptc cleanup. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "dev_report.h"
#include "topologies.h"
#include "doctor.h"
#include "nic_list.h"

#include "cli.h"
#include "cli_table.h"

enum { OPT_DEV = 256, OPT_NETNS, OPT_TRY_ATTACH };

/* Report @r on stdout, as JSON or in words (@print), and release it. Returns 0. */
static int report_out(json_t *r, int as_json, void (*print)(const json_t *, FILE *))
{
	if (as_json) {
		json_dumpf(r, stdout, JSON_INDENT(2));
		printf("\n");
	} else {
		print(r, stdout);
	}
	json_decref(r);
	return 0;
}

/* doctor --dev IFACE: the named device's report (dev_report.h), or exit 2 when there is
 * no such device, before anything is touched; with @try_attach also the attach's own
 * answer (nic_try_attach), refused (exit 2) on a device that carries the default route
 * or a remote login. */
static int doctor_dev(const char *netns, const char *dev, int as_json, int try_attach)
{
	char err[256], line[1024];
	int e;
	json_t *r = dev_report(netns, dev, &e, err, sizeof(err));
	const char *warn = json_string_value(json_object_get(r, "attach_warning"));

	if (!r) {
		fprintf(stderr, "xdptc doctor: --dev '%s': %s\n", dev, err);
		return e == -ENODEV || e == -ENOENT ? EXIT_USAGE : 1;
	}
	if (try_attach && warn) {
		fprintf(stderr, "xdptc doctor: --try-attach refused: %s\n", warn);
		json_decref(r);
		return EXIT_USAGE;
	}
	if (try_attach)
		nic_try_attach(r, netns, dev);
	if (as_json || !try_attach)
		return report_out(r, as_json, dev_report_print);
	dev_report_print(r, stdout);
	nic_line(r, line, sizeof(line));
	printf("  answer:        %s\n", line);
	json_decref(r);
	return 0;
}

/* doctor's machine report, then this namespace's NICs (nic_list; read only). */
static void doctor_print_nics(const json_t *r, FILE *out)
{
	doctor_print(r, out);
	nic_list_print(json_object_get(r, "nics"), out);
}

int cmd_doctor(int argc, char **argv)
{
	char topodir[PATH_MAX];
	const char *dev = NULL, *netns = NULL;
	int c, as_json = 0, boot = 0, guest = 0, try_attach = 0;
	json_t *r;

	while ((c = cli_next(&cli_cmd_doctor, argc, argv)) > 0) {
		switch (c) {
		case 'j': as_json = 1; break;
		case 'b': boot = 1; break;
		case 'g': guest = 1; break;
		case OPT_DEV: dev = optarg; break;
		case OPT_NETNS: netns = optarg; break;
		case OPT_TRY_ATTACH: try_attach = 1; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (optind < argc) {
		fprintf(stderr, "xdptc doctor: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if ((c = check_privilege()))
		return c;
	if (dev && (boot || guest)) {
		fprintf(stderr, "xdptc doctor: --boot and --guest are for the machine report, not "
				"--dev\n");
		return EXIT_USAGE;
	}
	if (try_attach && !dev) {
		fprintf(stderr, "xdptc doctor: --try-attach needs --dev IFACE: it attaches only "
				"to a device you name\n");
		return EXIT_USAGE;
	}
	if (dev)
		return doctor_dev(netns, dev, as_json, try_attach);
	if (netns) {
		fprintf(stderr, "xdptc doctor: --netns applies to --dev only\n");
		return EXIT_USAGE;
	}
	default_topologies_dir(topodir, sizeof(topodir));
	r = doctor_report(topodir, boot, guest);
	json_object_set_new(r, "nics", nic_list(NULL));
	return report_out(r, as_json, doctor_print_nics);
}

int cmd_cleanup(int argc, char **argv)
{
	char topodir[PATH_MAX];
	int n;

	while ((n = cli_next(&cli_cmd_cleanup, argc, argv)) > 0)
		;
	if (n < 0)
		return cli_exit(n);
	if (optind < argc) {
		fprintf(stderr, "xdptc cleanup: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (check_privilege())
		return 1;
	default_topologies_dir(topodir, sizeof(topodir));
	n = cleanup_leftovers(topodir, topology_scripts(), "results", "");
	if (n < 0) {
		fprintf(stderr, "xdptc: cleanup failed: %s\n", strerror(-n));
		return 1;
	}
	if (!n)
		fprintf(stderr, "nothing to clean: nothing of a killed xdptc run is left\n");
	return 0;
}

static const struct cli_opt doctor_opts[] = {
	{ "json", 'j', NULL, "the report as JSON (the machine report is what run.json stores "
	  "under \"doctor\")" },
	{ "boot", 'b', NULL, "prove KVM with a test boot of the guest kernel (may download it)" },
	{ "guest", 'g', NULL, "inside a guest: leave out qemu and KVM" },
	{ "dev", OPT_DEV, "IFACE", "instead of the machine report, what a device you name "
	  "offers, read and never touched: its driver; whether the driver runs XDP natively (the kernel's "
	  "xdp-features); its queues, IRQs and the CPUs they run on; whether a PMU counts "
	  "there; what already sits on its XDP and TC hooks; whether it carries the default "
	  "route or a remote login. Exit 2 when there is no such device. Without --dev, the "
	  "report ends with this namespace's NICs (those backed by a bus device): each one's "
	  "driver and whether it runs XDP natively, read only" },
	{ "netns", OPT_NETNS, "NS", "--dev's namespace (ip netns)", "this one" },
	{ "try-attach", OPT_TRY_ATTACH, NULL, "with --dev: also ask the kernel by an attach "
	  "(for kernels before 6.3, which have no xdp-features): xdptc's XDP program "
	  "attached in xdpdrv for an instant and detached, and the kernel's refusal said; "
	  "the only thing doctor changes, and only on the device named (refused, exit 2, on "
	  "one that carries the default route or a remote login)" },
	{ NULL },
};

const struct cli_command cli_cmd_doctor = {
	.name = "doctor",
	.fn = cmd_doctor,
	.brief = "what this machine and kernel offer, and why",
	.about = "Report what this machine and kernel offer the suite, each item tried for "
		 "real where it can be (XDP, clsact and tcx on a veth pair of its own; a "
		 "kprobe, an fentry program and the tracepoints loaded and attached; PMU "
		 "counters opened; BPF statistics enabled), with the reason for every no. Also "
		 "qemu, KVM, the versions of the packages the suite uses, whether tracefs, "
		 "debugfs and bpffs are mounted (a fresh boot has none) and what of xdptc needs "
		 "each, and the global settings the numbers depend on "
		 "(kernel.bpf_stats_enabled, net.core.bpf_jit_enable, "
		 "kernel.perf_event_paranoid, kernel.kptr_restrict): read and reported, never "
		 "changed. It ends with a bottom line: which make targets will run here, which "
		 "metrics will be n/a and why.",
	.opts = doctor_opts,
};

static const struct cli_opt cleanup_opts[] = { { NULL } };

const struct cli_command cli_cmd_cleanup = {
	.name = "cleanup",
	.fn = cmd_cleanup,
	.brief = "remove what a killed run left behind",
	.about = "Remove what killed runs left: namespaces, links and guests named xdptc-* "
		 "whose run is gone (a topology whose run still goes is left alone), the helper "
		 "processes of those runs (waited for), xdptc's records of attachments whose "
		 "namespace or device no longer exists, and empty run directories under "
		 "./results. Touches nothing else. Every run does this when it starts.",
	.opts = cleanup_opts,
};
