/* SPDX-License-Identifier: GPL-2.0 */
/* What the run happened on: kernel, libbpf, architecture, features. */
#ifndef BPFCHECK_ENV_INFO_H
#define BPFCHECK_ENV_INFO_H

#include <stdbool.h>

#include "outcome.h"

#define ENV_MAX_FEATURES 32

struct env_feature {
	const char *name;
	bool present;
	char reason[REASON_MAX];	/* why it is missing */
};

struct env_info {
	char kernel_release[65];
	char kernel_version[65];
	char machine[65];
	char libbpf_version[32];
	int n_features;
	struct env_feature features[ENV_MAX_FEATURES];
};

void env_info_collect(struct env_info *env);
int env_info_add_feature(struct env_info *env, const char *name,
			 bool present, const char *reason);

#endif
