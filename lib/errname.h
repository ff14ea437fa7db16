/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFCHECK_ERRNAME_H
#define BPFCHECK_ERRNAME_H

/*
 * The name of an errno value, e.g. "EPERM", for one-line reasons: the
 * sign is ignored, the kernel's ENOTSUPP is known, and a number without
 * a name reads "errno N" (in a per-thread buffer).
 */
const char *errname(int err);

#endif
