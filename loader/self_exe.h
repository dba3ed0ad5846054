/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * self_exe.h: the path of this program's binary, for the processes it starts elsewhere
 * (a guest, a script, a child run) that must run the same one.
 */
#ifndef XDPTC_SELF_EXE_H
#define XDPTC_SELF_EXE_H

#include <stddef.h>

/* self_exe - the path of this binary (readlink of /proc/self/exe) into @buf of @len
 * bytes. A binary rebuilt while this process runs (make during a long matrix) shows as
 * "PATH (deleted)": the path is then given without that suffix, so what is started is
 * the file now at PATH, not a name no other process can open. Returns 0, or -errno
 * (@buf then empty). */
int self_exe(char *buf, size_t len);

#endif
