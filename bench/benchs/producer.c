// SPDX-License-Identifier: GPL-2.0
/*
 * The producer programs' options and loading (producer.h), shared by the
 * ring buffer, perf buffer, queue and trigger benchmarks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "json_writer.h"
#include "options.h"
#include "producer.h"

/* The kernel bench's --rb-sampled without --rb-sample-rate samples 500. */
#define KERNEL_SAMPLE_RATE	500

static struct {
	unsigned int batch_cnt;
	unsigned int sampled;		/* 0: notify for every record */
	bool b2b;			/* back-to-back: consumer triggers */
	enum bench_attach attach;
} args = {
	.batch_cnt = 500,
	.attach = BENCH_ATTACH_AUTO,
};

/* The attach type in use after setup, and why better ones were not. */
static enum bench_attach attach_used = BENCH_ATTACH_AUTO;
static char attach_note[256];
/* The attached program, until the benchmark's teardown closes it. */
static int prog_fd = -1;

static const char *const attach_names[] = {
	[BENCH_ATTACH_AUTO] = "auto",
	[BENCH_ATTACH_FENTRY] = "fentry",
	[BENCH_ATTACH_TP] = "tp",
	[BENCH_ATTACH_RAW_TP] = "raw_tp",
};

static const char *attach_name(enum bench_attach a)
{
	return attach_names[a];
}

/* ---- options ---- */

static int parse_batch(const char *arg)
{
	return bench_parse_uint("--batch-cnt", arg, 1, BENCH_MAX_BATCH,
				"records per trigger", &args.batch_cnt);
}

static int parse_sampled(const char *arg)
{
	return bench_parse_uint("--sampled", arg, 1, 1 << 20,
				"records per consumer wake-up", &args.sampled);
}

static int parse_rb_sampled(const char *arg __maybe_unused)
{
	if (!args.sampled)
		args.sampled = KERNEL_SAMPLE_RATE;
	return 0;
}

static int parse_b2b(const char *arg __maybe_unused)
{
	args.b2b = true;
	return 0;
}

static int parse_attach(const char *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(attach_names); i++) {
		if (!strcmp(arg, attach_names[i])) {
			args.attach = i;
			return 0;
		}
	}
	return bench_usage_error("--attach '%s': expected auto, fentry, tp or raw_tp", arg);
}

static const struct bench_opt producer_opts[] = {
	{ "batch-cnt", "rb-batch-cnt", "N", "records per trigger (default 500)",
	  parse_batch, NULL },
	{ "sampled", "rb-sample-rate", "N",
	  "wake the consumer once per N records, not for each", parse_sampled, NULL },
	{ "rb-sampled", NULL, NULL, NULL, parse_rb_sampled, "sampled" },
	{ "b2b", "rb-b2b", NULL, "back-to-back: one producer triggers once, then the\n"
	  "                        consumer triggers each next batch when it has drained",
	  parse_b2b, NULL },
	{ "attach", NULL, "TYPE", "auto (default: fentry, else tp, else raw_tp), fentry,\n"
	  "                        tp or raw_tp", parse_attach, NULL },
	{},
};

static const struct bench_opt_group producer_group = {
	.title = "Producer options (the ring buffer, perf buffer, queue and trigger benchmarks)",
	.opts = producer_opts,
	.notes = "  The kernel bench's --rb-batch-cnt, --rb-b2b, --rb-sampled and\n"
		 "  --rb-sample-rate work too.\n",
};
BENCH_OPTIONS(producer_group);

unsigned int producer_sampled(void)
{
	return args.sampled;
}

int producer_check(const struct bench_env *env, char *err, size_t len)
{
	if (args.b2b && env->producer_cnt != 1)
		return bench_err(err, len,
				 "--b2b (back-to-back) needs exactly one producer, got -p %d",
				 env->producer_cnt);
	if (args.b2b && args.sampled > args.batch_cnt)
		return bench_err(err, len,
				 "--sampled %u with --b2b: the consumer would wait for more records than one batch (--batch-cnt %u) brings",
				 args.sampled, args.batch_cnt);
	return 0;
}

/* ---- loading ---- */

void producer_config_fill(struct bench_config *cfg)
{
	cfg->target_tgid = getpid();
	cfg->batch_cnt = args.batch_cnt;
	cfg->getpgid_nr = SYS_getpgid;
	cfg->sampled = args.sampled;
}

static bool is_wanted(const struct bpf_program *prog, const char *prefix,
		      enum bench_attach mode)
{
	const char *name = bpf_program__name(prog);
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && name[n] == '_' &&
	       !strcmp(name + n + 1, attach_name(mode));
}

int producer_load_attach(struct bpf_object_skeleton *s, const char *prefix,
			 enum bench_attach mode, struct bpf_link **link,
			 char *err, size_t len)
{
	struct bpf_program *prog, *target = NULL;
	struct bpf_object *obj = *s->obj;
	int ret;

	*link = NULL;
	bpf_object__for_each_program(prog, obj) {
		bool want = is_wanted(prog, prefix, mode);

		bpf_program__set_autoload(prog, want);
		if (want)
			target = prog;
	}
	if (!target)
		return bench_err(err, len, "no program %s_%s in %s", prefix,
				 attach_name(mode), bpf_object__name(obj));
	/* Through the skeleton, which maps .bss where skel->bss points. */
	ret = bpf_object__load_skeleton(s);
	if (ret)
		return bench_err(err, len, "%s: %s on load", attach_name(mode),
				 errname(-ret));
	*link = bpf_program__attach(target);
	if (!*link) {
		ret = errno;
		return bench_err(err, len, "%s: %s on attach", attach_name(mode),
				 errname(ret));
	}
	prog_fd = bpf_program__fd(target);
	return 0;
}

int producer_missed_runs(__u64 *runs)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	/* Kernels before 5.12 leave the field as it is: 0. */
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	*runs = info.recursion_misses;
	return 0;
}

static int try_mode(producer_load_fn load, enum bench_attach mode,
		    char *err, size_t len)
{
	int ret = load(mode, err, len);

	if (!ret)
		attach_used = mode;
	return ret;
}

int producer_load(producer_load_fn load, char *err, size_t len)
{
	static const enum bench_attach order[] = {
		BENCH_ATTACH_FENTRY, BENCH_ATTACH_TP, BENCH_ATTACH_RAW_TP,
	};
	char why[256];
	size_t off = 0;

	attach_note[0] = '\0';
	if (args.attach != BENCH_ATTACH_AUTO)
		return try_mode(load, args.attach, err, len);
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		if (!try_mode(load, order[i], why, sizeof(why)))
			return 0;
		/* Say why each better attach type was passed over. */
		if (off < sizeof(attach_note))
			off += snprintf(attach_note + off,
					sizeof(attach_note) - off, "%s%s",
					off ? "; " : "", why);
	}
	return bench_err(err, len, "no attach type works: %s", attach_note);
}

void producer_b2b_next(struct bench_thread *t)
{
	if (!args.b2b || bench_producers_done())
		return;
	bench_trigger();
	bench_count_add(&t->triggers, 1);
}

/* ---- the family's part of the reports ---- */

unsigned int producer_per_trigger(const struct bench_env *env)
{
	return bench_takes(env->bench, "batch-cnt") ? args.batch_cnt : 1;
}

bool producer_one_trigger(const struct bench_env *env __maybe_unused)
{
	return args.b2b;
}

void producer_header(const struct bench_env *env, FILE *f)
{
	if (bench_takes(env->bench, "batch-cnt"))
		fprintf(f, ", batch %u", args.batch_cnt);
	if (args.sampled)
		fprintf(f, ", wake-up every %u records", args.sampled);
	if (args.b2b)
		fprintf(f, ", back-to-back");
	if (bench_takes(env->bench, "attach")) {
		fprintf(f, ", attach %s", attach_name(attach_used));
		if (attach_note[0])
			fprintf(f, " (%s)", attach_note);
	}
}

void producer_config_name(const struct bench_env *env, char *buf, size_t len)
{
	size_t off = 0;

	if (bench_takes(env->bench, "batch-cnt"))
		off += snprintf(buf, len, "/b%u", args.batch_cnt);
	if (args.sampled && off < len)
		off += snprintf(buf + off, len - off, "/sampled%u", args.sampled);
	if (args.b2b && off < len)
		snprintf(buf + off, len - off, "/b2b");
}

void producer_json_options(const struct bench_env *env, struct json_writer *w)
{
	json_key(w, "batch_cnt");
	if (bench_takes(env->bench, "batch-cnt"))
		json_uint(w, args.batch_cnt);
	else
		json_null(w);
	json_key(w, "sampled");
	json_uint(w, args.sampled);
	json_kv_bool(w, "back_to_back", args.b2b);
	if (bench_takes(env->bench, "attach"))
		json_kv_string(w, "attach", attach_name(args.attach));
}

void producer_json_environment(const struct bench_env *env, struct json_writer *w)
{
	if (!bench_takes(env->bench, "attach"))
		return;
	json_kv_string(w, "attach", attach_name(attach_used));
	json_kv_string(w, "attach_note", attach_note);
}
