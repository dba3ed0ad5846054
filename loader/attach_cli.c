/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "attach_cli.h"
#include "doctor.h"

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

static const char *const hook_names[3] = { "xdp", "tcx", "tc" };

static void append(char *buf, size_t len, const char *fmt, const char *what);

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

/* bpffs at /sys/fs/bpf (a fresh boot may have none: mounted, and said) and our dir. */
static int ensure_bpffs(char *err, size_t errlen)
{
	char type[32];

	if (!access(XDPTC_BPFFS, F_OK))
		return 0;
	if (access("/sys/fs/bpf", F_OK)) {
		snprintf(err, errlen, "no /sys/fs/bpf to mount bpffs on (the link must be pinned "
				      "to outlive this command)");
		return -ENOENT;
	}
	if (!mounted_type("/sys/fs/bpf", type, sizeof(type)) || strcmp(type, "bpf")) {
		if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL)) {
			snprintf(err, errlen, "cannot mount bpffs on /sys/fs/bpf (the link must be "
					      "pinned to outlive this command): %s", strerror(errno));
			return -errno;
		}
		fprintf(stderr, "xdptc: mounted bpffs on /sys/fs/bpf (it was not mounted) to pin "
				"the link\n");
	}
	if (mkdir(XDPTC_BPFFS, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", XDPTC_BPFFS, strerror(errno));
		return -errno;
	}
	return 0;
}

static int rec_save(const struct drop_attachment *a, int hook, const char *pin, char *err,
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

int attach_persist(struct drop_attachment *a, char *err, size_t errlen)
{
	int hook = rx_hook_of_mode(a->mode), e;
	char pin[256];

	if (a->mode == MODE_NONE) {
		drop_close(a);
		return 0;
	}
	if (a->link_fd >= 0) {
		pin_path(pin, sizeof(pin), a->netns_cookie, a->ifindex, hook);
		if ((e = ensure_bpffs(err, errlen)))
			goto undo;
		unlink(pin); /* a pin of ours whose link is gone (attach refused a live one) */
		if (bpf_obj_pin(a->link_fd, pin)) {
			e = -errno;
			snprintf(err, errlen, "pinning the link at %s failed: %s", pin, strerror(-e));
			goto undo;
		}
	}
	e = rec_save(a, hook, a->link_fd >= 0 ? pin : NULL, err, errlen);
	if (e) {
		if (a->link_fd >= 0)
			unlink(pin);
		goto undo;
	}
	drop_close(a);
	return 0;
undo:
	drop_detach(a);
	return e;
}

int attach_status_read(const char *ifname, struct attach_status *st, char *err, size_t errlen)
{
	uint64_t cookie = netns_current_cookie();
	int e;

	memset(st, 0, sizeof(*st));
	for (int h = 0; h < 3; h++)
		st->own[h] = -1;
	e = rx_path_read(ifname, &st->path, err, errlen);
	if (e)
		return e;
	for (int h = 0; h < 3; h++) {
		char path[256];
		json_t *r;

		rec_path(path, sizeof(path), cookie, st->path.ifindex, h);
		r = json_load_file(path, 0, NULL);
		if (!r)
			continue;
		if (!rec_holds(r, st->path.ifindex)) {
			rec_forget(path, r); /* its attachment is gone: it proves nothing */
			st->stale++;
			json_decref(r);
			continue;
		}
		for (int i = 0; i < st->path.n; i++)
			if ((int)st->path.occ[i].hook == h &&
			    st->path.occ[i].prog_id == u32_of(r, "prog_id")) {
				st->ours[i] = true;
				st->own[h] = i;
			}
		if (h == RX_HOOK_TC && st->own[h] >= 0)
			st->clsact_created = json_is_true(json_object_get(r, "clsact_created"));
		json_decref(r);
	}
	return 0;
}

json_t *attach_status_json(const char *ifname, const struct attach_status *st)
{
	json_t *j = json_object(), *path = json_array();

	json_object_set_new(j, "dev", json_string(ifname));
	json_object_set_new(j, "ifindex", json_integer(st->path.ifindex));
	for (int h = 0; h < 3; h++) {
		const struct rx_occupant *o;
		uint64_t v[VERDICT_NR];
		json_t *x;

		if (st->own[h] < 0) {
			json_object_set_new(j, hook_names[h], json_null());
			continue;
		}
		o = &st->path.occ[st->own[h]];
		x = json_object();
		json_object_set_new(x, "mode", json_string(o->mode));
		json_object_set_new(x, "prog_id", json_integer(o->prog_id));
		json_object_set_new(x, "prog_name", json_string(o->prog_name));
		if (!verdicts_read_prog(o->prog_id, v)) {
			json_object_set_new(x, "dropped", json_integer((json_int_t)v[VERDICT_DROPPED]));
			json_object_set_new(x, "passed", json_integer((json_int_t)v[VERDICT_PASSED]));
		}
		json_object_set_new(j, hook_names[h], x);
	}
	json_object_set_new(j, "clsact_created_by_xdptc", json_boolean(st->clsact_created));
	for (int i = 0; i < st->path.n; i++)
		json_array_append_new(path, rx_occupant_json(&st->path.occ[i], st->ours[i]));
	json_object_set_new(j, "receive_path", path);
	return j;
}

static void append(char *buf, size_t len, const char *fmt, const char *what)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, fmt, n ? "; " : "", what);
}

/* Detach xdptc's occupant of hook @h (proven by its record) from @ifname. */
static int detach_own(const char *ifname, const struct attach_status *st, int h)
{
	uint64_t cookie = netns_current_cookie();
	char path[256];
	json_t *r;
	int e = 0;

	rec_path(path, sizeof(path), cookie, st->path.ifindex, h);
	r = json_load_file(path, 0, NULL);
	if (!r || !rec_holds(r, st->path.ifindex)) {
		json_decref(r);
		return -ENOENT;
	}
	if (h == RX_HOOK_TC) {
		struct drop_attachment a;

		memset(&a, 0, sizeof(a));
		a.mode = MODE_TC;
		a.ifindex = st->path.ifindex;
		a.prog_fd = a.verdicts_fd = a.link_fd = -1;
		a.prog_id = u32_of(r, "prog_id");
		a.tc_handle = u32_of(r, "tc_handle");
		a.tc_prio = u32_of(r, "tc_prio");
		a.created_clsact = json_is_true(json_object_get(r, "clsact_created"));
		snprintf(a.dev, sizeof(a.dev), "%s", ifname);
		e = drop_detach(&a);
	} else {
		int fd = bpf_obj_get(json_string_value(json_object_get(r, "pin")));

		e = fd < 0 ? -errno : bpf_link_detach(fd);
		if (fd >= 0)
			close(fd);
	}
	if (!e)
		rec_forget(path, r);
	json_decref(r);
	return e;
}

int attach_detach_dev(const char *ifname, enum drop_mode mode, char *done, size_t donelen,
		      char *err, size_t errlen)
{
	struct attach_status st;
	int e = attach_status_read(ifname, &st, err, errlen), foreign_only = 0;

	done[0] = '\0';
	if (e)
		return e;
	err[0] = '\0';
	for (int h = 0; h < 3; h++) {
		bool asked = mode == MODE_NR || (mode != MODE_NONE && (int)rx_hook_of_mode(mode) == h);
		int foreign = 0;
		char d[200];

		if (!asked)
			continue;
		for (int i = 0; i < st.path.n; i++) {
			if ((int)st.path.occ[i].hook != h || st.ours[i])
				continue;
			foreign++;
			rx_occupant_describe(&st.path.occ[i], d, sizeof(d));
			append(err, errlen, "%s%s is not xdptc's (no record of xdptc attaching it): "
					    "left alone", d);
		}
		if (st.own[h] < 0) {
			foreign_only += foreign > 0;
			continue;
		}
		if (h == RX_HOOK_XDP && mode != MODE_NR &&
		    strcmp(st.path.occ[st.own[h]].mode, drop_mode_name(mode))) {
			snprintf(d, sizeof(d), "xdptc's XDP program is attached as %s, not %s: left "
					       "attached (detach --mode %s)",
				 st.path.occ[st.own[h]].mode, drop_mode_name(mode),
				 st.path.occ[st.own[h]].mode);
			append(err, errlen, "%s%s", d);
			foreign_only++;
			continue;
		}
		e = detach_own(ifname, &st, h);
		rx_occupant_describe(&st.path.occ[st.own[h]], d, sizeof(d));
		if (e) {
			snprintf(err, errlen, "detaching %s from '%s' failed: %s", d, ifname,
				 strerror(-e));
			return e;
		}
		append(done, donelen, "%s%s", d);
	}
	return foreign_only && !done[0] ? -EBUSY : 0;
}

int attach_check_path(const char *ifname, const char *netns, enum drop_mode mode, char *err,
		      size_t errlen, char *note, size_t notelen)
{
	struct attach_status st;
	int e = attach_status_read(ifname, &st, err, errlen);

	if (e)
		return e;
	note[0] = '\0';
	for (int i = 0; i < st.path.n; i++) {
		char d[160];

		/* after this program: it will no longer see what this one drops */
		if (!rx_runs_before(&st.path.occ[i], mode, XDPTC_TC_PRIO))
			append(note, notelen, "%s%s", rx_occupant_describe(&st.path.occ[i], d,
									  sizeof(d)));
	}
	return rx_path_refusal(&st.path, ifname, mode, drop_mode_name(mode), XDPTC_TC_PRIO,
			       st.ours, netns, err, errlen) ? -EBUSY : 0;
}

int attach_record_held(const struct drop_attachment *a, char *err, size_t errlen)
{
	char path[256];
	json_t *r;
	int e;

	if (a->mode != MODE_TC) /* XDP and tcx are links: they go with this process */
		return 0;
	e = rec_save(a, RX_HOOK_TC, NULL, err, errlen);
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
	memset(&a, 0, sizeof(a));
	a.mode = MODE_TC;
	a.ifindex = (int)json_integer_value(json_object_get(r, "ifindex"));
	a.prog_fd = a.verdicts_fd = a.link_fd = -1;
	a.prog_id = u32_of(r, "prog_id");
	a.tc_handle = u32_of(r, "tc_handle");
	a.tc_prio = u32_of(r, "tc_prio");
	a.created_clsact = json_is_true(json_object_get(r, "clsact_created"));
	snprintf(a.dev, sizeof(a.dev), "%s", json_string_value(json_object_get(r, "dev")) ?: "");
	held = rec_holds(r, a.ifindex);
	e = held ? drop_detach(&a) : 0;
	if (!e && held)
		fprintf(stderr, "xdptc: detached the tc filter (program %u) a killed run left on "
				"%s\n", a.prog_id, a.dev);
	netns_return(saved);
	return e == 0;
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
	/* what xdptc versions before records left: clsact markers (files that touch no
	 * qdisc) and tcx pins whose link is detached */
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
	rmdir(XDPTC_BPFFS); /* only when empty */
	return removed;
}
