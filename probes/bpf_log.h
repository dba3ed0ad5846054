/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpf_log.h: libbpf's messages, kept. libbpf reports the kernel's own reason for a
 * refused attach (netlink extack, verifier log) through its print callback; this
 * module keeps the last warning so commands can show it in their error sentence.
 */
#ifndef XDPTC_BPF_LOG_H
#define XDPTC_BPF_LOG_H

/* Install the callback. @verbose: also print libbpf's debug and info lines. */
void bpf_log_setup(int verbose);

/* The last libbpf warning since bpf_log_clear(), without the "libbpf: " prefix and
 * trailing newline; "" when there was none. */
const char *bpf_log_last(void);

void bpf_log_clear(void);

#endif
