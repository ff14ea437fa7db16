// SPDX-License-Identifier: GPL-2.0
/*
 * Orchestration: parse options, prepare the machine, pick the selected
 * tests, run each one, report as it goes, and map the tally to an exit
 * code.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "atomic_file.h"
#include "kernel_gap.h"
#include "main.h"
#include "options.h"
#include "report.h"
#include "stream_error.h"
#include "summary.h"
#include "test_state.h"
#include "workers.h"

/* Result files being written; their temporary files go on Ctrl-C. */
struct outputs {
	struct atomic_file json;
	struct atomic_file junit;
};

static const char *volatile tmp_paths[2];

static void on_interrupt(int sig)
{
	workers_kill_all();
	for (int i = 0; i < 2; i++)
		if (tmp_paths[i])
			unlink(tmp_paths[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int libbpf_verbosity;

static int run_all(const struct suite *suite, const struct options *o,
		   const struct run_opts *ro, const int *idx, int n,
		   struct test_result *results, struct summary *sum);

/*
 * libbpf warnings go to the test's log; its debug output needs -vvv.  The
 * error a warning names (EPERM, ...) is recorded for the kernel-gap
 * classifier as libbpf says it, not read back from the log.
 */
static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char msg[512];
	va_list copy;

	if (level == LIBBPF_DEBUG && libbpf_verbosity < 3)
		return 0;
	if (level != LIBBPF_DEBUG) {
		va_copy(copy, ap);
		vsnprintf(msg, sizeof(msg), fmt, copy);
		va_end(copy);
		test_state_note_libbpf_error(kernel_gap_libbpf_errno(msg));
	}
	return vfprintf(stderr, fmt, ap);
}

static int *select_tests(const struct suite *suite, const struct options *o,
			 int *n)
{
	int *idx = calloc(suite->n_tests ? suite->n_tests : 1, sizeof(int));

	*n = 0;
	if (!idx)
		return NULL;
	for (int i = 0, k = 0; i < suite->n_tests; i++) {
		if (!selection_test(o->sel, suite->tests[i].name, i + 1))
			continue;
		/* --shard I/N keeps every Nth selected test, from the Ith. */
		if (o->shard_count && k++ % o->shard_count != o->shard_index - 1)
			continue;
		idx[(*n)++] = i;
	}
	return idx;
}

/* Print and count the selected subtests of one test: run it in list mode. */
static int list_subtests(struct runner_slot *slot, const struct options *o,
			 const struct test_def *def, int num, bool print)
{
	struct run_opts ro = { .sel = o->sel, .list_only = true };
	struct test_result r;
	int err = runner_run(slot, def, num, &ro, &r), n = 0;

	if (err) {
		fprintf(stderr, "test_progs: cannot list %s: %s\n", def->name,
			strerror(-err));
		return err;
	}
	for (int s = 0; s < r.n_subtests; s++) {
		if (!selection_subtest(o->sel, def->name, num,
				       r.subtests[s].name,
				       r.subtests[s].number))
			continue;
		n++;
		if (print)
			printf("%s/%s\n", def->name, r.subtests[s].name);
	}
	test_result_free(&r);
	return n;
}

/*
 * -l prints the selected tests' names and -c their number, as the kernel's
 * test_progs does, without running anything.  Subtests are only known by
 * running the test in list mode: that happens for --list=detail and
 * --count=detail, and for -l when the selection names subtests.
 */
static int list_tests(const struct suite *suite, const struct options *o,
		      const int *idx, int n)
{
	bool print_subs = o->list && (o->list_detail ||
				      selection_names_subtests(o->sel));
	bool need_subs = print_subs || (o->count && o->count_detail);
	struct runner_slot *slot = need_subs ? runner_slot_new() : NULL;
	int subtests = 0;

	if (need_subs && !slot) {
		fprintf(stderr, "test_progs: cannot set up the runner: %s\n",
			strerror(errno));
		return EXIT_INFRA;
	}
	for (int i = 0; i < n; i++) {
		const struct test_def *def = &suite->tests[idx[i]];
		int subs = 0;

		if (o->list)
			printf("%s\n", def->name);
		if (need_subs)
			subs = list_subtests(slot, o, def, idx[i] + 1,
					     print_subs);
		if (subs < 0) {
			runner_slot_free(slot);
			return EXIT_INFRA;
		}
		subtests += subs;
	}
	runner_slot_free(slot);
	if (o->count && o->count_detail)
		printf("%d tests, %d subtests\n", n, subtests);
	else if (o->count)
		printf("%d\n", n);
	return n ? EXIT_OK : EXIT_NO_TESTS;
}

static void report_one(const struct options *o, int index,
		       const struct test_result *r)
{
	if (o->ktap)
		report_ktap_test(stdout, index, r, o->verbosity);
	else
		report_text_test(stdout, r, o->verbosity);
}

/* After the run: anything the whole run left behind fails it. */
static int check_run_leaks(const struct suite *suite, const struct options *o,
			   void *snap)
{
	char *leaks = leak_report(suite->leaks, snap);
	const char *prefix = o->ktap ? "# " : "";

	if (!leaks) {
		printf("%sLeak check: the run left nothing behind\n", prefix);
		return 0;
	}
	printf("%sLeak check: the run left behind:\n", prefix);
	for (char *line = strtok(leaks, "\n"); line; line = strtok(NULL, "\n"))
		printf("%s%s\n", prefix, line);
	free(leaks);
	return 1;
}

static int run_tests(const struct suite *suite, const struct options *o,
		     const int *idx, int n, struct test_result *results,
		     struct summary *sum)
{
	struct run_opts ro = {
		.sel = o->sel,
		.verbosity = o->verbosity,
		.verifier_stats = o->verifier_stats,
		.no_fork = o->no_fork,
		/* With -j, what appears belongs to any running test. */
		.leaks = o->leak_check && o->jobs == 1 ? suite->leaks : NULL,
	};
	void *snap = NULL;
	int ret;

	if (o->leak_check) {
		snap = suite->leaks->snapshot();
		if (!snap) {
			fprintf(stderr, "test_progs: leak check snapshot failed: %s\n",
				strerror(errno));
			return EXIT_INFRA;
		}
	}
	ret = run_all(suite, o, &ro, idx, n, results, sum);
	if (snap) {
		if (ret != EXIT_INFRA && check_run_leaks(suite, o, snap) &&
		    ret != EXIT_FAILED)
			ret = EXIT_FAILED;
		suite->leaks->release(snap);
	}
	return ret;
}

struct progress {
	const struct options *o;
	struct summary *sum;
	int reported;		/* KTAP numbers follow the reporting order */
};

static void on_test_done(void *ctx, const struct test_result *res)
{
	struct progress *pr = ctx;

	summary_add(pr->sum, res);
	report_one(pr->o, ++pr->reported, res);
}

static int run_all(const struct suite *suite, const struct options *o,
		   const struct run_opts *ro, const int *idx, int n,
		   struct test_result *results, struct summary *sum)
{
	struct progress pr = { .o = o, .sum = sum };
	struct workers_cfg cfg = {
		.jobs = o->jobs,
		.timeout_s = o->timeout_s,
		.debug = o->debug,
		.ro = ro,
		.done = on_test_done,
		.ctx = &pr,
	};
	int err;

	err = workers_run(suite->tests, idx, n, results, &cfg);
	if (err) {
		fprintf(stderr, "test_progs: cannot run the tests: %s\n",
			strerror(-err));
		return EXIT_INFRA;
	}
	if (o->ktap)
		report_ktap_end(stdout, sum);
	else
		report_text_end(stdout, results, n, sum);
	return summary_exit_code(sum);
}

/* Nothing can run here (prepare said why): every selected test skips. */
static int skip_all(const struct suite *suite, const struct options *o,
		    const char *why, const int *idx, int n,
		    struct test_result *results, struct summary *sum)
{
	struct progress pr = { .o = o, .sum = sum };

	for (int i = 0; i < n; i++) {
		struct test_result *r = &results[i];

		r->name = suite->tests[idx[i]].name;
		r->number = idx[i] + 1;
		r->outcome = OUTCOME_SKIP;
		snprintf(r->skip_reason, sizeof(r->skip_reason), "%s", why);
		on_test_done(&pr, r);
	}
	if (o->ktap)
		report_ktap_end(stdout, sum);
	else
		report_text_end(stdout, results, n, sum);
	return summary_exit_code(sum);
}

/* Finish one result file: write_err is what writing its content gave. */
static int commit_output(struct atomic_file *af, int write_err,
			 const char *what)
{
	char *path = strdup(af->path);
	int err = atomic_file_finish(af, write_err);

	if (err)
		fprintf(stderr, "test_progs: cannot write %s '%s': %s\n", what,
			path ? path : "?", strerror(-err));
	free(path);
	return err;
}

static int write_outputs(struct outputs *out, const struct env_info *env,
			 const struct test_result *results, int n,
			 const struct summary *sum)
{
	int err = 0;

	if (out->json.path)
		err |= commit_output(&out->json, report_json_write(out->json.f,
				     env, results, n, sum), "JSON summary");
	if (out->junit.path)
		err |= commit_output(&out->junit, report_junit_write(
				     out->junit.f, results, n), "JUnit XML");
	return err;
}

static int run_selected(const struct suite *suite, const struct options *o,
			const struct env_info *env, struct outputs *out)
{
	struct summary sum = { 0 };
	struct test_result *results = NULL;
	int n = 0, ret = EXIT_INFRA;
	int *idx = select_tests(suite, o, &n);

	if (!idx)
		goto out;
	if (o->list || o->count) {
		ret = list_tests(suite, o, idx, n);
		goto out;
	}
	results = calloc(n ? n : 1, sizeof(*results));
	if (!results)
		goto out;
	if (o->ktap)
		report_ktap_begin(stdout, n, env);
	if (env->skip_all[0])
		ret = skip_all(suite, o, env->skip_all, idx, n, results, &sum);
	else
		ret = run_tests(suite, o, idx, n, results, &sum);
	if (ret != EXIT_INFRA && write_outputs(out, env, results, n, &sum))
		ret = EXIT_INFRA;
	if (ret == EXIT_NO_TESTS)
		fprintf(stderr, "test_progs: no test selected\n");
out:
	for (int i = 0; results && i < n; i++)
		test_result_free(&results[i]);
	free(results);
	free(idx);
	return ret;
}

/* -J and --junit on one file: one would silently replace the other. */
static bool outputs_collide(const struct options *o)
{
	if (!o->json_path || !o->junit_path ||
	    !atomic_file_same_path(o->json_path, o->junit_path))
		return false;
	fprintf(stderr,
		"test_progs: -J '%s' and --junit '%s' name the same file (give each its own)\n",
		o->json_path, o->junit_path);
	return true;
}

/* Create the result files' temporary files now: a bad path fails early. */
static int open_outputs(const struct options *o, struct outputs *out)
{
	const char *paths[2] = { o->json_path, o->junit_path };
	struct atomic_file *files[2] = { &out->json, &out->junit };

	if (o->list || o->count)
		return 0;
	for (int i = 0; i < 2; i++) {
		int err;

		if (!paths[i])
			continue;
		err = atomic_file_open(files[i], paths[i]);
		if (err) {
			fprintf(stderr, "test_progs: cannot write '%s': %s\n",
				paths[i], strerror(-err));
			return err;
		}
		tmp_paths[i] = files[i]->tmp_path;
	}
	return 0;
}

/*
 * The report on stdout is the result: if it could not be written (a full
 * disk, /dev/full, a closed pipe's reader gone), say why and do not exit
 * as if it had been.
 */
static int check_stdout(int ret)
{
	int err = stream_error(stdout);

	if (!err)
		return ret;
	fprintf(stderr, "test_progs: cannot write the report to stdout: %s\n",
		strerror(err));
	return ret == EXIT_OK || ret == EXIT_ALL_SKIPPED ? EXIT_INFRA : ret;
}

int test_progs_main(int argc, char **argv, const struct suite *suite)
{
	struct outputs out = { 0 };
	struct env_info env;
	struct options o;
	int ret;

	ret = options_parse(&o, argc, argv);
	if (ret) {
		options_free(&o);
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	}
	ret = EXIT_USAGE;
	if (outputs_collide(&o))
		goto out;
	ret = EXIT_INFRA;
	if (o.leak_check && !suite->leaks) {
		fprintf(stderr, "test_progs: --leak-check: this runner has no leak checker\n");
		goto out;
	}
	if (open_outputs(&o, &out))
		goto out;
	/* Tests run in their own process groups: Ctrl-C must reach them. */
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	libbpf_verbosity = o.verbosity;
	libbpf_set_print(print_libbpf);
	/* As the kernel's test_progs: scripts the tests run read it. */
	if (o.verbosity && setenv("SELFTESTS_VERBOSE", "1", 1)) {
		fprintf(stderr, "test_progs: cannot set SELFTESTS_VERBOSE: %s\n",
			strerror(errno));
		goto out;
	}
	env_info_collect(&env);
	if (suite->prepare && suite->prepare(&env, o.verbosity) < 0)
		goto out;
	ret = run_selected(suite, &o, &env, &out);
out:
	tmp_paths[0] = tmp_paths[1] = NULL;
	atomic_file_abort(&out.json);
	atomic_file_abort(&out.junit);
	options_free(&o);
	return check_stdout(ret);
}
