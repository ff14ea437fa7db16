// SPDX-License-Identifier: GPL-2.0
/*
 * Strings are written as valid UTF-8 JSON whatever bytes they hold: logs
 * can contain anything a test printed, so control characters are escaped
 * and bytes that are not well-formed UTF-8 become U+FFFD.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "json_writer.h"
#include "utf8.h"

void json_init(struct json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

/* Separator before a value or key at the current level. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->need_comma[w->depth])
		fputc(',', w->f);
	w->need_comma[w->depth] = true;
}

static void open_level(struct json_writer *w, char c)
{
	before_value(w);
	fputc(c, w->f);
	if (w->depth + 1 >= JSON_MAX_DEPTH) {
		w->error = true;
		return;
	}
	w->need_comma[++w->depth] = false;
}

static void close_level(struct json_writer *w, char c)
{
	if (w->depth == 0 || w->after_key)
		w->error = true;
	else
		w->depth--;
	fputc(c, w->f);
}

void json_begin_object(struct json_writer *w) { open_level(w, '{'); }
void json_end_object(struct json_writer *w) { close_level(w, '}'); }
void json_begin_array(struct json_writer *w) { open_level(w, '['); }
void json_end_array(struct json_writer *w) { close_level(w, ']'); }

static void write_escaped(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n = utf8_seq_len(s);

		if (n == 0) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fprintf(f, "\\u%04x", *s);
			else
				fputc(*s, f);
		}
		s++;
	}
	fputc('"', f);
}

void json_key(struct json_writer *w, const char *key)
{
	before_value(w);
	write_escaped(w->f, key);
	fputc(':', w->f);
	w->after_key = true;
}

void json_string(struct json_writer *w, const char *s)
{
	before_value(w);
	if (s)
		write_escaped(w->f, s);
	else
		fputs("null", w->f);
}

void json_int(struct json_writer *w, long long v)
{
	before_value(w);
	fprintf(w->f, "%lld", v);
}

void json_uint(struct json_writer *w, unsigned long long v)
{
	before_value(w);
	fprintf(w->f, "%llu", v);
}

void json_double(struct json_writer *w, double v)
{
	before_value(w);
	/* JSON has no NaN or infinity. */
	if (isfinite(v))
		fprintf(w->f, "%.17g", v);
	else
		fputs("null", w->f);
}

void json_bool(struct json_writer *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_writer *w)
{
	before_value(w);
	fputs("null", w->f);
}

void json_kv_string(struct json_writer *w, const char *k, const char *v)
{
	json_key(w, k);
	json_string(w, v);
}

void json_kv_int(struct json_writer *w, const char *k, long long v)
{
	json_key(w, k);
	json_int(w, v);
}

void json_kv_bool(struct json_writer *w, const char *k, bool v)
{
	json_key(w, k);
	json_bool(w, v);
}

void json_kv_uint(struct json_writer *w, const char *k, unsigned long long v)
{
	json_key(w, k);
	json_uint(w, v);
}

void json_kv_double(struct json_writer *w, const char *k, double v)
{
	json_key(w, k);
	json_double(w, v);
}
