// SPDX-License-Identifier: GPL-2.0
/*
 * The option core: the framework's options, and those of every
 * BENCH_OPTIONS group, gathered into one getopt table.  A group's option
 * given to a benchmark that does not list it is refused by name.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "bench.h"
#include "env_info.h"
#include "cpus.h"
#include "bench_list.h"
#include "options.h"

#define MAX_DURATION	86400
/* Options of all groups together, aliases apart. */
#define MAX_GROUP_OPTS	48

enum {
	OPT_PROD_CPUS = 256,
	OPT_CONS_CPUS,
	OPT_JSON,
	OPT_BMF,
	OPT_VERSION,
	OPT_GROUP,		/* OPT_GROUP + i: the i-th option of the groups */
};

static const struct option core_opts[] = {
	{ "list", no_argument, NULL, 'l' },
	{ "duration", required_argument, NULL, 'd' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "producers", required_argument, NULL, 'p' },
	{ "consumers", required_argument, NULL, 'c' },
	{ "affinity", no_argument, NULL, 'a' },
	{ "prod-affinity", required_argument, NULL, OPT_PROD_CPUS },
	{ "cons-affinity", required_argument, NULL, OPT_CONS_CPUS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "bmf", required_argument, NULL, OPT_BMF },
};

static const char usage_head[] =
"Usage: bench [-l] [-d SEC] [-w SEC] [-p N] [-c N] [-a] [--prod-affinity CPUS]\n"
"             [--cons-affinity CPUS] [-q] [-v] [--json FILE] [--bmf FILE]\n"
"             NAME [bench options]\n"
"       bench compare BASELINE.json CANDIDATE.json [--threshold PCT] [--alpha A]\n"
"       bench sweep-table [--csv FILE] [--guard CPUS] RUN.json...\n"
"\n"
"  -l, --list            list the benchmarks\n"
"  -d, --duration SEC    measured seconds (default 5)\n"
"  -w, --warmup SEC      warm-up seconds, not in the summary (default 1)\n"
"  -p, --producers N     producer threads (default 1)\n"
"  -c, --consumers N     consumer threads (default 1 where there are any)\n"
"  -a, --affinity        pin threads: consumers on the first CPUs, producers next\n"
"  --prod-affinity CPUS  pin producers round-robin to CPUS, e.g. 0,2-3 (implies -a)\n"
"  --cons-affinity CPUS  pin consumers round-robin to CPUS (implies -a)\n"
"  -q, --quiet           no per-second lines\n"
"  -v, --verbose         libbpf's messages too\n"
"  --version             the version, and the libbpf and clang of the build\n"
"  --json FILE           every sample, the summary and the environment as JSON\n"
"  --bmf FILE            the summary in Bencher Metric Format\n";

static const char usage_tail[] =
"\n"
"Exit codes: 0 done, 1 failure (set-up, a thread, counters disagree),\n"
"2 bad usage, 128+N stopped by signal N.  bench compare --help: the gate's.\n";

/* Everything one parse needs: the getopt table and what was given. */
struct parser {
	struct option longs[ARRAY_SIZE(core_opts) + 2 * MAX_GROUP_OPTS + 1];
	const struct bench_opt *opts[MAX_GROUP_OPTS];	/* by OPT_GROUP + i */
	bool given[MAX_GROUP_OPTS];
	int n_opts;
	bool given_p, given_c, given_prod_cpus, given_cons_cpus;
};

static void add_long(struct parser *p, int *n, const char *name, bool has_arg, int val)
{
	p->longs[*n] = (struct option){
		.name = name,
		.has_arg = has_arg ? required_argument : no_argument,
		.val = val,
	};
	(*n)++;
}

/* The core's options, then every group's with its alias. */
static int build_table(struct parser *p)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(core_opts); i++)
		p->longs[n++] = core_opts[i];
	for (const struct bench_opt_group *const *g = __start_bench_options;
	     g < __stop_bench_options; g++) {
		for (const struct bench_opt *o = (*g)->opts; o->name; o++) {
			if (p->n_opts == MAX_GROUP_OPTS)
				return bench_usage_error("internal: more than %d options",
							 MAX_GROUP_OPTS);
			add_long(p, &n, o->name, o->arg, OPT_GROUP + p->n_opts);
			if (o->alias)
				add_long(p, &n, o->alias, o->arg, OPT_GROUP + p->n_opts);
			p->opts[p->n_opts++] = o;
		}
	}
	p->longs[n] = (struct option){};
	return 0;
}

static void print_group(const struct bench_opt_group *g)
{
	char left[64];

	printf("\n%s:\n", g->title);
	for (const struct bench_opt *o = g->opts; o->name; o++) {
		if (!o->help)
			continue;
		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		printf("  %-20s  %s\n", left, o->help);
	}
	if (g->notes)
		fputs(g->notes, stdout);
}

static int by_title(const void *a, const void *b)
{
	const struct bench_opt_group *const *x = a, *const *y = b;

	return strcmp((*x)->title, (*y)->title);
}

/* The groups by title: the order of registration is the linker's. */
static int usage(void)
{
	size_t n = __stop_bench_options - __start_bench_options;
	const struct bench_opt_group **g = calloc(n ? n : 1, sizeof(*g));

	if (!g) {
		fprintf(stderr, "bench: out of memory\n");
		return BENCH_EXIT_FAIL;
	}
	memcpy(g, __start_bench_options, n * sizeof(*g));
	qsort(g, n, sizeof(*g), by_title);
	fputs(usage_head, stdout);
	for (size_t i = 0; i < n; i++)
		print_group(g[i]);
	fputs(usage_tail, stdout);
	free(g);
	return 0;
}

static int parse_cpus_opt(struct bench_env *env, const char *opt, const char *arg,
			  struct bench_cpus *c)
{
	char err[160], online[128];

	if (cpus_parse(arg, &c->set, err, sizeof(err)))
		return bench_usage_error("%s %s", opt, err);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->set) || CPU_ISSET(cpu, &env->online))
			continue;
		cpus_format(&env->online, online, sizeof(online));
		return bench_usage_error(
					 "%s '%s': CPU %d does not exist or is offline (online CPUs: %s)",
					 opt, arg, cpu, online);
	}
	c->spec = arg;
	env->affinity = true;
	return 0;
}

/* -d, -w, -p, -c. */
static int parse_count(struct bench_env *env, int c, const char *arg)
{
	long v = 0;
	int ret;

	switch (c) {
	case 'd':
		ret = bench_parse_long("-d", arg, 1, MAX_DURATION,
				       "the measured duration in whole seconds", &v);
		env->duration_sec = v;
		return ret;
	case 'w':
		ret = bench_parse_long("-w", arg, 0, MAX_DURATION,
				       "the warm-up in whole seconds", &v);
		env->warmup_sec = v;
		return ret;
	case 'p':
		ret = bench_parse_long("-p", arg, 1, BENCH_MAX_THREADS,
				       "the number of producer threads", &v);
		env->producer_cnt = v;
		return ret;
	default:
		ret = bench_parse_long("-c", arg, 1, BENCH_MAX_THREADS,
				       "the number of consumer threads", &v);
		env->consumer_cnt = v;
		return ret;
	}
}

static int parse_one(struct parser *p, struct bench_env *env, int c, const char *arg)
{
	switch (c) {
	case 'l':
		env->list = true;
		return 0;
	case 'q':
		env->quiet = true;
		return 0;
	case 'v':
		env->verbose = true;
		return 0;
	case 'a':
		env->affinity = true;
		p->given_prod_cpus = true;
		return 0;
	case 'p':
		p->given_p = true;
		return parse_count(env, c, arg);
	case 'c':
		p->given_c = true;
		return parse_count(env, c, arg);
	case 'd':
	case 'w':
		return parse_count(env, c, arg);
	case OPT_JSON:
		env->json_path = arg;
		return 0;
	case OPT_BMF:
		env->bmf_path = arg;
		return 0;
	case OPT_PROD_CPUS:
		p->given_prod_cpus = true;
		return parse_cpus_opt(env, "--prod-affinity", arg, &env->prod_cpus);
	case OPT_CONS_CPUS:
		p->given_cons_cpus = true;
		return parse_cpus_opt(env, "--cons-affinity", arg, &env->cons_cpus);
	}
	if (c < OPT_GROUP || c >= OPT_GROUP + p->n_opts)
		return bench_usage_error("internal: option %d", c);
	p->given[c - OPT_GROUP] = true;
	return p->opts[c - OPT_GROUP]->parse(arg);
}

/* The option getopt stopped at, as the user wrote it. */
static const char *bad_opt_text(char **argv, char *buf, size_t len)
{
	if (optopt > 0 && optopt < 128 && isalnum(optopt)) {
		snprintf(buf, len, "-%c", optopt);
		return buf;
	}
	return argv[optind - 1];
}

/* Fail now, not after the run, if the report cannot be written. */
static int check_output(const char *opt, const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (!path)
		return 0;
	if (!path[0])
		return bench_usage_error("%s '': expected a file name", opt);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK))
		return bench_usage_error("%s '%s': cannot write in directory '%s' (%s)",
					 opt, path, dir, strerror(errno));
	return 0;
}

/* The framework's options that need threads this benchmark has. */
static int check_core_opts(const struct parser *p, const struct bench_ops *b)
{
	const char *bad = NULL;

	if (p->given_c && !b->max_consumers)
		bad = "-c";
	else if (p->given_cons_cpus && !b->max_consumers)
		bad = "--cons-affinity";
	else if (p->given_p && b->run)
		bad = "-p";
	else if (p->given_prod_cpus && b->run)
		bad = "-a/--prod-affinity";
	if (bad)
		return bench_usage_error("%s does not apply to %s (see bench --help)",
					 bad, b->name);
	return 0;
}

/* A group's options given to a benchmark that does not list them. */
static int check_group_opts(const struct parser *p, const struct bench_ops *b)
{
	for (int i = 0; i < p->n_opts; i++) {
		const struct bench_opt *o = p->opts[i];
		const char *name = o->same_as ? o->same_as : o->name;

		if (p->given[i] && !bench_takes(b, name))
			return bench_usage_error("--%s does not apply to %s (see bench --help)",
						 name, b->name);
	}
	return 0;
}

/* Options that are fine alone but not with this bench or each other. */
static int check_combination(const struct parser *p, struct bench_env *env)
{
	const struct bench_ops *b = env->bench;
	char err[256];
	int ret;

	ret = check_core_opts(p, b);
	if (!ret)
		ret = check_group_opts(p, b);
	if (ret)
		return ret;
	if (!p->given_c)
		env->consumer_cnt = b->max_consumers ? 1 : 0;
	if (env->consumer_cnt > b->max_consumers)
		return bench_usage_error("-c '%d': %s takes at most %d consumer thread%s",
					 env->consumer_cnt, b->name, b->max_consumers,
					 b->max_consumers == 1 ? "" : "s");
	if (b->check && b->check(env, err, sizeof(err)))
		return bench_usage_error("%s", err);
	if (env->json_path && env->bmf_path &&
	    atomic_file_same_path(env->json_path, env->bmf_path))
		return bench_usage_error("--json '%s' and --bmf '%s' name the same file",
					 env->json_path, env->bmf_path);
	if (check_output("--json", env->json_path) || check_output("--bmf", env->bmf_path))
		return BENCH_EXIT_USAGE;
	return 0;
}

static int parse_positional(const struct parser *p, struct bench_env *env, int argc,
			    char **argv)
{
	if (env->list)
		return 0;
	if (optind >= argc)
		return bench_usage_error("no benchmark named (bench -l lists them)");
	if (optind + 1 < argc)
		return bench_usage_error("one benchmark at a time: '%s' after '%s'",
					 argv[optind + 1], argv[optind]);
	env->name = argv[optind];
	env->bench = bench_find(env->name);
	if (!env->bench)
		return bench_usage_error("unknown benchmark '%s' (bench -l lists them)",
					 env->name);
	return check_combination(p, env);
}

static int parse_all(struct parser *p, struct bench_env *env, int argc, char **argv)
{
	char buf[8];
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ld:w:p:c:aqvh", p->longs, NULL)) != -1) {
		if (c == 'h')
			return usage();
		if (c == OPT_VERSION) {
			env_info_print_version(stdout, "bench");
			return 0;
		}
		if (c == '?')
			return bench_usage_error("unknown option '%s' (see bench --help)",
						 bad_opt_text(argv, buf, sizeof(buf)));
		if (c == ':')
			return bench_usage_error("option '%s' needs a value (see bench --help)",
						 bad_opt_text(argv, buf, sizeof(buf)));
		ret = parse_one(p, env, c, optarg);
		if (ret)
			return ret;
	}
	ret = parse_positional(p, env, argc, argv);
	if (ret)
		return ret;
	if (env->list)
		return bench_list();
	return -1;
}

int bench_parse_args(int argc, char **argv, struct bench_env *env)
{
	struct parser *p;
	int ret;

	memset(env, 0, sizeof(*env));
	env->duration_sec = 5;
	env->warmup_sec = 1;
	env->producer_cnt = 1;
	env->argc = argc;
	env->argv = argv;
	if (cpus_online(&env->online))
		return bench_usage_error("cannot find the online CPUs");
	env->nr_online = CPU_COUNT(&env->online);
	p = calloc(1, sizeof(*p));
	if (!p) {
		fprintf(stderr, "bench: out of memory\n");
		return BENCH_EXIT_FAIL;
	}
	ret = build_table(p);
	if (!ret)
		ret = parse_all(p, env, argc, argv);
	free(p);
	return ret;
}
