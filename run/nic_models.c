/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* nic_models.c: the NIC models of the nic topology (nic_models.h). */
#include "nic_models.h"

#include <stdio.h>
#include <string.h>

/* qemu 7.2's PCI NIC models with a driver in Debian's kernels (drivers/net/ethernet/...);
 * igb came in qemu 8.0 */
const struct nic_model nic_models[] = {
	{ "virtio-net", "virtio-net-pci", "virtio_net", "virtio_net" },
	{ "vmxnet3", "vmxnet3", "vmxnet3", "vmxnet3" },
	{ "e1000e", "e1000e", "e1000e", "e1000e" },
	{ "e1000", "e1000", "e1000", "e1000" },
	{ "rtl8139", "rtl8139", "8139cp 8139too", "8139cp" },
	{ "pcnet", "pcnet", "pcnet32", "pcnet32" },
	{ "tulip", "tulip", "tulip", "tulip" },
	{ "ne2k_pci", "ne2k_pci", "ne2k-pci", "ne2k-pci" },
	{ "i82559er", "i82559er", "e100", "e100" },
	{ "igb", "igb", "igb", "igb" },
};
const size_t nic_models_n = sizeof(nic_models) / sizeof(nic_models[0]);

const struct nic_model *nic_model_find(const char *name)
{
	for (size_t i = 0; name && i < nic_models_n; i++)
		if (!strcmp(nic_models[i].name, name))
			return &nic_models[i];
	return NULL;
}

int nic_model_in_qemu(const struct nic_model *m, const char *qemu)
{
	char cmd[512], line[256], want[96];
	int found = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -device help 2>/dev/null",
		 qemu ? qemu : "qemu-system-x86_64");
	p = popen(cmd, "r");
	if (!p)
		return -1;
	snprintf(want, sizeof(want), "name \"%s\"", m->device);
	while (fgets(line, sizeof(line), p))
		found |= !strncmp(line, want, strlen(want)); /* the quote ends the name */
	return pclose(p) == 0 || found ? found : -1;
}

char *nic_models_list(char *buf, size_t len, const char *qemu, int only_in_qemu)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nic_models_n && at < len; i++) {
		if (only_in_qemu && nic_model_in_qemu(&nic_models[i], qemu) != 1)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
				       nic_models[i].name);
	}
	return buf;
}
