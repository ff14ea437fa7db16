// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture runner: the harness core with the deliberately passing,
 * failing, skipping and crashing tests of tests/harness/fixtures/, so the
 * harness can be checked without touching the real suite's results.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"
#include "registry.h"

/*
 * A leak checker over the files in $FIXTURE_LEAK_DIR, so the runner's
 * --leak-check plumbing can be tested without BPF: a snapshot is the
 * directory's listing as one newline-separated string.
 */
static char *list_leak_dir(void)
{
	const char *dir = getenv("FIXTURE_LEAK_DIR");
	char *text = NULL;
	size_t len = 0;
	struct dirent *de;
	FILE *f;
	DIR *d;

	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	d = dir ? opendir(dir) : NULL;
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			fprintf(f, "%s\n", de->d_name);
	if (d)
		closedir(d);
	fclose(f);
	return text;
}

static void *leak_snapshot(void)
{
	return list_leak_dir();
}

static int leak_report_files(const void *snap, FILE *out)
{
	char *now = list_leak_dir(), *save = NULL;
	int n = 0;

	if (!now)
		return -ENOMEM;
	for (char *name = strtok_r(now, "\n", &save); name;
	     name = strtok_r(NULL, "\n", &save)) {
		if (strstr(snap, name))
			continue;
		fprintf(out, "leaked file %s\n", name);
		n++;
	}
	free(now);
	return n;
}

static const struct leak_checker fixture_leaks = {
	.snapshot = leak_snapshot,
	.report = leak_report_files,
	.release = free,
};

static int prepare_fixture(struct env_info *env, int verbosity)
{
	(void)verbosity;
	/* One present and one missing feature, to check the JSON block. */
	env_info_add_feature(env, "fixture_present", true, NULL);
	env_info_add_feature(env, "fixture_missing", false,
			     "fixture feature never present");
	/* As test_progs without privileges: nothing can run, say why. */
	if (getenv("FIXTURE_SKIP_ALL"))
		snprintf(env->skip_all, sizeof(env->skip_all), "%s",
			 getenv("FIXTURE_SKIP_ALL"));
	return 0;
}

int main(int argc, char **argv)
{
	const struct suite suite = {
		.tests = registry_tests,
		.n_tests = registry_n_tests,
		.prepare = prepare_fixture,
		.leaks = &fixture_leaks,
	};

	return test_progs_main(argc, argv, &suite);
}
