// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include "env_info.h"

void env_info_collect(struct env_info *env)
{
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (uname(&u) == 0) {
		snprintf(env->kernel_release, sizeof(env->kernel_release),
			 "%s", u.release);
		snprintf(env->kernel_version, sizeof(env->kernel_version),
			 "%s", u.version);
		snprintf(env->machine, sizeof(env->machine), "%s", u.machine);
	}
	snprintf(env->libbpf_version, sizeof(env->libbpf_version), "%s",
		 libbpf_version_string());
}

int env_info_add_feature(struct env_info *env, const char *name,
			 bool present, const char *reason)
{
	struct env_feature *f;

	if (env->n_features == ENV_MAX_FEATURES)
		return -1;
	f = &env->features[env->n_features++];
	f->name = name;
	f->present = present;
	snprintf(f->reason, sizeof(f->reason), "%s", reason ? reason : "");
	return 0;
}
