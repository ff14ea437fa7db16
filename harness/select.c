// SPDX-License-Identifier: GPL-2.0
/*
 * Selection semantics (as the kernel's test_progs):
 * - a test runs if no allow entry exists or one matches its name, and no
 *   deny entry without a subtest part matches it;
 * - a subtest runs if its test runs, some allow entry matches both parts
 *   (an entry without a subtest part matches every subtest), and no deny
 *   entry matches both parts;
 * - -n numbers narrow the selection further (they are ANDed with names).
 * -t/-b match substrings, -a/-d match shell globs.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "select.h"

struct name_entry {
	char *test;
	char *subtest;		/* NULL: every subtest */
	bool glob;
	bool deny;
};

struct num_entry {
	int test_lo, test_hi;
	bool has_sub;
	int sub_lo, sub_hi;
};

struct selection {
	struct name_entry *names;
	int n_names;
	int n_allow;
	struct num_entry *nums;
	int n_nums;
};

struct selection *selection_new(void)
{
	return calloc(1, sizeof(struct selection));
}

void selection_free(struct selection *sel)
{
	if (!sel)
		return;
	for (int i = 0; i < sel->n_names; i++) {
		free(sel->names[i].test);
		free(sel->names[i].subtest);
	}
	free(sel->names);
	free(sel->nums);
	free(sel);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int add_name(struct selection *sel, enum sel_kind kind, char *item,
		    char *err, size_t errlen)
{
	struct name_entry *tmp, *e;
	char *slash = strchr(item, '/');

	if (!*item || slash == item || (slash && !slash[1])) {
		snprintf(err, errlen, "bad test selector '%s' (expected NAME or NAME/SUBTEST)",
			 item);
		return -1;
	}
	tmp = realloc(sel->names, (sel->n_names + 1) * sizeof(*tmp));
	if (!tmp)
		goto oom;
	sel->names = tmp;
	e = &sel->names[sel->n_names];
	memset(e, 0, sizeof(*e));
	e->glob = kind == SEL_ALLOW_GLOB || kind == SEL_DENY_GLOB;
	e->deny = kind == SEL_DENY_SUBSTR || kind == SEL_DENY_GLOB;
	e->test = slash ? strndup(item, slash - item) : strdup(item);
	e->subtest = slash ? strdup(slash + 1) : NULL;
	if (!e->test || (slash && !e->subtest)) {
		free(e->test);
		free(e->subtest);
		goto oom;
	}
	sel->n_names++;
	if (!e->deny)
		sel->n_allow++;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Split a comma list and hand each non-empty, trimmed item to add_name. */
static int add_list(struct selection *sel, enum sel_kind kind,
		    const char *list, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		tok = trim(tok);
		if (*tok)
			ret = add_name(sel, kind, tok, err, errlen);
	}
	free(copy);
	return ret;
}

/* Whether a selection file's line (comment removed) names anything. */
static bool names_something(const char *line)
{
	return line[strspn(line, " \t\r\n,")] != '\0';
}

static int add_file(struct selection *sel, enum sel_kind kind,
		    const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	bool named = false;
	int ret = 0;
	FILE *f;

	/* A directory reads as empty: it would select the whole suite. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISCHR(st.st_mode)) {
		snprintf(err, errlen,
			 "selection file '%s' is not a file (expected @FILE with one name or pattern a line)",
			 path);
		return -1;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read selection file '%s': %s",
			 path, strerror(errno));
		return -1;
	}
	while (!ret && getline(&line, &cap, f) >= 0) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = '\0';
		named |= names_something(line);
		ret = add_list(sel, kind, line, err, errlen);
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "cannot read selection file '%s': %s",
			 path, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	/* An empty allow list would run everything; an empty deny list is fine. */
	if (!ret && !named && (kind == SEL_ALLOW_SUBSTR || kind == SEL_ALLOW_GLOB)) {
		snprintf(err, errlen,
			 "selection file '%s' names no test (it is empty or only comments)", path);
		ret = -1;
	}
	return ret;
}

int selection_add(struct selection *sel, enum sel_kind kind,
		  const char *spec, char *err, size_t errlen)
{
	if (spec[0] == '@')
		return add_file(sel, kind, spec + 1, err, errlen);
	return add_list(sel, kind, spec, err, errlen);
}

/* Parse "N" or "N-M" (both positive, N <= M) from the whole of s. */
static int parse_range(const char *s, int *lo, int *hi)
{
	char *end;
	long a, b;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	a = strtol(s, &end, 10);
	b = a;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -1;
		b = strtol(end + 1, &end, 10);
	}
	if (*end || errno || a < 1 || b < a || b > INT_MAX)
		return -1;
	*lo = a;
	*hi = b;
	return 0;
}

static int add_number_item(struct selection *sel, char *item)
{
	struct num_entry e = { 0 }, *tmp;
	char *slash = strchr(item, '/');

	if (slash) {
		*slash = '\0';
		if (parse_range(slash + 1, &e.sub_lo, &e.sub_hi))
			return -1;
		e.has_sub = true;
	}
	if (parse_range(item, &e.test_lo, &e.test_hi))
		return -1;
	tmp = realloc(sel->nums, (sel->n_nums + 1) * sizeof(*tmp));
	if (!tmp)
		return -1;
	sel->nums = tmp;
	sel->nums[sel->n_nums++] = e;
	return 0;
}

int selection_add_numbers(struct selection *sel, const char *spec,
			  char *err, size_t errlen)
{
	char *copy = strdup(spec), *item, *next;
	int ret = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* strsep, not strtok: an empty item ("1,,3") is an error. */
	next = copy;
	while (!ret && (item = strsep(&next, ",")))
		ret = add_number_item(sel, trim(item));
	free(copy);
	if (ret) {
		snprintf(err, errlen, "bad test number list '%s' (expected e.g. 1,3-5 or 2/1-3)",
			 spec);
		return -1;
	}
	return 0;
}

bool selection_names_subtests(const struct selection *sel)
{
	for (int i = 0; i < sel->n_names; i++)
		if (sel->names[i].subtest)
			return true;
	for (int i = 0; i < sel->n_nums; i++)
		if (sel->nums[i].has_sub)
			return true;
	return false;
}

static bool match(const char *pattern, const char *name, bool glob)
{
	if (glob)
		return fnmatch(pattern, name, 0) == 0;
	return strstr(name, pattern) != NULL;
}

static bool numbers_allow(const struct selection *sel, int test_num,
			  int sub_num)
{
	if (!sel->n_nums)
		return true;
	for (int i = 0; i < sel->n_nums; i++) {
		const struct num_entry *e = &sel->nums[i];

		if (test_num < e->test_lo || test_num > e->test_hi)
			continue;
		if (!e->has_sub || sub_num < 0)
			return true;
		if (sub_num >= e->sub_lo && sub_num <= e->sub_hi)
			return true;
	}
	return false;
}

bool selection_test(const struct selection *sel, const char *name, int num)
{
	bool allowed = sel->n_allow == 0;

	for (int i = 0; i < sel->n_names; i++) {
		const struct name_entry *e = &sel->names[i];

		if (!match(e->test, name, e->glob))
			continue;
		if (e->deny && !e->subtest)
			return false;
		if (!e->deny)
			allowed = true;
	}
	return allowed && numbers_allow(sel, num, -1);
}

bool selection_subtest(const struct selection *sel, const char *test,
		       int test_num, const char *subtest, int subtest_num)
{
	bool allowed = sel->n_allow == 0;

	for (int i = 0; i < sel->n_names; i++) {
		const struct name_entry *e = &sel->names[i];
		bool hit = match(e->test, test, e->glob) &&
			   (!e->subtest || match(e->subtest, subtest, e->glob));

		if (!hit)
			continue;
		if (e->deny)
			return false;
		allowed = true;
	}
	return allowed && numbers_allow(sel, test_num, subtest_num);
}
