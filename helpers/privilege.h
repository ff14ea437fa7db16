/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which privileges the BPF tests lack: said once at start, instead of a
 * test blaming the kernel for an EPERM.
 */
#ifndef BPFCHECK_PRIVILEGE_H
#define BPFCHECK_PRIVILEGE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A sentence naming the missing capabilities in msg ("" when none).
 * Returns true when no BPF program or map can be created at all (no
 * CAP_BPF, no CAP_SYS_ADMIN, and unprivileged BPF is off); reason is then
 * the skip reason of every test.
 */
bool privilege_check(char *msg, char *reason, size_t len);

#endif
