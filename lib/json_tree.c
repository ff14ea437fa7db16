// SPDX-License-Identifier: GPL-2.0
/* A parsed JSON document: freeing it, reading members (json_tree.h). */
#include <stdlib.h>
#include <string.h>

#include "json_tree.h"
#include "util.h"

static void free_value(struct json_value *v)
{
	switch (v->type) {
	case JSON_STRING:
		free(v->string);
		break;
	case JSON_ARRAY:
		for (size_t i = 0; i < v->array.n; i++)
			free_value(&v->array.items[i]);
		free(v->array.items);
		break;
	case JSON_OBJECT:
		for (size_t i = 0; i < v->object.n; i++) {
			free(v->object.members[i].key);
			free_value(&v->object.members[i].value);
		}
		free(v->object.members);
		break;
	default:
		break;
	}
}

void json_free(struct json_value *v)
{
	if (!v)
		return;
	free_value(v);
	free(v);
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->object.n; i++)
		if (!strcmp(v->object.members[i].key, key))
			return &v->object.members[i].value;
	return NULL;
}

const char *json_get_string(const struct json_value *v, const char *key)
{
	const struct json_value *m = json_get(v, key);

	return m && m->type == JSON_STRING ? m->string : NULL;
}

int json_get_number(const struct json_value *v, const char *key, double *out)
{
	const struct json_value *m = json_get(v, key);

	if (!m || m->type != JSON_NUMBER)
		return -1;
	*out = m->number;
	return 0;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "a boolean",
		[JSON_NUMBER] = "a number", [JSON_STRING] = "a string",
		[JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	return t < ARRAY_SIZE(names) ? names[t] : "?";
}
