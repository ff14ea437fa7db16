// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture runner: the harness core with the deliberately passing,
 * failing, skipping and crashing tests of tests/fixtures/, so the
 * harness can be checked without touching the real suite's results.
 */
#include "main.h"
#include "registry.h"

static int prepare_fixture(struct env_info *env, int verbosity)
{
	(void)verbosity;
	/* One present and one missing feature, to check the JSON block. */
	env_info_add_feature(env, "fixture_present", true, NULL);
	env_info_add_feature(env, "fixture_missing", false,
			     "fixture feature never present");
	return 0;
}

int main(int argc, char **argv)
{
	const struct suite suite = {
		.tests = registry_tests,
		.n_tests = registry_n_tests,
		.prepare = prepare_fixture,
	};

	return test_progs_main(argc, argv, &suite);
}
