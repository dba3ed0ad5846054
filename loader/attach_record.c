/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* attach_record.c: the records and pins of attachments that outlive their process
 * (attach_record.h). */
#include "attach_record.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netns.h"

#define RECORD_DIR XDPTC_STATE_DIR "/attach"

static const char *const hook_names[ATTACH_HOOKS] = { "xdp", "tcx", "tc" };

const char *attach_hook_name(int hook)
{
	return hook >= 0 && hook < ATTACH_HOOKS ? hook_names[hook] : "?";
}

static void rec_path(char *buf, size_t len, uint64_t cookie, int ifindex, int hook)
{
	snprintf(buf, len, RECORD_DIR "/%016llx-%d-%s.json", (unsigned long long)cookie, ifindex,
		 hook_names[hook]);
}

static void pin_path(char *buf, size_t len, uint64_t cookie, int ifindex, int hook)
{
	snprintf(buf, len, XDPTC_BPFFS "/link-%016llx-%d-%s", (unsigned long long)cookie, ifindex,
		 hook_names[hook]);
}

void attach_pin_path(const struct drop_attachment *a, int hook, char *buf, size_t len)
{
	pin_path(buf, len, a->netns_cookie, a->ifindex, hook);
}

int attach_record_save(const struct drop_attachment *a, int hook, const char *pin, char *err,
		       size_t errlen)
{
	char path[256], cookie[24];
	json_t *r = json_object();
	int e = 0;

	mkdir(XDPTC_STATE_DIR, 0755);
	mkdir(RECORD_DIR, 0755);
	snprintf(cookie, sizeof(cookie), "%016llx", (unsigned long long)a->netns_cookie);
	json_object_set_new(r, "dev", json_string(a->dev));
	json_object_set_new(r, "ifindex", json_integer(a->ifindex));
	json_object_set_new(r, "netns_cookie", json_string(cookie));
	json_object_set_new(r, "hook", json_string(hook_names[hook]));
	json_object_set_new(r, "mode", json_string(drop_mode_name(a->mode)));
	json_object_set_new(r, "prog_id", json_integer(a->prog_id));
	json_object_set_new(r, "prog_tag", json_string(a->prog_tag));
	if (pin) {
		json_object_set_new(r, "link_id", json_integer(a->link_id));
		json_object_set_new(r, "pin", json_string(pin));
	} else {
		json_object_set_new(r, "tc_handle", json_integer(a->tc_handle));
		json_object_set_new(r, "tc_prio", json_integer(a->tc_prio));
		json_object_set_new(r, "clsact_created", json_boolean(a->created_clsact));
	}
	rec_path(path, sizeof(path), a->netns_cookie, a->ifindex, hook);
	if (json_dump_file(r, path, JSON_INDENT(2))) {
		e = -errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot write the attachment record %s: %s", path, strerror(-e));
	}
	json_decref(r);
	return e;
}

/* The start time of process @pid (/proc/PID/stat's field 22, clock ticks since boot), or
 * 0 when there is no such process or it is a zombie: with the pid, who the process is (a
 * pid is reused). */
static unsigned long long proc_start(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'))) {
		char state = 0;

		/* after "pid (comm)": state is field 3, starttime field 22; a zombie holds
		 * nothing any more (it waits only for its parent to reap it) */
		if (sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			   "%*d %*d %*d %*d %llu", &state, &t) != 2 || state == 'Z')
			t = 0;
	}
	fclose(f);
	return t;
}

static uint32_t u32_of(const json_t *r, const char *key)
{
	return (uint32_t)json_integer_value(json_object_get(r, key));
}

/* Is the attachment @r records still there, on device @ifindex? (a link: pinned,
 * attached to that device, the same link and program; a filter: the recorded program
 * at its place) */
static bool rec_holds(const json_t *r, int ifindex)
{
	const char *pin = json_string_value(json_object_get(r, "pin"));

	if (pin) {
		struct bpf_link_info info;
		__u32 len = sizeof(info);
		int fd = bpf_obj_get(pin);
		bool ok;

		if (fd < 0)
			return false;
		memset(&info, 0, sizeof(info));
		ok = !bpf_link_get_info_by_fd(fd, &info, &len) && info.id == u32_of(r, "link_id") &&
		     info.prog_id == u32_of(r, "prog_id") &&
		     (info.type == BPF_LINK_TYPE_XDP ? (int)info.xdp.ifindex
						     : (int)info.tcx.ifindex) == ifindex &&
		     ifindex > 0;
		close(fd);
		return ok;
	} else {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, q, .handle = u32_of(r, "tc_handle"),
			    .priority = u32_of(r, "tc_prio"));

		return !bpf_tc_query(&hook, &q) && q.prog_id == u32_of(r, "prog_id");
	}
}

/* Remove record @path and the pin it names (ours by path: nobody else pins there). */
static void rec_forget(const char *path, const json_t *r)
{
	const char *pin = json_string_value(json_object_get(r, "pin"));

	if (pin && !strncmp(pin, XDPTC_BPFFS "/", strlen(XDPTC_BPFFS) + 1))
		unlink(pin);
	unlink(path);
	rmdir(RECORD_DIR); /* only when empty */
	rmdir(XDPTC_BPFFS);
}

json_t *attach_record_get(int ifindex, int hook, int *stale)
{
	char path[256];
	json_t *r;

	rec_path(path, sizeof(path), netns_current_cookie(), ifindex, hook);
	r = json_load_file(path, 0, NULL);
	if (r && !rec_holds(r, ifindex)) {
		rec_forget(path, r); /* its attachment is gone: it proves nothing */
		if (stale)
			(*stale)++;
		json_decref(r);
		r = NULL;
	}
	return r;
}

void attach_record_forget(int ifindex, int hook, const json_t *r)
{
	char path[256];

	rec_path(path, sizeof(path), netns_current_cookie(), ifindex, hook);
	rec_forget(path, r);
}

uint32_t attach_record_prog_id(const json_t *r)
{
	return u32_of(r, "prog_id");
}

void attach_record_tc(const json_t *r, const char *dev, struct drop_attachment *a)
{
	memset(a, 0, sizeof(*a));
	a->mode = MODE_TC;
	a->ifindex = (int)json_integer_value(json_object_get(r, "ifindex"));
	a->prog_fd = a->verdicts_fd = a->link_fd = -1;
	a->prog_id = u32_of(r, "prog_id");
	a->tc_handle = u32_of(r, "tc_handle");
	a->tc_prio = u32_of(r, "tc_prio");
	a->created_clsact = json_is_true(json_object_get(r, "clsact_created"));
	snprintf(a->dev, sizeof(a->dev), "%s", dev);
}

int attach_record_held(const struct drop_attachment *a, char *err, size_t errlen)
{
	char path[256];
	json_t *r;
	int e;

	if (a->mode != MODE_TC) /* XDP and tcx are links: they go with this process */
		return 0;
	e = attach_record_save(a, RX_HOOK_TC, NULL, err, errlen);
	if (e)
		return e;
	rec_path(path, sizeof(path), a->netns_cookie, a->ifindex, RX_HOOK_TC);
	r = json_load_file(path, 0, NULL);
	if (!r)
		return -EIO;
	json_object_set_new(r, "owner_pid", json_integer(getpid()));
	json_object_set_new(r, "owner_start", json_integer((json_int_t)proc_start(getpid())));
	if (json_dump_file(r, path, JSON_INDENT(2))) {
		snprintf(err, errlen, "cannot write the attachment record %s", path);
		e = -EIO;
	}
	json_decref(r);
	return e;
}

void attach_record_release(const struct drop_attachment *a)
{
	char path[256];

	if (a->mode != MODE_TC)
		return;
	rec_path(path, sizeof(path), a->netns_cookie, a->ifindex, RX_HOOK_TC);
	unlink(path);
	rmdir(RECORD_DIR); /* only when empty */
}

/* Enter the network namespace whose cookie is @cookie: this one, or one named under
 * /run/netns. Returns 0 (*@saved as netns_enter gives it), or -ENOENT when none is. */
static int netns_enter_cookie(uint64_t cookie, int *saved)
{
	DIR *d;
	struct dirent *de;

	*saved = -1;
	if (netns_current_cookie() == cookie)
		return 0;
	d = opendir("/run/netns");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || netns_enter(de->d_name, saved))
			continue;
		if (netns_current_cookie() == cookie) {
			closedir(d);
			return 0;
		}
		netns_return(*saved);
		*saved = -1;
	}
	if (d)
		closedir(d);
	return -ENOENT;
}

/* A filter a run held while it measured (attach_record_held), its run gone: detached
 * where it is still the recorded program at its place, in its namespace. Returns true
 * when the record is done with (detached, or its filter or namespace gone). */
static bool held_orphan_detach(const json_t *r)
{
	uint64_t cookie = strtoull(json_string_value(json_object_get(r, "netns_cookie")) ?: "0",
				   NULL, 16);
	struct drop_attachment a;
	int saved, e;
	bool held;

	if (netns_enter_cookie(cookie, &saved))
		return true; /* its namespace is gone, and the filter with it */
	attach_record_tc(r, json_string_value(json_object_get(r, "dev")) ?: "", &a);
	held = rec_holds(r, a.ifindex);
	e = held ? drop_detach(&a) : 0;
	if (!e && held)
		fprintf(stderr, "xdptc: detached the tc filter (program %u) a killed run left on "
				"%s\n", a.prog_id, a.dev);
	netns_return(saved);
	return e == 0;
}

/* What xdptc versions before records left: clsact markers (files that touch no qdisc)
 * and tcx pins whose link is detached. Returns how many were removed. */
static int prune_before_records(void)
{
	DIR *d;
	struct dirent *de;
	int removed = 0;

	d = opendir(XDPTC_STATE_DIR);
	while (d && (de = readdir(d))) {
		char path[300];

		if (strncmp(de->d_name, "clsact-", 7))
			continue;
		snprintf(path, sizeof(path), XDPTC_STATE_DIR "/%s", de->d_name);
		removed += unlink(path) == 0;
	}
	if (d)
		closedir(d);
	d = opendir(XDPTC_BPFFS);
	while (d && (de = readdir(d))) {
		struct bpf_link_info info;
		__u32 len = sizeof(info);
		char path[300];
		int fd;

		if (strncmp(de->d_name, "tcx-", 4))
			continue;
		snprintf(path, sizeof(path), XDPTC_BPFFS "/%s", de->d_name);
		fd = bpf_obj_get(path);
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && !bpf_link_get_info_by_fd(fd, &info, &len) && !info.tcx.ifindex)
			removed += unlink(path) == 0;
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
	return removed;
}

int attach_records_prune(void)
{
	DIR *d = opendir(RECORD_DIR);
	struct dirent *de;
	int removed = 0;

	while (d && (de = readdir(d))) {
		char path[300];
		json_t *r;
		bool gone;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), RECORD_DIR "/%s", de->d_name);
		r = json_load_file(path, 0, NULL);
		if (!r) {
			removed += unlink(path) == 0; /* unreadable: proves nothing */
			continue;
		}
		if (json_object_get(r, "owner_pid")) {
			/* held by a run while it measured: left while that run lives */
			int pid = (int)json_integer_value(json_object_get(r, "owner_pid"));
			unsigned long long st = proc_start(pid);

			gone = !(st && st == (unsigned long long)json_integer_value(
							json_object_get(r, "owner_start"))) &&
			       held_orphan_detach(r);
		} else if (json_object_get(r, "pin")) {
			/* a link whose device or namespace is gone is detached (ifindex 0) */
			gone = !rec_holds(r, (int)json_integer_value(json_object_get(r, "ifindex")));
		} else {
			int fd = bpf_prog_get_fd_by_id(u32_of(r, "prog_id"));

			gone = fd < 0; /* the filter's program is gone with the filter */
			if (fd >= 0)
				close(fd);
		}
		if (gone) {
			rec_forget(path, r);
			removed++;
		}
		json_decref(r);
	}
	if (d)
		closedir(d);
	rmdir(RECORD_DIR); /* only when empty */
	removed += prune_before_records();
	rmdir(XDPTC_BPFFS); /* only when empty */
	return removed;
}
