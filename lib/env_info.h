/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the run happened on: kernel, architecture, features; and what it
 * was built with: libbpf and clang (from the generated build_info.h).
 */
#ifndef BPFCHECK_ENV_INFO_H
#define BPFCHECK_ENV_INFO_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#define ENV_MAX_FEATURES 32
/* As long as a test's skip reason, which a missing feature becomes. */
#define ENV_REASON_MAX 256

struct env_feature {
	const char *name;
	bool present;
	char reason[ENV_REASON_MAX];	/* why it is missing */
};

struct env_info {
	char kernel_release[65];
	char kernel_version[65];
	char machine[65];
	char libbpf_version[32];	/* of the libbpf running: "v1.8" */
	const char *libbpf_source;	/* "system", "linux-source-7.2 7.2.13-1" */
	const char *libbpf_link;	/* "static" or "shared" */
	const char *clang_version;	/* the clang of the BPF objects: "22.1.8" */
	int n_features;
	struct env_feature features[ENV_MAX_FEATURES];
	char skip_all[ENV_REASON_MAX];	/* set by prepare: why no test can run */
};

struct json_writer;

void env_info_collect(struct env_info *env);
int env_info_add_feature(struct env_info *env, const char *name,
			 bool present, const char *reason);
/* "libbpf v1.8 (linux-source-7.2 7.2.13-1, static), clang 22.1.8" */
void env_info_toolchain(const struct env_info *env, char *buf, size_t len);
/*
 * The environment's members (kernel_release, kernel_version, arch,
 * libbpf_version, libbpf_source, clang_version, features) into the JSON
 * object w is writing: test_progs -J and bench --json share them.
 */
void env_info_write_json(struct json_writer *w, const struct env_info *env);
/* --version: "TOOL (bpfcheck) 0.1.0 (git ...)" and the toolchain line. */
void env_info_print_version(FILE *f, const char *tool);

#endif
