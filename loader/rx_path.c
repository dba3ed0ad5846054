/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "rx_path.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drop_mode.h"

int rx_prog_ident_fd(int fd, uint32_t *id, char name[17], char tag[17])
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	name[0] = tag[0] = '\0';
	memset(&info, 0, sizeof(info));
	if (bpf_prog_get_info_by_fd(fd, &info, &len))
		return -errno;
	*id = info.id;
	snprintf(name, 17, "%s", info.name);
	for (int i = 0; i < 8; i++)
		snprintf(tag + 2 * i, 3, "%02x", info.tag[i]);
	return 0;
}

/* Name and tag of program @id ("" when it cannot be opened). */
static void prog_ident(uint32_t id, char name[17], char tag[17])
{
	int fd = bpf_prog_get_fd_by_id(id);
	uint32_t same;

	name[0] = tag[0] = '\0';
	if (fd < 0)
		return;
	rx_prog_ident_fd(fd, &same, name, tag);
	close(fd);
}

static struct rx_occupant *add(struct rx_path *p, enum rx_hook hook, const char *mode,
			       uint32_t prog_id)
{
	struct rx_occupant *o;

	if (p->n >= RX_PATH_MAX)
		return NULL;
	o = &p->occ[p->n++];
	memset(o, 0, sizeof(*o));
	o->hook = hook;
	snprintf(o->mode, sizeof(o->mode), "%s", mode);
	o->prog_id = prog_id;
	if (prog_id)
		prog_ident(prog_id, o->prog_name, o->prog_tag);
	return o;
}

static int read_xdp(struct rx_path *p, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int e = bpf_xdp_query(p->ifindex, 0, &q);

	if (e) {
		snprintf(err, errlen, "cannot query the XDP hook: %s", strerror(-e));
		return e;
	}
	/* native and generic cannot be active at once; offload may sit beside native */
	if (q.drv_prog_id)
		add(p, RX_HOOK_XDP, "xdpdrv", q.drv_prog_id);
	if (q.skb_prog_id)
		add(p, RX_HOOK_XDP, "xdpgeneric", q.skb_prog_id);
	if (q.hw_prog_id)
		add(p, RX_HOOK_XDP, "xdpoffload", q.hw_prog_id);
	if (!q.drv_prog_id && !q.skb_prog_id && !q.hw_prog_id && q.prog_id)
		add(p, RX_HOOK_XDP, q.attach_mode == XDP_ATTACHED_SKB ? "xdpgeneric" : "xdpdrv",
		    q.prog_id);
	return 0;
}

/* The programs of a multi-program hook (bpf_prog_query_opts, @type: tcx ingress, or a
 * netkit primary's peer), in their order, as occupants of @hook named @mode; a kernel or
 * device without the hook refuses the query: nothing can sit there. */
static void read_mprog(struct rx_path *p, enum bpf_attach_type type, enum rx_hook hook,
		       const char *mode)
{
	LIBBPF_OPTS(bpf_prog_query_opts, q);
	__u32 ids[RX_PATH_MAX], links[RX_PATH_MAX];

	q.prog_ids = ids;
	q.link_ids = links;
	q.count = RX_PATH_MAX;
	if (bpf_prog_query_opts(p->ifindex, type, &q))
		return;
	for (__u32 i = 0; i < q.count && i < RX_PATH_MAX; i++) {
		struct rx_occupant *o = add(p, hook, mode, ids[i]);

		if (o)
			o->link_id = links[i];
	}
}

static int cmp_pref(const void *a, const void *b)
{
	const struct rx_occupant *x = a, *y = b;

	return x->tc_pref < y->tc_pref ? -1 : x->tc_pref > y->tc_pref;
}

json_t *rx_tc_json(const char *what, const char *ifname, const char *dir, char *err,
		   size_t errlen)
{
	/* tc run without a shell: a device's name is its argument as it is (a name may hold
	 * any byte but '/', a quote among them) */
	const char *argv[] = { "tc", "-j", what, "show", "dev", ifname, dir, NULL };
	json_error_t je;
	json_t *j;
	FILE *pp;
	pid_t pid;
	int fds[2], st = 0;

	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot run tc (iproute2): %s", strerror(errno));
		return NULL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot run tc (iproute2): %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (dup2(fds[1], STDOUT_FILENO) < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0 ||
		    dup2(null, STDIN_FILENO) < 0)
			_exit(126);
		execvp("tc", (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	pp = fdopen(fds[0], "r");
	j = pp ? json_loadf(pp, JSON_DISABLE_EOF_CHECK, &je) : NULL;
	if (pp)
		fclose(pp);
	else
		close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		json_decref(j);
		snprintf(err, errlen, "'tc -j %s show dev %s%s%s' failed%s", what, ifname,
			 dir ? " " : "", dir ? dir : "",
			 WIFEXITED(st) && WEXITSTATUS(st) == 127 ? " (tc not found: iproute2)" : "");
		return NULL;
	}
	return j ? j : json_array(); /* no filter at all prints nothing */
}

/* The ingress qdisc's kind (clsact or ingress) and its ingress filters, from iproute2's
 * JSON: entries with "options" are filters, the others the headers of their pref. */
static int read_tc(struct rx_path *p, const char *ifname, char *err, size_t errlen)
{
	json_t *j = rx_tc_json("qdisc", ifname, NULL, err, errlen), *f;
	size_t i;
	int first;

	if (!j)
		return -EIO;
	json_array_foreach(j, i, f) {
		const char *kind = json_string_value(json_object_get(f, "kind"));
		const char *handle = json_string_value(json_object_get(f, "handle"));

		if (kind && handle && !strcmp(handle, "ffff:") &&
		    (!strcmp(kind, "clsact") || !strcmp(kind, "ingress")))
			snprintf(p->qdisc, sizeof(p->qdisc), "%s", kind);
	}
	json_decref(j);
	if (!p->qdisc[0])
		return 0;
	j = rx_tc_json("filter", ifname, "ingress", err, errlen);
	if (!j)
		return -EIO;
	first = p->n;
	json_array_foreach(j, i, f) {
		const json_t *opt = json_object_get(f, "options");
		const char *kind = json_string_value(json_object_get(f, "kind"));
		const char *h = json_string_value(json_object_get(opt, "handle"));
		uint32_t id = (uint32_t)json_integer_value(json_object_get(json_object_get(opt, "prog"), "id"));
		struct rx_occupant *o;

		if (!opt || !kind)
			continue;
		if (!strcmp(kind, "u32") && !json_object_get(opt, "match"))
			continue; /* a u32 hash table header, not a filter */
		o = add(p, RX_HOOK_TC, "tc", id);
		if (!o)
			break;
		o->tc_pref = (uint32_t)json_integer_value(json_object_get(f, "pref"));
		o->tc_handle = h ? (uint32_t)strtoul(h, NULL, 0) : 0;
		snprintf(o->tc_kind, sizeof(o->tc_kind), "%s", kind);
		snprintf(o->qdisc, sizeof(o->qdisc), "%s", p->qdisc);
	}
	json_decref(j);
	qsort(p->occ + first, (size_t)(p->n - first), sizeof(p->occ[0]), cmp_pref);
	return 0;
}

int rx_path_read(const char *ifname, struct rx_path *p, char *err, size_t errlen)
{
	int e;

	memset(p, 0, sizeof(*p));
	p->ifindex = (int)if_nametoindex(ifname);
	if (!p->ifindex) {
		snprintf(err, errlen, "no device '%s' in this network namespace", ifname);
		return -ENODEV;
	}
	/* in the order a frame meets them */
	read_mprog(p, BPF_NETKIT_PEER, RX_HOOK_NETKIT, "netkit");
	if ((e = read_xdp(p, err, errlen)))
		return e;
	read_mprog(p, BPF_TCX_INGRESS, RX_HOOK_TCX, "tcx");
	return read_tc(p, ifname, err, errlen);
}

const char *rx_occupant_describe(const struct rx_occupant *o, char *buf, size_t len)
{
	char prog[64] = "";

	if (o->prog_id)
		snprintf(prog, sizeof(prog), "program id %u '%s'", o->prog_id, o->prog_name);
	switch (o->hook) {
	case RX_HOOK_XDP:
		snprintf(buf, len, "the %s XDP %s",
			 !strcmp(o->mode, "xdpdrv") ? "native" : !strcmp(o->mode, "xdpgeneric")
				? "generic" : "offloaded", prog);
		break;
	case RX_HOOK_NETKIT:
		if (o->link_id)
			snprintf(buf, len, "the netkit peer %s (BPF link %u)", prog, o->link_id);
		else
			snprintf(buf, len, "the netkit peer %s", prog);
		break;
	case RX_HOOK_TCX:
		if (o->link_id)
			snprintf(buf, len, "the tcx ingress %s (BPF link %u)", prog, o->link_id);
		else
			snprintf(buf, len, "the tcx ingress %s", prog);
		break;
	default: {
		const char *q = !strcmp(o->qdisc, "clsact") ? "clsact ingress" : "ingress qdisc's";

		if (o->prog_id)
			snprintf(buf, len, "the %s filter pref %u handle 0x%x (%s, %s)", q,
				 o->tc_pref, o->tc_handle, o->tc_kind, prog);
		else
			snprintf(buf, len, "the %s %s filter pref %u", q, o->tc_kind, o->tc_pref);
		break;
	}
	}
	return buf;
}

json_t *rx_occupant_json(const struct rx_occupant *o, bool ours)
{
	static const char *const hooks[] = { "xdp", "tcx", "tc", "netkit" };
	json_t *j = json_object();
	char d[160];

	json_object_set_new(j, "hook", json_string(hooks[o->hook]));
	json_object_set_new(j, "mode", json_string(o->mode));
	json_object_set_new(j, "prog_id", o->prog_id ? json_integer(o->prog_id) : json_null());
	if (o->prog_id) {
		json_object_set_new(j, "prog_name", json_string(o->prog_name));
		json_object_set_new(j, "prog_tag", json_string(o->prog_tag));
	}
	if (o->hook == RX_HOOK_TCX || o->hook == RX_HOOK_NETKIT)
		json_object_set_new(j, "link_id", o->link_id ? json_integer(o->link_id) : json_null());
	if (o->hook == RX_HOOK_TC) {
		json_object_set_new(j, "qdisc", json_string(o->qdisc));
		json_object_set_new(j, "pref", json_integer(o->tc_pref));
		json_object_set_new(j, "handle", json_integer(o->tc_handle));
		json_object_set_new(j, "kind", json_string(o->tc_kind));
	}
	json_object_set_new(j, "xdptc", json_boolean(ours));
	json_object_set_new(j, "what", json_string(rx_occupant_describe(o, d, sizeof(d))));
	return j;
}

enum rx_hook rx_hook_of_mode(int mode)
{
	return mode == MODE_TCX ? RX_HOOK_TCX : mode == MODE_TC ? RX_HOOK_TC
	       : mode == MODE_NETKIT ? RX_HOOK_NETKIT : RX_HOOK_XDP;
}

/* Where a hook sits on the way of a frame: netkit's (at the peer's xmit) first. */
static int hook_rank(enum rx_hook h)
{
	return h == RX_HOOK_NETKIT ? -1 : (int)h;
}

bool rx_runs_before(const struct rx_occupant *o, int mode, uint32_t tc_pref)
{
	enum rx_hook h = rx_hook_of_mode(mode);

	if (mode == MODE_NONE)
		return true; /* the baseline: anything on the path changes what it costs */
	if (o->hook != h)
		return hook_rank(o->hook) < hook_rank(h);
	/* the same hook: XDP holds one program (occupied); tcx programs run in their order
	 * and a new one goes last; clsact filters by pref */
	if (h == RX_HOOK_TC)
		return o->tc_pref <= tc_pref;
	return true;
}

int rx_path_refusal(const struct rx_path *p, const char *ifname, int mode,
		    const char *mode_name, uint32_t tc_pref, const bool *ours, const char *netns,
		    char *err, size_t errlen)
{
	bool none = mode == MODE_NONE;
	size_t n;
	int k = 0;

	err[0] = '\0';
	for (int i = 0; i < p->n; i++) {
		const struct rx_occupant *o = &p->occ[i];
		char d[160];

		if (!rx_runs_before(o, mode, tc_pref))
			continue;
		n = strlen(err);
		snprintf(err + n, errlen - n, "%s%s %s", k++ ? "; " : "",
			 rx_occupant_describe(o, d, sizeof(d)),
			 none ? "is on the receive path"
			 : o->hook == rx_hook_of_mode(mode) && o->hook != RX_HOOK_TC
				 ? "holds that hook" : "sees the frames before it");
		n = strlen(err);
		if (ours && ours[i])
			snprintf(err + n, errlen - n, " (xdptc's, from an earlier attach: 'xdptc "
				 "detach%s%s --dev %s --mode %s' removes it)", netns ? " --netns " : "",
				 netns ? netns : "", ifname, o->mode);
		else if (ours)
			snprintf(err + n, errlen - n, " (not xdptc's: left alone)");
	}
	if (!k)
		return 0;
	{ /* the head, in front of the list */
		char head[128];
		size_t hn = (size_t)snprintf(head, sizeof(head), "%s on '%s' refused: ", mode_name,
					     ifname);

		n = strlen(err);
		if (n + hn + 1 < errlen) {
			memmove(err + hn, err, n + 1);
			memcpy(err, head, hn);
		}
	}
	n = strlen(err);
	snprintf(err + n, errlen - n, none ? ". The baseline (no program) would include what %s "
					     "does%s"
					   : ". What %s takes would be missing from this program's "
					     "verdict counters%s",
		 k > 1 ? "each of them" : "it",
		 ours ? "." : k > 1 ? "; xdptc leaves them alone." : "; xdptc leaves it alone.");
	return k;
}
