/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (RFC 8259) for the bench's own reports: the whole
 * text is parsed into a tree, or refused with the line and column of the
 * first error.  Strings must be valid UTF-8 and may not contain U+0000;
 * numbers must fit a double; nesting is limited to JSON_READER_MAX_DEPTH.
 * In an object with a key twice, json_get() finds the first.
 */
#ifndef BPFCHECK_JSON_READER_H
#define BPFCHECK_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_READER_MAX_DEPTH	64
/* Files larger than this are refused (bench reports are far smaller). */
#define JSON_READER_MAX_FILE	(64 << 20)

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_member;

struct json_value {
	enum json_type type;
	union {
		bool boolean;
		double number;
		char *string;				/* NUL-terminated */
		struct {
			struct json_value *items;
			size_t n;
		} array;
		struct {
			struct json_member *members;
			size_t n;
		} object;
	};
};

struct json_member {
	char *key;
	struct json_value value;
};

/*
 * Parse len bytes of text.  NULL on error, with a one-line reason ("line
 * 3, column 7: expected ',' or '}'") in err, or on allocation failure.
 */
struct json_value *json_parse(const char *text, size_t len, char *err,
			      size_t err_len);
/* Read and parse a file; the reason names the file's problem. */
struct json_value *json_parse_file(const char *path, char *err, size_t err_len);
void json_free(struct json_value *v);

/* Member key of an object, or NULL (also when v is not an object). */
const struct json_value *json_get(const struct json_value *v, const char *key);
/* The member's string, or NULL when missing or not a string. */
const char *json_get_string(const struct json_value *v, const char *key);
/* The member's number into *out: 0, or -1 when missing or not a number. */
int json_get_number(const struct json_value *v, const char *key, double *out);
const char *json_type_name(enum json_type t);

#endif
