/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* flame_unnamed.c: the frames perf could not name, counted and explained (flame_unnamed.h). */
#include "flame_unnamed.h"
#include "flamegraph.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the frames of one stack, at most (deeper ones count as the last) */
#define MAX_FRAMES 512
/* distinct (kind, frame, process) remembered to name each kind's largest */
#define MAX_SEEN 256

bool flame_frame_unnamed(const char *name)
{
	size_t n = strlen(name), hex = 0;

	if (n >= 2 && name[0] == '[' && name[n - 1] == ']')
		return true; /* "[unknown]", "[DSO]" */
	if (n > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X'))
		name += 2, n -= 2;
	while (hex < n && isxdigit((unsigned char)name[hex]))
		hex++;
	return n >= 6 && hex == n; /* a bare address */
}

/* Does the kernel's part of a stack start at frame @name? */
static bool kernel_entry(const char *name)
{
	static const char *const entries[] = {
		"entry_SYSCALL", "entry_SYSENTER", "entry_INT80", "asm_", "ret_from_fork",
		"secondary_startup", "start_kernel", "x86_64_start", "common_startup_64",
		"rest_init", "cpu_startup_entry", "el0t_", "el1h_", "el0_", NULL,
	};

	for (int i = 0; entries[i]; i++)
		if (!strncmp(name, entries[i], strlen(entries[i])))
			return true;
	return false;
}

/* Does @name run BPF programs (so that an unnamed frame it calls is one)? */
static bool runs_bpf(const char *name)
{
	return strstr(name, "bpf") || strstr(name, "xdp") || strstr(name, "tcf_classify") ||
	       strstr(name, "tcx_run");
}

static enum flame_unnamed_kind kind_of(char *const *f, int i, int kernel_from)
{
	if (i < kernel_from)
		return UNNAMED_USER;
	if (!strcmp(f[i], "[kernel.kallsyms]"))
		return UNNAMED_KERNEL;
	if (!strcmp(f[i], "[unknown]"))
		return i > 0 && !flame_frame_unnamed(f[i - 1]) && runs_bpf(f[i - 1]) ? UNNAMED_BPF
										 : UNNAMED_KOTHER;
	return f[i][0] == '[' ? UNNAMED_MODULE : UNNAMED_KOTHER;
}

struct seen {
	int kind;
	char frame[64], comm[32], caller[64];
	double samples;
};

static void remember(struct seen *s, int *ns, int kind, const char *frame, const char *comm,
		     const char *caller, double c)
{
	int i;

	for (i = 0; i < *ns; i++)
		if (s[i].kind == kind && !strcmp(s[i].frame, frame) && !strcmp(s[i].comm, comm) &&
		    !strcmp(s[i].caller, caller))
			break;
	if (i == *ns) {
		if (*ns == MAX_SEEN)
			return; /* the largest are among the first seen often enough */
		s[i].kind = kind;
		snprintf(s[i].frame, sizeof(s[i].frame), "%s", frame);
		snprintf(s[i].comm, sizeof(s[i].comm), "%s", comm);
		snprintf(s[i].caller, sizeof(s[i].caller), "%s", caller);
		s[i].samples = 0;
		(*ns)++;
	}
	s[i].samples += c;
}

int flame_unnamed_count(FILE *in, const char *skip_comm, struct flame_unnamed *u)
{
	struct seen *seen = calloc(MAX_SEEN, sizeof(*seen));
	char line[16384], *f[MAX_FRAMES];
	int nseen = 0;

	if (!seen)
		return -ENOMEM;
	memset(u, 0, sizeof(*u));
	while (fgets(line, sizeof(line), in)) {
		char *save = NULL, *comm;
		bool in_kind[UNNAMED_NR] = { false }, any = false, kernel = false;
		int n = 0, kernel_from;
		double c;

		if (!flame_folded_split(line, skip_comm, &c))
			continue;
		comm = strtok_r(line, ";", &save);
		if (!comm)
			continue;
		for (char *t = strtok_r(NULL, ";", &save); t; t = strtok_r(NULL, ";", &save))
			if (n < MAX_FRAMES)
				f[n++] = t;
		u->samples += c;
		kernel_from = n;
		for (int i = 0; i < n; i++)
			if (kernel_entry(f[i])) {
				kernel_from = i;
				break;
			}
		for (int i = 0; i < n; i++) {
			enum flame_unnamed_kind k;

			if (!flame_frame_unnamed(f[i]))
				continue;
			k = kind_of(f, i, kernel_from);
			if (!in_kind[k])
				u->kind_path[k] += c;
			in_kind[k] = any = true;
			kernel |= k != UNNAMED_USER;
			if (i == n - 1) {
				u->self += c;
				u->kind_self[k] += c;
			}
			remember(seen, &nseen, k, f[i], comm, i ? f[i - 1] : comm, c);
		}
		if (any)
			u->path += c;
		if (kernel)
			u->kernel_path += c;
	}
	for (int k = 0; k < UNNAMED_NR; k++) {
		double best = 0;

		for (int i = 0; i < nseen; i++)
			if (seen[i].kind == k && seen[i].samples > best) {
				best = seen[i].samples;
				snprintf(u->frame[k], sizeof(u->frame[k]), "%s", seen[i].frame);
				snprintf(u->comm[k], sizeof(u->comm[k]), "%s", seen[i].comm);
				snprintf(u->caller[k], sizeof(u->caller[k]), "%s", seen[i].caller);
			}
	}
	free(seen);
	return 0;
}

const char *flame_unnamed_kind_name(enum flame_unnamed_kind k)
{
	static const char *const names[UNNAMED_NR] = { "bpf", "kernel", "module", "kernel-other",
						       "user" };

	return (unsigned int)k < UNNAMED_NR ? names[k] : "?";
}

void flame_unnamed_reason(const struct flame_unnamed *u, enum flame_unnamed_kind k,
			  const char *kernel_symbols, char *buf, size_t len)
{
	const char *f = u->frame[k];
	int n = (int)strlen(f);

	if (n >= 2 && f[0] == '[' && f[n - 1] == ']') /* "[veth]": veth */
		f++, n -= 2;
	switch (k) {
	case UNNAMED_BPF:
		snprintf(buf, len, "JIT-ed BPF code that perf had no symbol for (called by %s, "
			 "which runs BPF programs)", u->caller[k]);
		break;
	case UNNAMED_KERNEL:
		if (kernel_symbols)
			snprintf(buf, len, "kernel code whose symbols are hidden (%s)", kernel_symbols);
		else
			snprintf(buf, len, "kernel addresses perf found in no symbol of /proc/kallsyms");
		break;
	case UNNAMED_MODULE:
		snprintf(buf, len, "code of the kernel module %.*s, of which perf read no symbols",
			 n, f);
		break;
	case UNNAMED_KOTHER:
		snprintf(buf, len, "kernel addresses in no mapping perf knew (%s; often JIT-ed "
			 "code: BPF programs, trampolines)", u->frame[k]);
		break;
	default:
		if (!strcmp(u->frame[k], "[unknown]"))
			snprintf(buf, len, "user space of %s: return addresses that perf's "
				 "frame-pointer walk found in no file (code built without frame "
				 "pointers), or code in no file", u->comm[k]);
		else
			snprintf(buf, len, "user space of %s: %.*s, a file perf found no symbols in "
				 "(stripped, or an address outside its symbols)", u->comm[k], n, f);
	}
}

const char *flame_unnamed_fix(enum flame_unnamed_kind k, const char *kernel_symbols)
{
	switch (k) {
	case UNNAMED_BPF:
	case UNNAMED_KOTHER:
		return "let perf name JIT-ed code: net.core.bpf_jit_kallsyms=1 lists BPF "
		       "programs in /proc/kallsyms, and a perf built with libbpf (`perf version "
		       "--build-options`) names them from the kernel's BPF symbols";
	case UNNAMED_KERNEL:
		return kernel_symbols
			? "show root the kernel's addresses for the run (sysctl "
			  "kernel.kptr_restrict=1, or 0)"
			: "check that perf can read /proc/kallsyms with addresses as root "
			  "(`xdptc doctor`: kernel_symbols)";
	case UNNAMED_MODULE:
		return "give perf the module's symbols: a module built without them needs the "
		       "kernel's debug package, and /proc/kallsyms must list its functions";
	default:
		return "install the debug symbols of that binary or library (Debian's -dbgsym "
		       "packages) or profile with `--call-graph dwarf`, which unwinds code built "
		       "without frame pointers; a process that is not part of the measured path "
		       "should not run beside it";
	}
}

int flame_unnamed_main(const struct flame_unnamed *u)
{
	int best = -1;

	for (int k = 0; k < UNNAMED_NR; k++)
		if (u->kind_path[k] > 0 &&
		    (best < 0 || u->kind_self[k] > u->kind_self[best] ||
		     (u->kind_self[k] == u->kind_self[best] && u->kind_path[k] > u->kind_path[best])))
			best = k;
	return best;
}
