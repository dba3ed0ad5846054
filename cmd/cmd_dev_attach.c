/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_dev_attach.c: what `xdptc attach`, `detach` and `status` do on a device's hooks
 * (cmd_dev_attach.h), over the attachment records of loader/attach_record.h. */
#include "cmd_dev_attach.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attach_record.h"
#include "doctor.h"

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

int attach_persist(struct drop_attachment *a, char *err, size_t errlen)
{
	int hook = rx_hook_of_mode(a->mode), e;
	char pin[256];

	if (a->mode == MODE_NONE) {
		drop_close(a);
		return 0;
	}
	if (a->link_fd >= 0) {
		attach_pin_path(a, hook, pin, sizeof(pin));
		if ((e = ensure_bpffs(err, errlen)))
			goto undo;
		unlink(pin); /* a pin of ours whose link is gone (attach refused a live one) */
		if (bpf_obj_pin(a->link_fd, pin)) {
			e = -errno;
			snprintf(err, errlen, "pinning the link at %s failed: %s", pin, strerror(-e));
			goto undo;
		}
	}
	e = attach_record_save(a, hook, a->link_fd >= 0 ? pin : NULL, err, errlen);
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
	int e;

	memset(st, 0, sizeof(*st));
	for (int h = 0; h < ATTACH_HOOKS; h++)
		st->own[h] = -1;
	e = rx_path_read(ifname, &st->path, err, errlen);
	if (e)
		return e;
	for (int h = 0; h < ATTACH_HOOKS; h++) {
		json_t *r = attach_record_get(st->path.ifindex, h, &st->stale);

		if (!r)
			continue;
		for (int i = 0; i < st->path.n; i++)
			if ((int)st->path.occ[i].hook == h &&
			    st->path.occ[i].prog_id == attach_record_prog_id(r)) {
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
	for (int h = 0; h < ATTACH_HOOKS; h++) {
		const struct rx_occupant *o;
		uint64_t v[VERDICT_NR];
		json_t *x;

		if (st->own[h] < 0) {
			json_object_set_new(j, attach_hook_name(h), json_null());
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
		json_object_set_new(j, attach_hook_name(h), x);
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
	json_t *r = attach_record_get(st->path.ifindex, h, NULL);
	int e = 0;

	if (!r)
		return -ENOENT;
	if (h == RX_HOOK_TC) {
		struct drop_attachment a;

		attach_record_tc(r, ifname, &a);
		a.ifindex = st->path.ifindex;
		e = drop_detach(&a);
	} else {
		int fd = bpf_obj_get(json_string_value(json_object_get(r, "pin")));

		e = fd < 0 ? -errno : bpf_link_detach(fd);
		if (fd >= 0)
			close(fd);
	}
	if (!e)
		attach_record_forget(st->path.ifindex, h, r);
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
	for (int h = 0; h < ATTACH_HOOKS; h++) {
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
