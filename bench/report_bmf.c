// SPDX-License-Identifier: GPL-2.0
/* Bencher Metric Format reports. */
#include <string.h>

#include "json_writer.h"
#include "rates.h"
#include "report_bmf.h"
#include "report_json.h"

/*
 * Bencher Metric Format: the run filed under its configuration's name,
 * throughput in events/s with mean -/+ one sample stddev as the bounds.
 */
void report_bmf_write(struct json_writer *w, const struct bench_env *env,
		      const void *result)
{
	const struct bench_result *r = result;
	struct stats_summary s;
	char name[128];

	report_config_name(env, name, sizeof(name));
	if (rates_summarize(r, rate_hits, 0, &s))
		memset(&s, 0, sizeof(s));
	json_begin_object(w);
	report_bmf_entry(w, name, "throughput", &s);
	json_end_object(w);
}

void report_bmf_entry(struct json_writer *w, const char *bench, const char *measure,
		      const struct stats_summary *s)
{
	json_key(w, bench);
	json_begin_object(w);
	json_key(w, measure);
	json_begin_object(w);
	json_kv_double(w, "value", s->mean);
	json_kv_double(w, "lower_value", s->mean > s->stddev ? s->mean - s->stddev : 0);
	json_kv_double(w, "upper_value", s->mean + s->stddev);
	json_end_object(w);
	json_end_object(w);
}
