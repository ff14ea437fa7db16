// SPDX-License-Identifier: GPL-2.0
/*
 * Expected lines against a text: the positive patterns in order, the
 * negative ones between them, the disassembly ones line after line.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_match.h"

/*
 * A pattern as a regular expression: its text literally, except for
 * {{...}} parts, which are (extended) regular expressions.
 */
static int msg_regex(const char *text, regex_t *re)
{
	size_t len = strlen(text);
	char *pat = malloc(len * 2 + 1), *p = pat;
	int err;

	if (!pat)
		return -ENOMEM;
	while (*text) {
		const char *close;

		close = strncmp(text, "{{", 2) ? NULL : strstr(text + 2, "}}");
		if (close) {
			memcpy(p, text + 2, close - text - 2);
			p += close - text - 2;
			text = close + 2;
			continue;
		}
		if (strchr("^$.[]()|*+?{}\\", *text))
			*p++ = '\\';
		*p++ = *text++;
	}
	*p = '\0';
	err = regcomp(re, pat, REG_EXTENDED | REG_NEWLINE);
	free(pat);
	return err ? -EINVAL : 0;
}

/* Find msg in text from *pos: its start (-1 when absent), *pos past it. */
static long find_msg(const char *text, size_t *pos, const char *msg)
{
	regmatch_t m;
	regex_t re;
	long at = -1;

	if (msg_regex(msg, &re)) {
		fprintf(stderr, "bad regular expression in '%s'\n", msg);
		return -1;
	}
	if (!regexec(&re, text + *pos, 1, &m, *pos ? REG_NOTBOL : 0)) {
		at = *pos + m.rm_so;
		*pos += m.rm_eo;
	}
	regfree(&re);
	return at;
}

/* A negative pattern must not appear in text[from, to). */
static bool absent_between(const char *text, size_t from, size_t to,
			   const char *msg)
{
	char *part = strndup(text + from, to - from);
	size_t pos = 0;
	bool ok;

	if (!part)
		return false;
	ok = find_msg(part, &pos, msg) < 0;
	free(part);
	return ok;
}

static int line_of(const char *text, size_t at)
{
	int line = 0;

	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	return line;
}

/* Where the next positive pattern after i matches (or the text's end). */
static size_t next_positive_at(const char *text, size_t pos,
			       const struct spec_msg *msgs, int n, int i)
{
	size_t p = pos, len = strlen(text);
	long at;

	while (i < n && msgs[i].negative)
		i++;
	if (i == n)
		return len;
	at = find_msg(text, &p, msgs[i].text);
	return at >= 0 ? (size_t)at : len;
}

bool match_msgs(const char *what, const struct spec_msg *msgs, int n,
		const char *text)
{
	size_t pos = 0;
	int prev_line = -1;

	for (int i = 0; i < n; i++) {
		const struct spec_msg *msg = &msgs[i];
		size_t end;
		long at;

		if (msg->negative) {
			end = next_positive_at(text, pos, msgs, n, i + 1);
			if (absent_between(text, pos, end, msg->text))
				continue;
			fprintf(stderr, "UNEXPECTED %s FOUND: '%s'\n", what, msg->text);
			return false;
		}
		at = find_msg(text, &pos, msg->text);
		if (at < 0) {
			fprintf(stderr, "EXPECTED %s NOT FOUND: '%s'\n", what, msg->text);
			return false;
		}
		if (msg->next_line && prev_line >= 0 &&
		    line_of(text, at) != prev_line + 1) {
			fprintf(stderr, "%s ON THE WRONG LINE: '%s'", what, msg->text);
			fprintf(stderr, " expected at line %d, found at line %d\n",
				prev_line + 2, line_of(text, at) + 1);
			return false;
		}
		prev_line = line_of(text, at);
	}
	return true;
}
