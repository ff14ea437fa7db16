// SPDX-License-Identifier: GPL-2.0
/*
 * What a running benchmark calls: the stop flags, the first failure, the
 * threads' records, the trigger and the signal that ends the run.  The
 * loop that drives them is run.c.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "trigger.h"

static int stop_producers;
static int stop_consumers;

static struct bench_thread producers[BENCH_MAX_THREADS];
static struct bench_thread consumers[BENCH_MAX_THREADS];

static volatile sig_atomic_t got_signal;

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static int failed;
static char fail_reason[256];

const struct bench_ops *bench_nth(int i)
{
	return i < __stop_bench_ops - __start_bench_ops ? __start_bench_ops[i] : NULL;
}

bool bench_takes(const struct bench_ops *b, const char *opt)
{
	for (const char *const *o = b->opts; o && *o; o++) {
		if (!strcmp(*o, opt))
			return true;
	}
	return false;
}

const struct bench_command *bench_find_command(int argc, char **argv)
{
	if (argc < 2)
		return NULL;
	for (const struct bench_command *c = __start_bench_commands;
	     c < __stop_bench_commands; c++) {
		if (!strcmp(c->name, argv[1]))
			return c;
	}
	return NULL;
}

bool bench_producers_done(void)
{
	return __atomic_load_n(&stop_producers, __ATOMIC_RELAXED);
}

bool bench_consumers_done(void)
{
	return __atomic_load_n(&stop_consumers, __ATOMIC_RELAXED);
}

void bench_stop_producers(void)
{
	__atomic_store_n(&stop_producers, 1, __ATOMIC_RELAXED);
}

void bench_stop_consumers(void)
{
	__atomic_store_n(&stop_consumers, 1, __ATOMIC_RELAXED);
}

void bench_trigger(void)
{
	trigger_getpgid(1);
}

struct bench_thread *bench_producer(int i)
{
	return &producers[i];
}

struct bench_thread *bench_consumer(int i)
{
	return &consumers[i];
}

int bench_signal(void)
{
	return got_signal;
}

void bench_fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	if (!failed) {
		va_start(ap, fmt);
		vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
		va_end(ap);
		__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&fail_lock);
	bench_stop_producers();
	bench_stop_consumers();
}

const char *bench_failed(void)
{
	return __atomic_load_n(&failed, __ATOMIC_RELAXED) ? fail_reason : NULL;
}

int bench_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * No SA_RESTART: the main thread's sleep must end at Ctrl-C.  A second
 * Ctrl-C kills the process at once, should stopping hang.
 */
void bench_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
