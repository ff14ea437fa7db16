/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A parsed JSON document (json_reader.h makes one): values, their
 * members, what to ask of them, and how to free them.
 */
#ifndef BPFCHECK_JSON_TREE_H
#define BPFCHECK_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>

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

void json_free(struct json_value *v);
/* Member key of an object, or NULL (also when v is not an object). */
const struct json_value *json_get(const struct json_value *v, const char *key);
/* The member's string, or NULL when missing or not a string. */
const char *json_get_string(const struct json_value *v, const char *key);
/* The member's number into *out: 0, or -1 when missing or not a number. */
int json_get_number(const struct json_value *v, const char *key, double *out);
const char *json_type_name(enum json_type t);

#endif
