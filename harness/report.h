/* SPDX-License-Identifier: GPL-2.0 */
/* Reporters: human text, KTAP (kselftest) and the JSON summary file. */
#ifndef BPFCHECK_REPORT_H
#define BPFCHECK_REPORT_H

#include <stdio.h>

#include "env_info.h"
#include "outcome.h"
#include "summary.h"

/* Text: a line per subtest and test as each finishes, then a summary. */
void report_text_test(FILE *out, const struct test_result *r, int verbosity);
void report_text_end(FILE *out, const struct test_result *results, int n,
		     const struct summary *s);

/* KTAP version 1 with subtests as nested blocks. */
void report_ktap_begin(FILE *out, int planned, const struct env_info *env);
void report_ktap_test(FILE *out, int index, const struct test_result *r,
		      int verbosity);
void report_ktap_end(FILE *out, const struct summary *s);

/* The -J summary document. 0 or -EIO. */
int report_json_write(FILE *f, const struct env_info *env,
		      const struct test_result *results, int n,
		      const struct summary *s);

/* JUnit XML for CI dashboards (--junit). 0 or -EIO. */
int report_junit_write(FILE *f, const struct test_result *results, int n);

#endif
