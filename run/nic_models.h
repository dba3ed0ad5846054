/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nic_models.h: the NIC models qemu emulates that the nic topology can put under test
 * (--nic MODEL), each with the qemu device that emulates it and the guest driver's
 * modules. Whether a driver runs XDP natively is not written here: the guest's kernel
 * says it (xdp-features, or the attach's own answer), per kernel.
 */
#ifndef XDPTC_NIC_MODELS_H
#define XDPTC_NIC_MODELS_H

#include <stddef.h>

struct nic_model {
	const char *name;    /* --nic NAME, run.json's "nic" */
	const char *device;  /* qemu's -device name (`qemu-system-x86_64 -device help`) */
	const char *modules; /* the guest driver's modules, a space list (virtio.sh's
			      * DUT_MODULES; each kept in the guest-kernel cache:
			      * virtio.sh's KEEP_MODULES) */
	const char *driver;  /* the Linux driver's name, as ethtool -i says it */
};

extern const struct nic_model nic_models[];
extern const size_t nic_models_n;

#define NIC_MODEL_DEFAULT "virtio-net"

/* nic_model_find - the model named @name, or NULL */
const struct nic_model *nic_model_find(const char *name);

/* nic_model_in_qemu - whether the qemu binary @qemu (NULL: qemu-system-x86_64) emulates
 * @m's device, from its `-device help`. Returns 1 yes, 0 no, -1 qemu could not be asked. */
int nic_model_in_qemu(const struct nic_model *m, const char *qemu);

/* nic_models_list - the models' names, comma-separated, into @buf (@len bytes): those
 * @qemu emulates when @only_in_qemu, else all. Returns @buf. */
char *nic_models_list(char *buf, size_t len, const char *qemu, int only_in_qemu);

#endif
