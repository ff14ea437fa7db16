// SPDX-License-Identifier: GPL-2.0
/*
 * A recursive-descent JSON reader (json_reader.h).  Every value is
 * checked against the RFC 8259 grammar before it is converted; the first
 * error stops the parse and is reported with its line and column.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_reader.h"
#include "utf8.h"
#include "util.h"

struct parser {
	const char *start;
	const char *p;
	const char *end;	/* *end is a NUL the text does not contain */
	int depth;
	char *err;
	size_t err_len;
	bool failed;
};

static int parse_value(struct parser *ps, struct json_value *v);

static int fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	int line = 1, col = 1;
	size_t off;
	va_list ap;

	if (ps->failed)
		return -1;
	ps->failed = true;
	for (const char *c = ps->start; c < ps->p; c++) {
		if (*c == '\n')
			line++, col = 1;
		else if ((*c & 0xc0) != 0x80)	/* count characters, not bytes */
			col++;
	}
	off = snprintf(ps->err, ps->err_len, "line %d, column %d: ", line, col);
	if (off < ps->err_len) {
		va_start(ap, fmt);
		vsnprintf(ps->err + off, ps->err_len - off, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* What is at the error position, for messages: a character or "the end". */
static const char *found(const struct parser *ps, char *buf, size_t len)
{
	unsigned char c = *ps->p;

	if (ps->p >= ps->end)
		return "the end of the text";
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int expect_word(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "expected '%s'", word);
	ps->p += n;
	return 0;
}

static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int parse_number(struct parser *ps, struct json_value *v)
{
	const char *s = ps->p;
	char buf[32], *copy, *end;
	size_t n;

	if (*s == '-')
		s++;
	n = digits(s);
	if (!n || (s[0] == '0' && n > 1))
		return fail(ps, "malformed number (expected a digit; no leading zeros)");
	s += n;
	if (*s == '.') {
		n = digits(++s);
		if (!n)
			return fail(ps, "malformed number (expected digits after '.')");
		s += n;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		n = digits(s);
		if (!n)
			return fail(ps, "malformed number (expected digits in the exponent)");
		s += n;
	}
	n = s - ps->p;
	copy = n < sizeof(buf) ? buf : strndup(ps->p, n);
	if (!copy)
		return fail(ps, "out of memory");
	if (copy == buf) {
		memcpy(buf, ps->p, n);
		buf[n] = '\0';
	}
	errno = 0;
	v->type = JSON_NUMBER;
	v->number = strtod(copy, &end);
	if (copy != buf)
		free(copy);
	if (isinf(v->number))
		return fail(ps, "number out of range of a double");
	ps->p = s;
	return 0;
}

static int hex4(struct parser *ps, const char *s, unsigned int *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return fail(ps, "expected 4 hex digits after \\u");
		*out = *out << 4 | d;
	}
	return 0;
}

/* \uXXXX at ps->p (after the backslash and 'u'), with surrogate pairs. */
static int parse_u_escape(struct parser *ps, char *out, size_t *n)
{
	unsigned int cp, low;

	if (hex4(ps, ps->p, &cp))
		return -1;
	ps->p += 4;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, "\\u%04x is a lone low surrogate", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->p[0] != '\\' || ps->p[1] != 'u' || hex4(ps, ps->p + 2, &low) ||
		    low < 0xdc00 || low > 0xdfff)
			return fail(ps, "\\u%04x is a high surrogate without its low half",
				    cp);
		ps->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
	}
	if (!cp)
		return fail(ps, "\\u0000 is not supported in strings");
	*n += utf8_encode(out + *n, cp);
	return 0;
}

static int parse_escape(struct parser *ps, char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	char c = *ps->p;

	if (c == 'u') {
		ps->p++;
		return parse_u_escape(ps, out, n);
	}
	hit = c ? strchr(from, c) : NULL;
	if (!hit)
		return fail(ps, "unknown escape '\\%c'", c >= 0x20 && c < 0x7f ? c : '?');
	out[(*n)++] = to[hit - from];
	ps->p++;
	return 0;
}

/*
 * A string at ps->p (on the opening quote) into a new NUL-terminated
 * buffer.  The decoded form is never longer than the text, so the buffer
 * is sized by the text up to the end.
 */
static int parse_string(struct parser *ps, char **out)
{
	char *buf = malloc(ps->end - ps->p);
	size_t n = 0;
	int len;

	if (!buf)
		return fail(ps, "out of memory");
	ps->p++;
	for (;;) {
		unsigned char c = *ps->p;

		if (ps->p >= ps->end) {
			fail(ps, "unterminated string");
			break;
		}
		if (c == '"') {
			ps->p++;
			buf[n] = '\0';
			*out = buf;
			return 0;
		}
		if (c < 0x20) {
			fail(ps, "control character 0x%02x in a string", c);
			break;
		}
		if (c == '\\') {
			ps->p++;
			if (parse_escape(ps, buf, &n))
				break;
			continue;
		}
		len = utf8_seq_len((const unsigned char *)ps->p);
		if (!len) {
			fail(ps, "invalid UTF-8 in a string");
			break;
		}
		memcpy(buf + n, ps->p, len);
		n += len;
		ps->p += len;
	}
	free(buf);
	return -1;
}

/*
 * Room for element n + 1 of an array of n elements of size sz: the
 * capacity is 4, 8, 16 ... so it grows when n is 0 or such a power of 2.
 * NULL when out of memory (items is left as it was).
 */
static void *grow(void *items, size_t n, size_t sz)
{
	if (n && (n < 4 || (n & (n - 1))))
		return items;
	return reallocarray(items, n ? n * 2 : 4, sz);
}

static int parse_member(struct parser *ps, struct json_member *m)
{
	char what[16];

	skip_space(ps);
	if (*ps->p != '"')
		return fail(ps, "expected a string key, found %s",
			    found(ps, what, sizeof(what)));
	if (parse_string(ps, &m->key))
		return -1;
	skip_space(ps);
	if (*ps->p != ':')
		return fail(ps, "expected ':' after a key, found %s",
			    found(ps, what, sizeof(what)));
	ps->p++;
	return parse_value(ps, &m->value);
}

/* Elements are counted before they are parsed: a failure frees what it took. */
static int add_item(struct parser *ps, struct json_value *v)
{
	struct json_value *items = grow(v->array.items, v->array.n, sizeof(*items));

	if (!items)
		return fail(ps, "out of memory");
	v->array.items = items;
	items[v->array.n++].type = JSON_NULL;
	return parse_value(ps, &items[v->array.n - 1]);
}

static int add_member(struct parser *ps, struct json_value *v)
{
	struct json_member *m = grow(v->object.members, v->object.n, sizeof(*m));

	if (!m)
		return fail(ps, "out of memory");
	v->object.members = m;
	m += v->object.n++;
	m->key = NULL;
	m->value.type = JSON_NULL;
	return parse_member(ps, m);
}

/* From the opening bracket: elements added by add, comma-separated, to close. */
static int parse_elements(struct parser *ps, struct json_value *v, char close,
			  int (*add)(struct parser *, struct json_value *))
{
	char what[16];

	ps->p++;
	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (add(ps, v))
			return -1;
		skip_space(ps);
		if (*ps->p == close) {
			ps->p++;
			return 0;
		}
		if (*ps->p != ',')
			return fail(ps, "expected ',' or '%c', found %s", close,
				    found(ps, what, sizeof(what)));
		ps->p++;
	}
}

static int parse_array(struct parser *ps, struct json_value *v)
{
	v->type = JSON_ARRAY;
	v->array.items = NULL;
	v->array.n = 0;
	return parse_elements(ps, v, ']', add_item);
}

static int parse_object(struct parser *ps, struct json_value *v)
{
	v->type = JSON_OBJECT;
	v->object.members = NULL;
	v->object.n = 0;
	return parse_elements(ps, v, '}', add_member);
}

static int parse_nested(struct parser *ps, struct json_value *v,
			int (*fn)(struct parser *, struct json_value *))
{
	int ret;

	if (++ps->depth > JSON_READER_MAX_DEPTH)
		return fail(ps, "nested deeper than %d levels", JSON_READER_MAX_DEPTH);
	ret = fn(ps, v);
	ps->depth--;
	return ret;
}

static int parse_value(struct parser *ps, struct json_value *v)
{
	char what[16];

	v->type = JSON_NULL;
	skip_space(ps);
	switch (*ps->p) {
	case '{':
		return parse_nested(ps, v, parse_object);
	case '[':
		return parse_nested(ps, v, parse_array);
	case '"':
		v->type = JSON_STRING;
		v->string = NULL;
		return parse_string(ps, &v->string);
	case 't':
		v->type = JSON_BOOL;
		v->boolean = true;
		return expect_word(ps, "true");
	case 'f':
		v->type = JSON_BOOL;
		v->boolean = false;
		return expect_word(ps, "false");
	case 'n':
		return expect_word(ps, "null");
	}
	if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
		return parse_number(ps, v);
	return fail(ps, "expected a value, found %s", found(ps, what, sizeof(what)));
}

struct json_value *json_parse(const char *text, size_t len, char *err,
			      size_t err_len)
{
	struct json_value *v = calloc(1, sizeof(*v));
	char *copy = malloc(len + 1);
	struct parser ps = { .err = err, .err_len = err_len };
	char what[16];

	if (!v || !copy) {
		snprintf(err, err_len, "out of memory");
		goto fail;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	ps.start = ps.p = copy;
	ps.end = copy + len;
	if (memchr(copy, '\0', len)) {
		ps.p = memchr(copy, '\0', len);
		fail(&ps, "NUL byte in the text");
		goto fail;
	}
	if (parse_value(&ps, v))
		goto fail;
	skip_space(&ps);
	if (ps.p < ps.end) {
		fail(&ps, "unexpected %s after the value", found(&ps, what, sizeof(what)));
		goto fail;
	}
	free(copy);
	return v;
fail:
	free(copy);
	json_free(v);
	return NULL;
}
