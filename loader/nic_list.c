/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* nic_list.c: per NIC, its driver and whether it runs XDP natively (nic_list.h). */
#include "nic_list.h"

#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "dev_report.h"
#include "drop_prog.h"
#include "netns.h"

/* One NIC's object: its name, driver and xdp-features (dev_report_xdp). */
static json_t *nic_of(const char *dev)
{
	json_t *n = json_pack("{s:s}", "dev", dev);

	dev_report_xdp(n, dev);
	return n;
}

json_t *nic_list(const char *named)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	json_t *a = json_array();
	bool named_seen = false;

	for (i = ifs; i && i->if_index; i++) {
		char path[64 + IF_NAMESIZE];

		snprintf(path, sizeof(path), "/sys/class/net/%s/device", i->if_name);
		if (named && !strcmp(named, i->if_name))
			named_seen = true;
		else if (access(path, F_OK))
			continue; /* no bus device: veth, tap, bridge, lo */
		json_array_append_new(a, nic_of(i->if_name));
	}
	if (ifs)
		if_freenameindex(ifs);
	if (named && !named_seen && if_nametoindex(named)) /* made since: at the end */
		json_array_append_new(a, nic_of(named));
	return a;
}

int nic_try_attach(json_t *nic, const char *netns, const char *dev)
{
	struct drop_attachment a;
	char err[512] = "";
	int e, saved = -1;

	if (netns && *netns && netns_enter(netns, &saved)) {
		snprintf(err, sizeof(err), "no namespace '%s'", netns);
		e = -ENOENT;
	} else {
		e = drop_attach(dev, MODE_XDPDRV, 0, &a, err, sizeof(err));
		if (!e)
			drop_detach(&a);
		if (saved >= 0)
			netns_return(saved);
	}
	json_object_set_new(nic, "xdp_attach", json_pack("{s:b, s:s?}", "ok", !e, "reason",
							  e ? err : NULL));
	return e;
}

/* The xdp-features names of @nic joined by ", " into @buf, or "none". */
static void features_words(char *buf, size_t len, const json_t *nic)
{
	const json_t *v;
	size_t i;

	snprintf(buf, len, "none");
	json_array_foreach(json_object_get(nic, "xdp_features"), i, v)
		snprintf(buf + (i ? strlen(buf) : 0), len - (i ? strlen(buf) : 0), "%s%s",
			 i ? ", " : "", json_string_value(v));
}

void nic_line(const json_t *nic, char *buf, size_t len)
{
	const json_t *native = json_object_get(nic, "xdp_native");
	const json_t *att = json_object_get(nic, "xdp_attach");
	const char *drv = json_string_value(json_object_get(nic, "driver"));
	const char *why = json_string_value(json_object_get(nic, "xdp_native_reason"));
	const char *answer = att ? (json_is_true(json_object_get(att, "ok")) ? "yes" : "no")
			     : json_is_boolean(native) ? (json_is_true(native) ? "yes" : "no")
			     : "unknown";
	char how[640], feats[160];

	features_words(feats, sizeof(feats), nic);
	if (json_is_boolean(native))
		snprintf(how, sizeof(how), "xdp-features: %s", feats);
	else
		snprintf(how, sizeof(how), "%s", why ? why : "the kernel could not say");
	if (att && json_is_true(json_object_get(att, "ok")))
		snprintf(how + strlen(how), sizeof(how) - strlen(how), "; an xdpdrv attach "
			 "succeeded (and was undone)");
	else if (att)
		snprintf(how + strlen(how), sizeof(how) - strlen(how), "; an xdpdrv attach was "
			 "refused: %s", json_string_value(json_object_get(att, "reason"))
			 ?: "no reason given");
	snprintf(buf, len, "%s: driver %s, native XDP %s (%s)",
		 json_string_value(json_object_get(nic, "dev")) ?: "?", drv ? drv : "unknown",
		 answer, how);
}

void nic_list_print(const json_t *nics, FILE *out)
{
	const json_t *n;
	size_t i;

	fprintf(out, "NICs (driver; native XDP by the kernel's xdp-features, Linux 6.3+, or "
		     "an attach's answer where asked: doctor --dev IFACE --try-attach):\n");
	json_array_foreach(nics, i, n) {
		char line[1024];

		nic_line(n, line, sizeof(line));
		fprintf(out, "  %s\n", line);
	}
	if (!json_array_size(nics))
		fprintf(out, "  none: no interface here is backed by a bus device (PCI, virtio, "
			     "USB)\n");
}
