// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include "build_info.h"
#include "version.h"
#include "env_info.h"
#include "json_writer.h"

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

/*
 * The members test_progs -J and bench --json share, one set of keys for
 * both: the kernel, the architecture, the toolchain and the features.
 */
void env_info_write_json(struct json_writer *w, const struct env_info *env)
{
	json_kv_string(w, "kernel_release", env->kernel_release);
	json_kv_string(w, "kernel_version", env->kernel_version);
	json_kv_string(w, "arch", env->machine);
	json_kv_string(w, "libbpf_version", env->libbpf_version);
	json_kv_string(w, "libbpf_source", env->libbpf_source);
	json_kv_string(w, "clang_version", env->clang_version);
	json_key(w, "features");
	json_begin_object(w);
	for (int i = 0; i < env->n_features; i++) {
		const struct env_feature *f = &env->features[i];

		json_key(w, f->name);
		json_begin_object(w);
		json_kv_bool(w, "present", f->present);
		if (!f->present)
			json_kv_string(w, "reason", f->reason);
		json_end_object(w);
	}
	json_end_object(w);
}
