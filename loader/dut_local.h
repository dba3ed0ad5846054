/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_local.h: a DUT on this machine (dut_local.c): a device in one of its namespaces,
 * everything read by this process; what a guest's agent runs too. */
#ifndef XDPTC_DUT_LOCAL_H
#define XDPTC_DUT_LOCAL_H

#include "dut.h"

/* dut_local_init - a DUT that is device @dev in namespace @netns (NULL: this one). */
void dut_local_init(struct dut *d, const char *netns, const char *dev);

#endif
