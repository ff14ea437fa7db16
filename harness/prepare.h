/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFCHECK_PREPARE_H
#define BPFCHECK_PREPARE_H

#include "env_info.h"

/* test_progs start-up: mounts, feature probes, environment record. */
int prepare_machine(struct env_info *env, int verbosity);

#endif
