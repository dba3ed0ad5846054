/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * qemu_from.h: which qemu runs the guests (--qemu, enum run_qemu in run_opts.h): the
 * installed one, or bookworm-backports' unpacked into the cache beside it
 * (topologies/qemu_backports.sh). virtio.sh reads the choice as QEMU_FROM.
 */
#ifndef XDPTC_QEMU_FROM_H
#define XDPTC_QEMU_FROM_H

#include <stddef.h>

/* qemu_from_word - the word of enum run_qemu @i ("installed", "backports"), or NULL past
 * the last */
const char *qemu_from_word(int i);

/* qemu_from_binary - the qemu binary that enum run_qemu @from names, into @buf (@len
 * bytes): installed: $QEMU, else qemu-system-x86_64 (looked up on PATH when run);
 * backports: the wrapper that topologies/qemu_backports.sh (in @topodir) prints, which
 * fetches and unpacks it into the cache at its first use (root, network: seconds).
 * Returns @buf, or NULL when backports' qemu cannot be had (the script said why on
 * stderr). */
const char *qemu_from_binary(const char *topodir, int from, char *buf, size_t len);

#endif
