// SPDX-License-Identifier: GPL-2.0
/*
 * A test's result from what its process left: the shared page (subtests,
 * outcomes, reasons, failures) and the captured log, cut into each
 * subtest's part and the test's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "collect.h"

/* Log text outside every subtest's [log_start, log_end) range. */
static char *test_level_log(const struct shared_state *st, const char *all)
{
	size_t len = strlen(all), pos = 0, out = 0;
	char *buf = malloc(len + 1);

	if (!buf)
		return NULL;
	for (int i = 0; i < st->recorded; i++) {
		size_t start = st->sub[i].log_start, end = st->sub[i].log_end;

		if (end <= start || start < pos || end > len)
			continue;
		memcpy(buf + out, all + pos, start - pos);
		out += start - pos;
		pos = end;
	}
	memcpy(buf + out, all + pos, len - pos);
	out += len - pos;
	buf[out] = '\0';
	return buf;
}

static int collect_subtests(struct shared_state *st, bool list_only,
			    struct test_result *res, const char *all)
{
	size_t len = strlen(all);

	res->subtests = calloc(st->recorded ? st->recorded : 1,
			       sizeof(*res->subtests));
	if (!res->subtests)
		return -ENOMEM;
	res->n_subtests = st->recorded;
	for (int i = 0; i < st->recorded; i++) {
		struct shared_subtest *s = &st->sub[i];
		struct subtest_result *r = &res->subtests[i];
		size_t start = s->log_start, end = s->log_end;

		/* A subtest cut short by a crash owns the log to the end. */
		if (s->log_end < 0) {
			r->cut_short = true;
			end = len;
			s->log_end = len;
			s->end_ns = now_ns();
			if (!list_only)
				s->failed = true;
		}
		start = start > len ? len : start;
		end = end > len ? len : end;
		snprintf(r->name, sizeof(r->name), "%s", s->name);
		r->number = s->number;
		r->failure = s->failure;
		r->libbpf_err = s->libbpf_err;
		r->duration_ns = s->end_ns - s->start_ns;
		r->outcome = s->failed ? OUTCOME_FAIL :
			     s->skipped ? OUTCOME_SKIP : OUTCOME_PASS;
		if (r->outcome == OUTCOME_SKIP)
			snprintf(r->skip_reason, REASON_MAX, "%s",
				 s->skip_reason[0] ? s->skip_reason :
				 "skipped by the test (no reason given)");
		r->log = strndup(all + start, end > start ? end - start : 0);
		if (!r->log)
			return -ENOMEM;
		res->subtests_passed += r->outcome == OUTCOME_PASS;
		res->subtests_skipped += r->outcome == OUTCOME_SKIP;
		res->subtests_failed += r->outcome == OUTCOME_FAIL;
	}
	return 0;
}

/* Skip reason when every subtest skipped: theirs if they agree. */
static void all_skipped_reason(struct test_result *res)
{
	const char *first = res->subtests[0].skip_reason;

	for (int i = 1; i < res->n_subtests; i++) {
		if (strcmp(first, res->subtests[i].skip_reason)) {
			snprintf(res->skip_reason, REASON_MAX,
				 "all %d subtests skipped", res->n_subtests);
			return;
		}
	}
	snprintf(res->skip_reason, REASON_MAX, "%s", first);
}

void collect_outcome(const struct shared_state *st, struct test_result *res)
{
	res->skipped_itself = st->skipped;
	res->failure = st->failure;
	res->libbpf_err = st->libbpf_err;
	if (st->failed || res->crash || res->leaks || res->subtests_failed) {
		res->outcome = OUTCOME_FAIL;
	} else if (st->skipped) {
		res->outcome = OUTCOME_SKIP;
		snprintf(res->skip_reason, REASON_MAX, "%s",
			 st->skip_reason[0] ? st->skip_reason :
			 "skipped by the test (no reason given)");
	} else if (res->n_subtests && !res->subtests_passed) {
		res->outcome = OUTCOME_SKIP;
		all_skipped_reason(res);
	} else if (!res->n_subtests && st->started) {
		res->outcome = OUTCOME_SKIP;
		snprintf(res->skip_reason, REASON_MAX,
			 "no subtest matched the selection");
	} else {
		res->outcome = OUTCOME_PASS;
	}
}

int collect_parts(struct shared_state *st, bool list_only, const char *all,
		  struct test_result *res)
{
	int err = collect_subtests(st, list_only, res, all);

	if (err)
		return err;
	res->log = test_level_log(st, all);
	return res->log ? 0 : -ENOMEM;
}

/* A watchdog kill: the running subtest, if any, is what timed out. */
void collect_timeout(struct test_result *res, int timeout_s)
{
	char *msg = NULL;

	res->outcome = OUTCOME_TIMEOUT;
	if (asprintf(&msg, "timed out after %d s (watchdog -w %d)", timeout_s,
		     timeout_s) < 0)
		msg = NULL;
	free(res->crash);
	res->crash = msg;
	for (int i = 0; i < res->n_subtests; i++) {
		struct subtest_result *s = &res->subtests[i];

		if (s->outcome == OUTCOME_FAIL && s->cut_short) {
			s->outcome = OUTCOME_TIMEOUT;
			res->subtests_failed--;
		}
	}
}
