// SPDX-License-Identifier: GPL-2.0
/*
 * prog-cost-task: a per-task counter in a hash map keyed by pid
 * (pid-hash) or in task local storage (task-storage), with --keys N
 * entries (progs/bench_cost_task.bpf.c).  test_run repeats the XDP build
 * of the program, whose current task is the bench's thread; bpf_stats
 * runs the tracepoint build on each getpgid() the bench makes.
 *
 * The keys: pid-hash holds the bench thread's pid and N - 1 others
 * (numbers above any pid, so no other task touches them); task-storage
 * holds the storage of the bench thread and of N - 1 helper threads,
 * each of which made its own by running the program once.  Task storage
 * needs live tasks, so N is bounded by how many tasks the kernel allows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cost_inputs.h"
#include "cost_methods.h"
#include "int_file.h"
#include "prog_cost.h"
#include "trigger.h"
#include "bench_cost_task.skel.h"

/* The prog-cost options, as setup found them. */
static const struct cost_args *args;

/* Above PID_MAX_LIMIT (4M): keys no task has. */
#define OTHER_KEY_BASE		0x40000000u
#define HELPER_STACK		(64 << 10)
/* Tasks left for the rest of the system when sizing the helpers. */
#define TASK_MARGIN		256
#define TRIGGER_BATCH		64

static const char *const variants[] = { "pid-hash", "task-storage", NULL };

struct helper_pool {
	pthread_t *tids;
	/*
	 * The helpers' stacks, slices of one mapping: a stack of its own
	 * per thread costs a mapping or two, and vm.max_map_count (65530)
	 * would stop the pool at about 32k threads.
	 */
	char *stacks;
	size_t stacks_len;
	int n;			/* started */
	int release[2];		/* a pipe: helpers wait until it closes */
	sem_t ready;		/* one post per helper done with its storage */
	bool have_sem;
	int prog_fd;		/* the XDP build, run once by each helper */
	int failures;		/* helpers whose run failed */
};

static struct {
	struct bench_cost_task *skel;
	struct bpf_link *link;
	struct helper_pool pool;
} loaded = { .pool.release = { -1, -1 } };

static bool task_storage(void)
{
	return !strcmp(args->variant, "task-storage");
}

static void task_config(const struct cost_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/keys%u", r->env->name, r->args->keys);
}

static void *helper_main(void *arg)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct helper_pool *p = arg;
	unsigned char frame[64] = {};
	char c;

	opts.data_in = frame;
	opts.data_size_in = sizeof(frame);
	if (bpf_prog_test_run_opts(p->prog_fd, &opts))
		__atomic_add_fetch(&p->failures, 1, __ATOMIC_RELAXED);
	sem_post(&p->ready);
	while (read(p->release[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* How many more tasks may exist: kernel.pid_max and threads-max, less those in use. */
static long tasks_allowed(char *why, size_t len)
{
	long pid_max = read_int_file("/proc/sys/kernel/pid_max");
	long threads_max = read_int_file("/proc/sys/kernel/threads-max");
	long limit = pid_max < threads_max ? pid_max : threads_max;
	unsigned long running, total = 0;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%*s %*s %*s %lu/%lu", &running, &total) != 2)
			total = 0;
		fclose(f);
	}
	snprintf(why, len,
		 "kernel.pid_max is %ld, kernel.threads-max %ld, %lu tasks exist (bench/run_prog_cost.sh raises pid_max for its run)",
		 pid_max, threads_max, total);
	return limit - (long)total - TASK_MARGIN;
}

static int start_helpers(struct cost_run *r, int prog_fd, char *err, size_t len)
{
	struct helper_pool *p = &loaded.pool;
	int want = args->keys - 1, ret = 0;
	pthread_attr_t attr;
	char why[224];

	if (!want)
		return 0;
	if (want > tasks_allowed(why, sizeof(why))) {
		cost_unavailable(&r->m[COST_TEST_RUN],
				 "task storage for %u keys needs %u live tasks: %s",
				 args->keys, args->keys, why);
		cost_unavailable(&r->m[COST_BPF_STATS], "%s", r->m[COST_TEST_RUN].reason);
		return 0;
	}
	p->prog_fd = prog_fd;
	p->tids = calloc(want, sizeof(*p->tids));
	if (!p->tids || pipe2(p->release, O_CLOEXEC))
		return cost_setup_failed(err, len, "helper threads: %s",
					 errname(errno));
	p->stacks_len = (size_t)want * HELPER_STACK;
	p->stacks = mmap(NULL, p->stacks_len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (p->stacks == MAP_FAILED) {
		p->stacks = NULL;
		return cost_setup_failed(err, len, "mapping %d helper stacks: %s",
					 want, errname(errno));
	}
	if (sem_init(&p->ready, 0, 0))
		return cost_setup_failed(err, len, "sem_init: %s", errname(errno));
	p->have_sem = true;
	pthread_attr_init(&attr);
	while (p->n < want && !ret) {
		ret = pthread_attr_setstack(&attr, p->stacks + (size_t)p->n * HELPER_STACK,
					    HELPER_STACK);
		if (!ret)
			ret = pthread_create(&p->tids[p->n], &attr, helper_main, p);
		p->n += !ret;
	}
	pthread_attr_destroy(&attr);
	for (int i = 0; i < p->n; i++)
		sem_wait(&p->ready);
	if (ret)
		return cost_setup_failed(err, len, "starting helper thread %d of %d: %s",
					 p->n + 1, want, errname(ret));
	if (p->failures)
		return cost_setup_failed(err, len,
					 "%d helper threads could not make their task storage",
					 p->failures);
	return 0;
}

static void stop_helpers(void)
{
	struct helper_pool *p = &loaded.pool;

	if (p->release[1] >= 0)
		close(p->release[1]);
	for (int i = 0; i < p->n; i++)
		pthread_join(p->tids[i], NULL);
	if (p->release[0] >= 0)
		close(p->release[0]);
	if (p->have_sem)
		sem_destroy(&p->ready);
	if (p->stacks)
		munmap(p->stacks, p->stacks_len);
	free(p->tids);
	memset(p, 0, sizeof(*p));
	p->release[0] = p->release[1] = -1;
}

/* The bench thread's pid and keys - 1 others, in one batch. */
static int fill_hash(int map_fd, char *err, size_t len)
{
	__u32 count = args->keys, *keys = calloc(args->keys, sizeof(*keys));
	__u64 *vals = calloc(args->keys, sizeof(*vals));
	int ret;

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return cost_setup_failed(err, len, "out of memory");
	}
	keys[0] = gettid();
	for (__u32 i = 1; i < args->keys; i++)
		keys[i] = OTHER_KEY_BASE + i;
	ret = bpf_map_update_batch(map_fd, keys, vals, &count, NULL);
	free(keys);
	free(vals);
	if (ret || count != args->keys)
		return cost_setup_failed(err, len,
					 "filling the hash with %u keys: %s (%u in)",
					 args->keys, errname(ret), count);
	return 0;
}

static int load(char *err, size_t len)
{
	struct bench_cost_task *s = bench_cost_task__open();
	bool ts = task_storage();
	int ret;

	if (!s)
		return cost_setup_failed(err, len, "opening bench_cost_task: %s",
					 errname(errno));
	loaded.skel = s;
	s->rodata->target_tgid = getpid();
	bpf_program__set_autoload(s->progs.pid_hash_xdp, !ts);
	bpf_program__set_autoload(s->progs.pid_hash_tp, !ts);
	bpf_program__set_autoload(s->progs.task_storage_xdp, ts);
	bpf_program__set_autoload(s->progs.task_storage_tp, ts);
	ret = bpf_map__set_max_entries(s->maps.by_pid, ts ? 1 : args->keys);
	if (!ret)
		ret = bench_cost_task__load(s);
	if (ret)
		return cost_setup_failed(err, len, "loading bench_cost_task (%s): %s",
					 args->variant, errname(ret));
	return 0;
}

static long getpgid_trigger(void *ctx __maybe_unused)
{
	trigger_getpgid(TRIGGER_BATCH);
	return TRIGGER_BATCH;
}

static int attach_tp(struct cost_run *r, struct bpf_program *tp)
{
	struct cost_method *m = &r->m[COST_BPF_STATS];

	loaded.link = bpf_program__attach(tp);
	if (!loaded.link) {
		cost_unavailable(m, "attaching %s: %s", bpf_program__name(tp),
				 errname(errno));
		return 0;
	}
	cost_use_bpf_stats(m, bpf_program__fd(tp), bpf_program__name(tp),
			   getpgid_trigger, NULL);
	snprintf(m->how, sizeof(m->how),
		 "tracepoint program %s on syscalls/sys_enter_getpgid, run by the bench's getpgid() calls",
		 bpf_program__name(tp));
	return 0;
}

static int task_setup(struct cost_run *r, char *err, size_t len)
{
	struct bpf_program *xdp, *tp;
	int ret;

	args = r->args;
	ret = load(err, len);
	if (ret)
		return ret;
	xdp = task_storage() ? loaded.skel->progs.task_storage_xdp :
			       loaded.skel->progs.pid_hash_xdp;
	tp = task_storage() ? loaded.skel->progs.task_storage_tp :
			      loaded.skel->progs.pid_hash_tp;
	if (task_storage())
		ret = start_helpers(r, bpf_program__fd(xdp), err, len);
	else
		ret = fill_hash(bpf_map__fd(loaded.skel->maps.by_pid), err, len);
	if (ret || r->m[COST_TEST_RUN].reason[0])
		return ret;
	if (cost_inputs_random(r->inputs, 1, 64, 1))
		return cost_setup_failed(err, len, "out of memory");
	snprintf(r->inputs->what, sizeof(r->inputs->what), "%u key%s (%s)", args->keys,
		 args->keys == 1 ? "" : "s", task_storage() ? "tasks with storage" :
		 "hash entries");
	cost_use_test_run(&r->m[COST_TEST_RUN], bpf_program__fd(xdp),
			  bpf_program__name(xdp), r->inputs);
	if (loaded.skel->bss->misses)
		return cost_setup_failed(err, len,
					 "the program found no room for the bench's own counter");
	return attach_tp(r, tp);
}

static void task_teardown(void)
{
	bpf_link__destroy(loaded.link);
	stop_helpers();
	bench_cost_task__destroy(loaded.skel);
	loaded.link = NULL;
	loaded.skel = NULL;
}

static const struct cost_ops task_cost = {
	.variants = variants,
	.default_keys = 1,
	.config_name = task_config,
	.setup = task_setup,
	.teardown = task_teardown,
};

static const struct bench_ops bench_cost_task = {
	.name = "prog-cost-task",
	.desc = "per-task counter, --variant pid-hash or task-storage, --keys N",
	.opts = (const char *const[]){ "variant", "keys", NULL },
	.check = prog_cost_check,
	.run = prog_cost_run,
	.priv = &task_cost,
};
BENCH_REGISTER(bench_cost_task);
