/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a clock as one number, for the harness, the tests and the bench. */
#ifndef BPFCHECK_CLOCK_H
#define BPFCHECK_CLOCK_H

#include <time.h>

static inline long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline long long now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static inline long long now_ms(void)
{
	return now_ns() / 1000000;
}

#endif
