/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFCHECK_BPF_LEAKS_H
#define BPFCHECK_BPF_LEAKS_H

#include "leak_check.h"

/*
 * What a test must not leave behind: BPF programs, maps and links (by
 * kernel ID), bpffs pins, named network namespaces and interfaces of the
 * initial namespace (veth pairs and the like).
 */
extern const struct leak_checker test_progs_leaks;

#endif
