// SPDX-License-Identifier: GPL-2.0
/* test_progs: the suite of prog_tests/ on the running kernel. */
#include "bpf_leaks.h"
#include "main.h"
#include "prepare.h"
#include "registry.h"

int main(int argc, char **argv)
{
	const struct suite suite = {
		.tests = registry_tests,
		.n_tests = registry_n_tests,
		.prepare = prepare_machine,
		.leaks = &test_progs_leaks,
	};

	return test_progs_main(argc, argv, &suite);
}
