// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "probe.h"
#include "mounts.h"
#include "prepare.h"
#include "privilege.h"

int prepare_machine(struct env_info *env, int verbosity)
{
	char msg[REASON_MAX];

	/* Once, at start: what an EPERM later would otherwise blame on the kernel. */
	privilege_check(msg, env->skip_all, sizeof(env->skip_all));
	if (msg[0])
		fprintf(stderr, "test_progs: %s\n", msg);
	if (env->skip_all[0])
		return 0;
	/* A failed mount is not fatal: the tests that need it will SKIP. */
	mounts_prepare(verbosity);
	features_probe_all();
	for (int f = 0; f < FEAT__COUNT; f++) {
		const char *why = feature_missing(f);

		env_info_add_feature(env, feature_name(f), !why, why);
		if (verbosity && why)
			fprintf(stderr, "feature %s missing: %s\n",
				feature_name(f), why);
	}
	return 0;
}
