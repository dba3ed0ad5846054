/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tap_sender.h: the tap sender (--sender tap): frames written into a tap device's file
 * descriptor, as a VM's qemu (without vhost-net) writes what its guest transmits. Each
 * write enters the kernel in tun_get_user (drivers/net/tun.c) on the writer's thread: a
 * small frame on a non-blocking descriptor is copied into a page fragment, a native XDP
 * program runs on it there, and only then does tun_build_skb build an skb around it
 * (build_skb) and hand it to netif_receive_skb, where TC ingress and generic XDP run.
 */
#ifndef XDPTC_TAP_SENDER_H
#define XDPTC_TAP_SENDER_H

#include <stdint.h>

#include "udp_sender.h"

/*
 * tap_sender_open - attach to the existing tap device @dev of the calling thread's
 * namespace (TUNSETIFF, IFF_TAP | IFF_NO_PI), non-blocking, as its queue's file.
 * Returns the descriptor, or -errno (-ENODEV: no such device; -EINVAL: @dev is not a
 * tap, or a multi-queue one).
 */
int tap_sender_open(const char *dev);

/*
 * tap_sender_send - write the @len-byte @frame @count times into @fd, paced at @rate_pps
 * (0: as fast as possible); @res->sent counts the writes the kernel took (-EAGAIN and
 * -ENOBUFS retried and counted in @res->retries). Returns 0 or -errno.
 */
int tap_sender_send(int fd, const unsigned char *frame, unsigned int len, uint64_t count,
		    uint64_t rate_pps, struct udp_send_result *res);

#endif
