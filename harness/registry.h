/* SPDX-License-Identifier: GPL-2.0 */
/* The tests discovered at build time (see scripts/gen-tests.sh). */
#ifndef BPFCHECK_REGISTRY_H
#define BPFCHECK_REGISTRY_H

#include "runner.h"

extern const struct test_def registry_tests[];
extern const int registry_n_tests;

#endif
