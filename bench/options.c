// SPDX-License-Identifier: GPL-2.0
/*
 * The command line.  Every rejection is one line on stderr naming the bad
 * value and what is accepted, and exit code BENCH_EXIT_USAGE.
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

#define MAX_DURATION	86400

enum {
	OPT_PROD_CPUS = 256,
	OPT_CONS_CPUS,
	OPT_JSON,
	OPT_BMF,
	OPT_BATCH,
	OPT_SAMPLED,
	OPT_B2B,
	OPT_ATTACH,
	OPT_RB_SIZE,
	OPT_PB_PAGES,
	OPT_QUEUE_SIZE,
	OPT_RB_SAMPLED,
	OPT_VARIANT,
	OPT_KEYS,
	OPT_HIT_PCT,
	OPT_OP,
	OPT_OBJ,
	OPT_PROG,
	OPT_DATA_IN,
};

#define MAX_KEYS	10000000

/* The kernel bench's --rb-sampled without --rb-sample-rate samples 500. */
#define KERNEL_SAMPLE_RATE	500

static const struct option long_opts[] = {
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
	{ "json", required_argument, NULL, OPT_JSON },
	{ "bmf", required_argument, NULL, OPT_BMF },
	{ "batch-cnt", required_argument, NULL, OPT_BATCH },
	{ "sampled", required_argument, NULL, OPT_SAMPLED },
	{ "b2b", no_argument, NULL, OPT_B2B },
	{ "attach", required_argument, NULL, OPT_ATTACH },
	{ "rb-size", required_argument, NULL, OPT_RB_SIZE },
	{ "pb-pages", required_argument, NULL, OPT_PB_PAGES },
	{ "queue-size", required_argument, NULL, OPT_QUEUE_SIZE },
	/* The kernel bench's names for the same things. */
	{ "rb-batch-cnt", required_argument, NULL, OPT_BATCH },
	{ "rb-b2b", no_argument, NULL, OPT_B2B },
	{ "rb-sample-rate", required_argument, NULL, OPT_SAMPLED },
	{ "rb-sampled", no_argument, NULL, OPT_RB_SAMPLED },
	/* prog-cost */
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "hit-pct", required_argument, NULL, OPT_HIT_PCT },
	{ "op", required_argument, NULL, OPT_OP },
	{ "obj", required_argument, NULL, OPT_OBJ },
	{ "prog", required_argument, NULL, OPT_PROG },
	{ "data-in", required_argument, NULL, OPT_DATA_IN },
	{},
};

/* Names of the BENCH_OPT_* bits, for "does not apply" errors. */
static const char *const opt_bit_names[] = {
	"-c", "--cons-affinity", "--batch-cnt", "--sampled", "--b2b",
	"--attach", "--rb-size", "--pb-pages", "--queue-size", "-p",
	"-a/--prod-affinity", "--variant", "--keys", "--hit-pct", "--op",
	"--obj/--prog/--data-in",
};

static const char usage_text[] =
"Usage: bench [-l] [-d SEC] [-w SEC] [-p N] [-c N] [-a] [--prod-affinity CPUS]\n"
"             [--cons-affinity CPUS] [-q] [-v] [--json FILE] [--bmf FILE]\n"
"             NAME [bench options]\n"
"       bench compare BASELINE.json CANDIDATE.json [--threshold PCT] [--alpha A]\n"
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
"  --json FILE           every sample, the summary and the environment as JSON\n"
"  --bmf FILE            the summary in Bencher Metric Format\n"
"\n"
"Bench options:\n"
"  --batch-cnt N         records per trigger (default 500)\n"
"  --sampled N           wake the consumer once per N records, not for each\n"
"  --b2b                 back-to-back: one producer triggers once, then the\n"
"                        consumer triggers each next batch when it has drained\n"
"  --attach TYPE         auto (default: fentry, else tp, else raw_tp), fentry,\n"
"                        tp or raw_tp\n"
"  --rb-size BYTES       ring buffer size, a power of two >= page size, K/M\n"
"                        suffixes (default 512K)\n"
"  --pb-pages N          perf buffer pages per CPU, a power of two (default 128)\n"
"  --queue-size N        queue map capacity in elements (default 32768)\n"
"  The kernel bench's --rb-batch-cnt, --rb-b2b, --rb-sampled and\n"
"  --rb-sample-rate work too.\n"
"\n"
"prog-cost options (ns per run by BPF_PROG_TEST_RUN and by BPF statistics;\n"
"-d is the number of samples, one per second):\n"
"  --variant NAME        which program of the pair (bench -l); for prog-cost\n"
"                        a label (default: the object file's name)\n"
"  --keys N              prog-cost-task: counters, in the hash or in tasks'\n"
"                        storage (default 1);\n"
"                        prog-cost-bloom: keys in the maps (default 10000);\n"
"                        prog-cost-map-batch: map elements (default 10000)\n"
"  --hit-pct P           prog-cost-bloom: percent of probed keys present (default 50)\n"
"  --op OP               prog-cost-map-batch: lookup (default), update or delete\n"
"  --obj FILE --prog NAME  prog-cost: the program to measure, from a BPF object\n"
"  --data-in FILE        prog-cost: a test-run input (repeatable; default one\n"
"                        64-byte UDP/IPv4 frame)\n"
"\n"
"Exit codes: 0 done, 1 failure (set-up, a thread, counters disagree),\n"
"2 bad usage, 128+N stopped by signal N.  bench compare --help: the gate's.\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return BENCH_EXIT_USAGE;
}

static int parse_long(const char *opt, const char *arg, long min, long max,
		      const char *what, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return usage_error("%s '%s': expected %s, %ld to %ld", opt, arg,
				   what, min, max);
	*out = v;
	return 0;
}

static bool is_pow2(unsigned long v)
{
	return v && !(v & (v - 1));
}

/* Bytes with an optional K or M suffix; a power of two >= page size. */
static int parse_rb_size(const char *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long v, max = 1UL << 30;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if (errno || end == arg || *end || arg[0] == '-' || !is_pow2(v) ||
	    v < (unsigned long)page || v > max)
		return usage_error("--rb-size '%s': expected a power of two from %ld "
				   "(the page size) to 1G bytes, e.g. 512K",
				   arg, page);
	env.rb_size = v;
	return 0;
}

static int parse_cpus_opt(const char *opt, const char *arg,
			  struct bench_cpus *c)
{
	char err[160], online[128];

	if (cpus_parse(arg, &c->set, err, sizeof(err)))
		return usage_error("%s %s", opt, err);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->set) || CPU_ISSET(cpu, &env.online))
			continue;
		cpus_format(&env.online, online, sizeof(online));
		return usage_error("%s '%s': CPU %d does not exist or is offline (online CPUs: %s)",
				   opt, arg, cpu, online);
	}
	c->spec = arg;
	env.affinity = true;
	return 0;
}

/*
 * Options that take a number: where it goes and what it may be.  Every
 * field is an int or an unsigned int, which may alias each other.
 */
struct number_opt {
	int code;		/* getopt's */
	const char *name;
	long min, max;
	const char *what;
	void *field;
	unsigned int given;	/* BENCH_OPT_* to record, or 0 */
	bool pow2;
};

static const struct number_opt number_opts[] = {
	{ 'd', "-d", 1, MAX_DURATION, "the measured duration in whole seconds",
	  &env.duration_sec, 0, false },
	{ 'w', "-w", 0, MAX_DURATION, "the warm-up in whole seconds",
	  &env.warmup_sec, 0, false },
	{ 'p', "-p", 1, BENCH_MAX_THREADS, "the number of producer threads",
	  &env.producer_cnt, BENCH_OPT_PRODUCERS, false },
	{ 'c', "-c", 1, BENCH_MAX_THREADS, "the number of consumer threads",
	  &env.consumer_cnt, BENCH_OPT_CONSUMERS, false },
	{ OPT_BATCH, "--batch-cnt", 1, BENCH_MAX_BATCH, "records per trigger",
	  &env.batch_cnt, BENCH_OPT_BATCH, false },
	{ OPT_SAMPLED, "--sampled", 1, 1 << 20, "records per consumer wake-up",
	  &env.sampled, BENCH_OPT_SAMPLED, false },
	{ OPT_PB_PAGES, "--pb-pages", 1, 1 << 16,
	  "perf buffer pages per CPU (a power of two)", &env.pb_pages,
	  BENCH_OPT_PB_PAGES, true },
	{ OPT_QUEUE_SIZE, "--queue-size", 1, 1 << 24,
	  "the queue map capacity in elements", &env.queue_size,
	  BENCH_OPT_QUEUE_SIZE, false },
	{ OPT_KEYS, "--keys", 1, MAX_KEYS, "a number of keys", &env.keys,
	  BENCH_OPT_KEYS, false },
	{ OPT_HIT_PCT, "--hit-pct", 0, 100, "a percentage of probes that hit",
	  &env.hit_pct, BENCH_OPT_HIT_PCT, false },
};

/* Options that take a number, by getopt code. */
static int parse_number_opt(int c, const char *arg)
{
	for (size_t i = 0; i < sizeof(number_opts) / sizeof(number_opts[0]);
	     i++) {
		const struct number_opt *o = &number_opts[i];
		long v = 0;
		int ret;

		if (o->code != c)
			continue;
		ret = parse_long(o->name, arg, o->min, o->max, o->what, &v);
		if (!ret && o->pow2 && !is_pow2(v))
			ret = usage_error("%s '%s': expected a power of two, "
					  "%ld to %ld", o->name, arg, o->min,
					  o->max);
		if (ret)
			return ret;
		*(int *)o->field = v;
		env.given |= o->given;
		return 0;
	}
	return usage_error("internal: option %d", c);
}

static int parse_prog_cost_opt(int c, const char *arg);

static int parse_one(int c, const char *arg)
{
	switch (c) {
	case 'l': env.list = true; return 0;
	case 'a':
		env.affinity = true;
		env.given |= BENCH_OPT_PROD_CPUS;
		return 0;
	case 'q': env.quiet = true; return 0;
	case 'v': env.verbose = true; return 0;
	case OPT_JSON: env.json_path = arg; return 0;
	case OPT_BMF: env.bmf_path = arg; return 0;
	case OPT_RB_SAMPLED:
		if (!env.sampled)
			env.sampled = KERNEL_SAMPLE_RATE;
		env.given |= BENCH_OPT_SAMPLED;
		return 0;
	case OPT_B2B:
		env.b2b = true;
		env.given |= BENCH_OPT_B2B;
		return 0;
	case OPT_PROD_CPUS:
		env.given |= BENCH_OPT_PROD_CPUS;
		return parse_cpus_opt("--prod-affinity", arg, &env.prod_cpus);
	case OPT_CONS_CPUS:
		env.given |= BENCH_OPT_CONS_CPUS;
		return parse_cpus_opt("--cons-affinity", arg, &env.cons_cpus);
	case OPT_ATTACH:
		env.given |= BENCH_OPT_ATTACH;
		if (bench_attach_parse(arg, &env.attach))
			return usage_error("--attach '%s': expected auto, fentry, tp or raw_tp",
					   arg);
		return 0;
	case OPT_RB_SIZE:
		env.given |= BENCH_OPT_RB_SIZE;
		return parse_rb_size(arg);
	}
	return parse_prog_cost_opt(c, arg);
}

/* Options that take a name or a file: where it goes, which bit it sets. */
static const struct {
	int code;
	const char **field;
	unsigned int given;
} string_opts[] = {
	{ OPT_VARIANT, &env.variant, BENCH_OPT_VARIANT },
	{ OPT_OP, &env.op, BENCH_OPT_OP },
	{ OPT_OBJ, &env.obj_path, BENCH_OPT_OBJ },
	{ OPT_PROG, &env.prog_name, BENCH_OPT_OBJ },
};

/* The prog-cost options that take a name or a file; the rest are numbers. */
static int parse_prog_cost_opt(int c, const char *arg)
{
	for (size_t i = 0; i < sizeof(string_opts) / sizeof(string_opts[0]); i++) {
		if (string_opts[i].code != c)
			continue;
		*string_opts[i].field = arg;
		env.given |= string_opts[i].given;
		return 0;
	}
	if (c != OPT_DATA_IN)
		return parse_number_opt(c, arg);
	env.given |= BENCH_OPT_OBJ;
	if (env.n_data_in == BENCH_MAX_DATA_IN)
		return usage_error("--data-in '%s': at most %d inputs", arg,
				   BENCH_MAX_DATA_IN);
	env.data_in[env.n_data_in++] = arg;
	return 0;
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

static void set_defaults(void)
{
	env.duration_sec = 5;
	env.warmup_sec = 1;
	env.producer_cnt = 1;
	env.batch_cnt = 500;
	env.attach = BENCH_ATTACH_AUTO;
	env.rb_size = 512 * 1024;
	env.pb_pages = 128;
	env.queue_size = 32768;
	env.hit_pct = 50;
}

/* Fail now, not after the run, if the report cannot be written. */
static int check_output(const char *opt, const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (!path)
		return 0;
	if (!path[0])
		return usage_error("%s '': expected a file name", opt);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK))
		return usage_error("%s '%s': cannot write in directory '%s' (%s)", opt,
				   path, dir, strerror(errno));
	return 0;
}

static const struct bench_ops *find_bench(const char *name)
{
	for (int i = 0; i < bench_list_cnt; i++)
		if (!strcmp(bench_list[i]->name, name))
			return bench_list[i];
	return NULL;
}

static void list_benches(void)
{
	for (int i = 0; i < bench_list_cnt; i++)
		printf("%-19s %s\n", bench_list[i]->name, bench_list[i]->desc);
}

/* Options that are fine alone but not with this bench or each other. */
static int check_combination(void)
{
	const struct bench_ops *b = env.bench;
	unsigned int extra = env.given & ~b->accepts;
	char err[256];

	for (unsigned int i = 0; extra; i++, extra >>= 1)
		if (extra & 1)
			return usage_error("%s does not apply to %s (see bench --help)",
					   opt_bit_names[i], b->name);
	if (!(env.given & BENCH_OPT_CONSUMERS))
		env.consumer_cnt = b->max_consumers ? 1 : 0;
	if (env.consumer_cnt > b->max_consumers)
		return usage_error("-c '%d': %s takes at most %d consumer thread%s",
				   env.consumer_cnt, b->name, b->max_consumers,
				   b->max_consumers == 1 ? "" : "s");
	if (env.b2b && env.producer_cnt != 1)
		return usage_error("--b2b (back-to-back) needs exactly one producer, got -p %d",
				   env.producer_cnt);
	if (env.b2b && env.sampled > env.batch_cnt)
		return usage_error("--sampled %u with --b2b: the consumer would wait for "
				   "more records than one batch (--batch-cnt %u) brings",
				   env.sampled, env.batch_cnt);
	if (b->check && b->check(err, sizeof(err)))
		return usage_error("%s", err);
	if (env.json_path && env.bmf_path &&
	    atomic_file_same_path(env.json_path, env.bmf_path))
		return usage_error("--json '%s' and --bmf '%s' name the same file",
				   env.json_path, env.bmf_path);
	if (check_output("--json", env.json_path) || check_output("--bmf", env.bmf_path))
		return BENCH_EXIT_USAGE;
	return 0;
}

static int parse_positional(int argc, char **argv)
{
	if (env.list)
		return 0;
	if (optind >= argc)
		return usage_error("no benchmark named (bench -l lists them)");
	if (optind + 1 < argc)
		return usage_error("one benchmark at a time: '%s' after '%s'",
				   argv[optind + 1], argv[optind]);
	env.name = argv[optind];
	env.bench = find_bench(env.name);
	if (!env.bench)
		return usage_error("unknown benchmark '%s' (bench -l lists them)",
				   env.name);
	return check_combination();
}

int bench_parse_args(int argc, char **argv)
{
	char buf[8];
	int c, ret;

	set_defaults();
	env.argc = argc;
	env.argv = argv;
	if (cpus_online(&env.online))
		return usage_error("cannot find the online CPUs");
	env.nr_online = CPU_COUNT(&env.online);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ld:w:p:c:aqvh", long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 0;
		}
		if (c == '?')
			return usage_error("unknown option '%s' (see bench --help)",
					   bad_opt_text(argv, buf, sizeof(buf)));
		if (c == ':')
			return usage_error("option '%s' needs a value (see bench --help)",
					   bad_opt_text(argv, buf, sizeof(buf)));
		ret = parse_one(c, optarg);
		if (ret)
			return ret;
	}
	ret = parse_positional(argc, argv);
	if (ret)
		return ret;
	if (env.list) {
		list_benches();
		return 0;
	}
	return -1;
}

void bench_config_name(char *buf, size_t len)
{
	size_t off;

	off = snprintf(buf, len, "%s/p%d", env.name, env.producer_cnt);
	if (env.consumer_cnt && off < len)
		off += snprintf(buf + off, len - off, "/c%d", env.consumer_cnt);
	if ((env.bench->accepts & BENCH_OPT_BATCH) && off < len)
		off += snprintf(buf + off, len - off, "/b%u", env.batch_cnt);
	if (env.sampled && off < len)
		off += snprintf(buf + off, len - off, "/sampled%u", env.sampled);
	if (env.b2b && off < len)
		snprintf(buf + off, len - off, "/b2b");
}
