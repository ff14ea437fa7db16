// SPDX-License-Identifier: GPL-2.0
/* The --json and --bmf files appear only complete: a temporary name, renamed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "json_writer.h"
#include "report_bmf.h"
#include "report_files.h"
#include "report_json.h"

int report_write_file(const char *opt, const char *path, report_fn fn,
		      const struct bench_env *env, const void *result)
{
	struct atomic_file af;
	struct json_writer w;
	int err = atomic_file_open(&af, path);

	if (!err) {
		json_init(&w, af.f);
		fn(&w, env, result);
		fputc('\n', af.f);
		err = atomic_file_finish(&af, w.error || ferror(af.f) ? -EIO : 0);
	}
	if (err) {
		fprintf(stderr, "bench: %s '%s': %s\n", opt, path, strerror(-err));
		return -1;
	}
	return 0;
}

int report_write_files(const struct bench_env *env, bool complete, report_fn json,
		       report_fn bmf, const void *result)
{
	if (!env->json_path && !env->bmf_path)
		return 0;
	if (!complete) {
		fprintf(stderr, "bench: %s: no complete run: --json/--bmf not written\n",
			env->name);
		return 0;
	}
	if (env->json_path &&
	    report_write_file("--json", env->json_path, json, env, result))
		return -1;
	if (env->bmf_path && report_write_file("--bmf", env->bmf_path, bmf, env, result))
		return -1;
	return 0;
}

int report_files(const struct bench_env *env, const struct bench_result *r)
{
	return report_write_files(env, !r->interrupted && r->n_samples > r->n_warmup,
				  report_json_result, report_bmf_write, r);
}
