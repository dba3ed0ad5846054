/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "skb_counters.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_log.h"
#include "kallsyms.h"
#include "name_list.h"
#include "percpu_array.h"
#include "skb_counters.skel.h"

/* libbpf attaches kprobes through this PMU; without it the kernel has no kprobes. */
#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe/type"
#define KALLSYMS "/proc/kallsyms"
#define MAX_CLONES 8

static const char *const backend_names[BACKEND_NR] = { "kprobe", "fentry", "tracepoint" };
static const char *const count_names[SKB_COUNT_NR] = { "stack_entries", "skbs_freed",
						       "skbs_built" };

/* The functions each count probes (kprobe and fentry backends). For skbs_built every
 * function that exists is probed; __alloc_skb and __build_skb must. "A|B": A where the
 * kernel has it, else B, never both (B calls A: where A exists, B's skbs are A's;
 * where the compiler inlined A into B, as 7.2's __napi_build_skb into napi_build_skb,
 * B is where they are built). */
static const char *const stack_fns[] = { "__netif_receive_skb_core", NULL };
static const char *const freed_fns[] = { "kfree_skbmem", NULL };
static const char *const built_fns[] = { "__alloc_skb", "__build_skb",
					 "__napi_build_skb|napi_build_skb", "slab_build_skb",
					 "build_skb_around", NULL };
static const char *const *const count_fns[SKB_COUNT_NR] = { stack_fns, freed_fns, built_fns };
#define BUILT_REQUIRED 2 /* the first two of built_fns */

const char *counter_backend_name(int backend)
{
	return backend >= 0 && backend < BACKEND_NR ? backend_names[backend] : "unavailable";
}

const char *skb_count_name(enum skb_count k)
{
	return k < SKB_COUNT_NR ? count_names[k] : "?";
}

int parse_counter_backends(const char *s, int order[BACKEND_NR + 1])
{
	int n = name_list_parse(s, backend_names, BACKEND_NR, order, BACKEND_NR);

	if (n < 0)
		return -EINVAL;
	order[n] = BACKEND_NONE;
	return n;
}

uint64_t skb_count_missed(const uint64_t slots[CNT_NR], enum skb_count k, int backend)
{
	static const int kp[SKB_COUNT_NR] = { CNT_KP_STACK_MISSED, CNT_KP_FREED_MISSED,
					      CNT_KP_BUILT_MISSED };
	static const int fe[SKB_COUNT_NR] = { CNT_FE_STACK_MISSED, CNT_FE_FREED_MISSED,
					      CNT_FE_BUILT_MISSED };

	return backend == BACKEND_KPROBE ? slots[kp[k]] : backend == BACKEND_FENTRY ? slots[fe[k]] : 0;
}

uint64_t skb_count_value(const uint64_t slots[CNT_NR], enum skb_count k, int backend)
{
	static const int kp[SKB_COUNT_NR] = { CNT_KP_STACK, CNT_KP_FREED, CNT_KP_BUILT };
	static const int fe[SKB_COUNT_NR] = { CNT_FE_STACK, CNT_FE_FREED, CNT_FE_BUILT };

	switch (backend) {
	case BACKEND_KPROBE:
		return slots[kp[k]] + skb_count_missed(slots, k, backend);
	case BACKEND_FENTRY:
		return slots[fe[k]] + skb_count_missed(slots, k, backend);
	case BACKEND_TRACEPOINT:
		if (k == SKB_STACK_ENTRIES)
			return slots[CNT_TP_STACK_DUT];
		if (k == SKB_FREED)
			return slots[CNT_TP_KFREE_ALL] + slots[CNT_TP_CONSUME_ALL];
		return 0;
	default:
		return 0;
	}
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, fmt, a, b);
}

/* ---- what each backend can do on this kernel ---- */

struct probe_result {
	bool ok;
	char points[384];
	char why[256];
};

static struct bpf_program *kp_prog(struct skb_counters_bpf *s, enum skb_count k)
{
	return k == SKB_STACK_ENTRIES ? s->progs.kp_stack
	       : k == SKB_FREED       ? s->progs.kp_freed
				      : s->progs.kp_built;
}

/* The clones (into @clones) of the first of @spec's '|'-separated alternatives that
 * KALLSYMS names; their number, 0 when none is there, -1 when KALLSYMS cannot be read. */
static int resolve_first(const char *spec, char clones[MAX_CLONES][KSYM_NAME_MAX])
{
	char buf[128];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *save = NULL, *a = strtok_r(buf, "|", &save); a && n == 0;
	     a = strtok_r(NULL, "|", &save))
		n = kallsyms_resolve(KALLSYMS, a, clones, MAX_CLONES);
	return n;
}

/* Attach kprobes for count @k to every clone of its functions. On success the links
 * are kept in @c (when @c is not NULL) or destroyed (a trial). */
static int kprobe_attach_count(struct skb_counters_bpf *s, enum skb_count k,
			       struct skb_counters *c, struct probe_result *r)
{
	struct bpf_link *links[16];
	int nl = 0;

	r->points[0] = '\0';
	for (int f = 0; count_fns[k][f]; f++) {
		char clones[MAX_CLONES][KSYM_NAME_MAX];
		int n = resolve_first(count_fns[k][f], clones);

		if (n <= 0) {
			if (k == SKB_BUILT && f >= BUILT_REQUIRED)
				continue; /* optional: not in this kernel */
			snprintf(r->why, sizeof(r->why), "kprobe: %s is not in " KALLSYMS,
				 count_fns[k][f]);
			goto fail;
		}
		for (int i = 0; i < n && nl < 16; i++) {
			struct bpf_link *l = bpf_program__attach_kprobe(kp_prog(s, k), false, clones[i]);

			if (!l) {
				snprintf(r->why, sizeof(r->why), "kprobe on %s failed: %s", clones[i],
					 strerror(errno));
				goto fail;
			}
			links[nl++] = l;
			append(r->points, sizeof(r->points), "%skprobe:%s", *r->points ? "," : "",
			       clones[i]);
		}
	}
	for (int i = 0; i < nl; i++) {
		if (c && c->nlinks < SKB_COUNTERS_MAX_LINKS)
			c->links[c->nlinks++] = links[i];
		else
			bpf_link__destroy(links[i]);
	}
	r->ok = true;
	return 0;
fail:
	while (nl)
		bpf_link__destroy(links[--nl]);
	r->ok = false;
	return -ENOENT;
}

/* The fentry programs of count @k and the function each targets; one with @unless is
 * tried only when the program @unless targets (a function @fn calls, listed before it)
 * cannot attach: the kernel inlined it into @fn (built_fns' "A|B"). */
struct fe_prog {
	enum skb_count k;
	const char *fn;
	bool required;
	const char *unless;
};

static const struct fe_prog fe_progs[] = {
	{ SKB_STACK_ENTRIES, "__netif_receive_skb_core", true },
	{ SKB_FREED, "kfree_skbmem", true },
	{ SKB_BUILT, "__alloc_skb", true },
	{ SKB_BUILT, "__build_skb", true },
	{ SKB_BUILT, "__napi_build_skb", false },
	{ SKB_BUILT, "napi_build_skb", false, "__napi_build_skb" },
	{ SKB_BUILT, "slab_build_skb", false },
	{ SKB_BUILT, "build_skb_around", false },
};
#define FE_NR (sizeof(fe_progs) / sizeof(fe_progs[0]))

static struct bpf_program *fe_prog_of(struct skb_counters_bpf *s, size_t i)
{
	struct bpf_program *p[FE_NR] = { s->progs.fe_stack,       s->progs.fe_freed,
					 s->progs.fe_built_alloc, s->progs.fe_built_build,
					 s->progs.fe_built_napi,  s->progs.fe_built_napi_outer,
					 s->progs.fe_built_slab,  s->progs.fe_built_around };

	return p[i];
}

static void set_autoload_all(struct skb_counters_bpf *s, bool on)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, s->obj)
		bpf_program__set_autoload(p, on);
}

/* Prove fentry program @i by loading and attaching it alone. */
static bool fentry_trial(size_t i, char *why, size_t whylen)
{
	struct skb_counters_bpf *s = skb_counters_bpf__open();
	struct bpf_link *l;
	int e;

	if (!s) {
		snprintf(why, whylen, "fentry: cannot open the probes: %s", strerror(errno));
		return false;
	}
	set_autoload_all(s, false);
	bpf_program__set_autoload(fe_prog_of(s, i), true);
	bpf_log_clear();
	e = skb_counters_bpf__load(s);
	if (e) {
		const char *kern = bpf_log_last();

		if (!strncmp(kern, "failed to load BPF skeleton", 27)) /* says nothing more */
			kern = "";
		snprintf(why, whylen, "fentry on %s refused at load: %s%s%s", fe_progs[i].fn,
			 strerror(-e), *kern ? " - " : "", kern);
		skb_counters_bpf__destroy(s);
		return false;
	}
	l = bpf_program__attach(fe_prog_of(s, i));
	if (!l) {
		snprintf(why, whylen, "fentry on %s refused at attach: %s", fe_progs[i].fn,
			 strerror(errno));
		skb_counters_bpf__destroy(s);
		return false;
	}
	bpf_link__destroy(l);
	skb_counters_bpf__destroy(s);
	return true;
}

/* Did the program fe_progs[@i] is the fallback of (its "unless") attach? */
static bool fe_unless_ok(size_t i, const bool fe_ok[FE_NR])
{
	for (size_t j = 0; j < i && fe_progs[i].unless; j++)
		if (!strcmp(fe_progs[j].fn, fe_progs[i].unless))
			return fe_ok[j];
	return false;
}

/* Is backend @b named in XDPTC_COUNTERS_DISABLE (a test hook that makes it fail)? */
static bool disabled(int b)
{
	const char *env = getenv("XDPTC_COUNTERS_DISABLE");
	int order[BACKEND_NR + 1];

	if (!env || parse_counter_backends(env, order) < 0)
		return false;
	for (int i = 0; order[i] != BACKEND_NONE; i++)
		if (order[i] == b)
			return true;
	return false;
}

/* Which backends can give each count here. */
static void probe_backends(const int *order, struct probe_result res[BACKEND_NR][SKB_COUNT_NR],
			   bool fe_ok[FE_NR])
{
	bool want[BACKEND_NR] = { false };

	memset(res, 0, sizeof(struct probe_result) * BACKEND_NR * SKB_COUNT_NR);
	for (int i = 0; order[i] != BACKEND_NONE; i++) {
		if (!disabled(order[i])) {
			want[order[i]] = true;
			continue;
		}
		for (int k = 0; k < SKB_COUNT_NR; k++)
			snprintf(res[order[i]][k].why, sizeof(res[0][0].why),
				 "%s: disabled by XDPTC_COUNTERS_DISABLE", backend_names[order[i]]);
	}

	/* kprobe: a trial attach of every clone */
	if (want[BACKEND_KPROBE]) {
		struct skb_counters_bpf *s = NULL;
		bool pmu = access(KPROBE_PMU, F_OK) == 0;

		if (pmu) {
			s = skb_counters_bpf__open();
			if (s) {
				set_autoload_all(s, false);
				bpf_program__set_autoload(s->progs.kp_stack, true);
				bpf_program__set_autoload(s->progs.kp_freed, true);
				bpf_program__set_autoload(s->progs.kp_built, true);
				if (skb_counters_bpf__load(s)) {
					skb_counters_bpf__destroy(s);
					s = NULL;
				}
			}
		}
		for (int k = 0; k < SKB_COUNT_NR; k++) {
			if (!pmu)
				snprintf(res[BACKEND_KPROBE][k].why, sizeof(res[0][0].why),
					 "kprobe: this kernel has no kprobes (" KPROBE_PMU
					 " missing: CONFIG_KPROBES unset?)");
			else if (!s)
				snprintf(res[BACKEND_KPROBE][k].why, sizeof(res[0][0].why),
					 "kprobe: the kprobe programs do not load");
			else
				kprobe_attach_count(s, (enum skb_count)k, NULL, &res[BACKEND_KPROBE][k]);
		}
		if (s)
			skb_counters_bpf__destroy(s);
	}

	/* fentry: a trial load and attach of each program */
	if (want[BACKEND_FENTRY]) {
		for (size_t i = 0; i < FE_NR; i++) {
			struct probe_result *r = &res[BACKEND_FENTRY][fe_progs[i].k];
			char why[256];

			fe_ok[i] = !fe_unless_ok(i, fe_ok) && fentry_trial(i, why, sizeof(why));
			if (fe_ok[i])
				append(r->points, sizeof(r->points), "%sfentry:%s",
				       *r->points ? "," : "", fe_progs[i].fn);
			else if (fe_progs[i].required && !*r->why)
				snprintf(r->why, sizeof(r->why), "%s", why);
		}
		for (int k = 0; k < SKB_COUNT_NR; k++)
			res[BACKEND_FENTRY][k].ok = !*res[BACKEND_FENTRY][k].why;
	}

	/* tracepoints: two of the three counts */
	if (want[BACKEND_TRACEPOINT]) {
		res[BACKEND_TRACEPOINT][SKB_STACK_ENTRIES].ok = true;
		snprintf(res[BACKEND_TRACEPOINT][SKB_STACK_ENTRIES].points, sizeof(res[0][0].points),
			 "tracepoint:net:netif_receive_skb (DUT only)");
		res[BACKEND_TRACEPOINT][SKB_FREED].ok = true;
		snprintf(res[BACKEND_TRACEPOINT][SKB_FREED].points, sizeof(res[0][0].points),
			 "tracepoint:skb:kfree_skb,tracepoint:skb:consume_skb");
		snprintf(res[BACKEND_TRACEPOINT][SKB_BUILT].why, sizeof(res[0][0].why),
			 "tracepoint: no tracepoint marks skb construction (kmem:kmem_cache_alloc "
			 "misses the NAPI skb cache's bulk allocations)");
	}
}

/* Mark the programs backend @b needs for count @k to be loaded. */
static void enable_backend(struct skb_counters_bpf *s, enum skb_count k, int b, const bool *fe_ok)
{
	switch (b) {
	case BACKEND_KPROBE:
		bpf_program__set_autoload(kp_prog(s, k), true);
		break;
	case BACKEND_FENTRY:
		for (size_t i = 0; i < FE_NR; i++)
			if (fe_progs[i].k == k && fe_ok[i])
				bpf_program__set_autoload(fe_prog_of(s, i), true);
		break;
	case BACKEND_TRACEPOINT:
		bpf_program__set_autoload(k == SKB_STACK_ENTRIES ? s->progs.tp_stack : s->progs.tp_kfree,
					  true);
		if (k == SKB_FREED)
			bpf_program__set_autoload(s->progs.tp_consume, true);
		break;
	}
}

static int keep(struct skb_counters *c, struct bpf_link *l, const char *what, char *err,
		size_t errlen)
{
	int e = -errno;

	if (!l) {
		snprintf(err, errlen, "attaching %s failed: %s", what, strerror(-e));
		return e;
	}
	if (c->nlinks == SKB_COUNTERS_MAX_LINKS) {
		bpf_link__destroy(l);
		snprintf(err, errlen, "too many probe links");
		return -E2BIG;
	}
	c->links[c->nlinks++] = l;
	return 0;
}

/* Attach backend @b's programs for count @k. */
static int attach_backend(struct skb_counters *c, struct skb_counters_bpf *s, enum skb_count k,
			  int b, const bool *fe_ok, char *err, size_t errlen)
{
	struct probe_result r;
	int e = 0;

	switch (b) {
	case BACKEND_KPROBE:
		memset(&r, 0, sizeof(r));
		e = kprobe_attach_count(s, k, c, &r);
		if (e)
			snprintf(err, errlen, "%s", r.why);
		return e;
	case BACKEND_FENTRY:
		for (size_t i = 0; i < FE_NR && !e; i++)
			if (fe_progs[i].k == k && fe_ok[i])
				e = keep(c, bpf_program__attach(fe_prog_of(s, i)), fe_progs[i].fn, err,
					 errlen);
		return e;
	case BACKEND_TRACEPOINT:
		if (k == SKB_STACK_ENTRIES)
			return keep(c, bpf_program__attach(s->progs.tp_stack), "net:netif_receive_skb",
				    err, errlen);
		e = keep(c, bpf_program__attach(s->progs.tp_kfree), "skb:kfree_skb", err, errlen);
		if (!e)
			e = keep(c, bpf_program__attach(s->progs.tp_consume), "skb:consume_skb", err,
				 errlen);
		return e;
	}
	return 0;
}

int skb_counters_open(struct skb_counters *c, uint32_t dut_ifindex, uint32_t dut_netns_ino,
		      const int *order, bool cross_check, char *err, size_t errlen)
{
	static const int default_order[] = { BACKEND_KPROBE, BACKEND_FENTRY, BACKEND_TRACEPOINT,
					     BACKEND_NONE };
	struct probe_result res[BACKEND_NR][SKB_COUNT_NR];
	bool fe_ok[FE_NR] = { false };
	struct skb_counters_bpf *s;
	int e, any = 0;

	memset(c, 0, sizeof(*c));
	if (!order)
		order = default_order;
	probe_backends(order, res, fe_ok);

	/* the plan: per count, the first backend in @order that proved itself */
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		c->plan.backend[k] = BACKEND_NONE;
		for (int i = 0; order[i] != BACKEND_NONE; i++) {
			struct probe_result *r = &res[order[i]][k];

			if (r->ok && c->plan.backend[k] == BACKEND_NONE) {
				c->plan.backend[k] = order[i];
				snprintf(c->plan.points[k], sizeof(c->plan.points[k]), "%s", r->points);
				if (!cross_check)
					break;
			} else if (r->ok) {
				c->plan.also[k] |= 1u << order[i];
			} else if (c->plan.backend[k] == BACKEND_NONE) {
				/* only the backends tried before the one chosen */
				append(c->plan.reason[k], sizeof(c->plan.reason[k]), "%s%s",
				       *c->plan.reason[k] ? "; " : "", r->why);
			}
		}
		any |= c->plan.backend[k] != BACKEND_NONE;
	}
	if (!any) /* every count unavailable, each with its reason: nothing to load */
		return 0;

	/* load only the programs of the chosen backends */
	s = skb_counters_bpf__open();
	if (!s) {
		e = -errno;
		snprintf(err, errlen, "opening the skb counters failed: %s", strerror(-e));
		return e;
	}
	c->skel = s;
	s->rodata->dut_ifindex = dut_ifindex;
	s->rodata->dut_netns_ino = dut_netns_ino;
	set_autoload_all(s, false);
	for (int k = 0; k < SKB_COUNT_NR; k++)
		for (int b = 0; b < BACKEND_NR; b++)
			if (c->plan.backend[k] == b || (c->plan.also[k] & (1u << b)))
				enable_backend(s, (enum skb_count)k, b, fe_ok);
	e = skb_counters_bpf__load(s);
	if (e) {
		snprintf(err, errlen, "loading the skb counters failed: %s (%s)", strerror(-e),
			 bpf_log_last());
		skb_counters_close(c);
		return e;
	}
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		for (int b = 0; b < BACKEND_NR && !e; b++)
			if (c->plan.backend[k] == b || (c->plan.also[k] & (1u << b)))
				e = attach_backend(c, s, (enum skb_count)k, b, fe_ok, err, errlen);
		if (e) {
			skb_counters_close(c);
			return e;
		}
	}
	return 0;
}

/* The runs of program @p the kernel skipped (bpf_prog_info.recursion_misses, Linux
 * 5.12+: trace_call_bpf and the trampolines count them); 0 when it is not loaded. */
static uint64_t prog_misses(const struct bpf_program *p)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = p ? bpf_program__fd(p) : -1;

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

/* struct bpf_link_info as Linux 6.7+ lays it out for a kprobe's perf link (uapi
 * linux/bpf.h: perf_event.kprobe.missed, "bpf: Add missed value to kprobe perf link
 * info"); this system's uapi header may be older. Older kernels leave missed 0. */
struct kprobe_link_info {
	__u32 type, id, prog_id, pad0;
	__u32 perf_type, pad1;        /* enum bpf_perf_event_type */
	__u64 func_name;
	__u32 name_len, offset;
	__u64 addr, missed, cookie;
	__u64 rest[8];                /* what later kernels add */
};
#define LINK_TYPE_PERF_EVENT 7  /* BPF_LINK_TYPE_PERF_EVENT */
#define PERF_EVENT_KPROBE 3     /* BPF_PERF_EVENT_KPROBE */

/* The hits of kprobe link @l that ran no handler (kprobe_ftrace_handler and
 * kprobe_int3_handler count a hit while another kprobe's handler runs on that CPU: an
 * interrupt, and the softirq on its exit, inside a probe of the sender's path), and the
 * id of its program into @prog_id; 0 where the kernel does not say (before 6.7). */
static uint64_t kprobe_link_missed(struct bpf_link *l, __u32 *prog_id)
{
	struct kprobe_link_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	*prog_id = 0;
	if (bpf_link_get_info_by_fd(bpf_link__fd(l), (struct bpf_link_info *)&info, &len) ||
	    info.type != LINK_TYPE_PERF_EVENT || info.perf_type != PERF_EVENT_KPROBE)
		return 0;
	*prog_id = info.prog_id;
	return info.missed;
}

/* The id of program @p, or 0 when it is not loaded. */
static __u32 prog_id(const struct bpf_program *p)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = p ? bpf_program__fd(p) : -1;

	memset(&info, 0, sizeof(info));
	return fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* The missed hits of each kprobe and fentry count into @v's *_MISSED slots: a kprobe's
 * (its links' own count) and its program's skipped runs, a trampoline program's. */
static void read_misses(struct skb_counters *c, struct skb_counters_bpf *s, uint64_t v[CNT_NR])
{
	static const int kp[SKB_COUNT_NR] = { CNT_KP_STACK_MISSED, CNT_KP_FREED_MISSED,
					      CNT_KP_BUILT_MISSED };
	static const int fe[SKB_COUNT_NR] = { CNT_FE_STACK_MISSED, CNT_FE_FREED_MISSED,
					      CNT_FE_BUILT_MISSED };
	__u32 ids[SKB_COUNT_NR];

	for (int k = 0; k < SKB_COUNT_NR; k++) {
		v[kp[k]] = prog_misses(kp_prog(s, (enum skb_count)k));
		v[fe[k]] = 0;
		ids[k] = prog_id(kp_prog(s, (enum skb_count)k));
	}
	for (int i = 0; i < c->nlinks; i++) {
		__u32 id;
		uint64_t m = kprobe_link_missed(c->links[i], &id);

		for (int k = 0; k < SKB_COUNT_NR && id; k++)
			if (id == ids[k])
				v[kp[k]] += m;
	}
	for (size_t i = 0; i < FE_NR; i++)
		v[fe[fe_progs[i].k]] += prog_misses(fe_prog_of(s, i));
}

int skb_counters_read(struct skb_counters *c, struct skb_counts *out)
{
	struct skb_counters_bpf *skel = c->skel;
	int e;

	memset(out, 0, sizeof(*out));
	if (!skel) /* no count has a backend: the plan says each is unavailable */
		return 0;
	e = percpu_array_sum(bpf_map__fd(skel->maps.counts), CNT_NR, out->v);
	if (!e)
		read_misses(c, skel, out->v);
	return e;
}

void skb_counters_close(struct skb_counters *c)
{
	while (c->nlinks > 0)
		bpf_link__destroy(c->links[--c->nlinks]);
	if (c->skel)
		skb_counters_bpf__destroy(c->skel);
	c->skel = NULL;
}
