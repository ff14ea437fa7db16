// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include "build_info.h"
#include "version.h"
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
	env->libbpf_source = BUILD_LIBBPF_ORIGIN;
	env->libbpf_link = BUILD_LIBBPF_LINK;
	env->clang_version = BUILD_CLANG_VERSION;
}

void env_info_toolchain(const struct env_info *env, char *buf, size_t len)
{
	snprintf(buf, len, "libbpf %s (%s, %s), clang %s", env->libbpf_version,
		 env->libbpf_source, env->libbpf_link, env->clang_version);
}

void env_info_print_version(FILE *f, const char *tool)
{
	struct env_info env;
	char tc[256];

	env_info_collect(&env);
	env_info_toolchain(&env, tc, sizeof(tc));
	fprintf(f, "%s (bpfcheck) %s\nbuilt with %s\n", tool, BPFCHECK_VERSION, tc);
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
