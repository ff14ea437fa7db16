/* SPDX-License-Identifier: GPL-2.0 */
/* A small streaming JSON writer: nesting, commas and string escaping. */
#ifndef BPFCHECK_JSON_WRITER_H
#define BPFCHECK_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
	bool error;		/* nesting misuse; output is not valid */
};

void json_init(struct json_writer *w, FILE *f);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_int(struct json_writer *w, long long v);
void json_uint(struct json_writer *w, unsigned long long v);
void json_double(struct json_writer *w, double v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

/* Shorthands for "key": value members. */
void json_kv_string(struct json_writer *w, const char *k, const char *v);
void json_kv_int(struct json_writer *w, const char *k, long long v);
void json_kv_bool(struct json_writer *w, const char *k, bool v);
void json_kv_uint(struct json_writer *w, const char *k, unsigned long long v);
void json_kv_double(struct json_writer *w, const char *k, double v);

#endif
