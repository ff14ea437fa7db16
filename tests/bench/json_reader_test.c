// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/json_reader.c, built with ASan and UBSan (leaks on
 * error paths show as sanitizer reports): valid documents read back
 * exactly, and every malformed one is refused with the expected line,
 * column and reason.  Prints "ok N - what" / "not ok N - what" and
 * "json-reader-test: P passed, F failed"; exits non-zero on a failure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_file.h"
#include "json_reader.h"
#include "util.h"

static int n_checks, n_failed;

static void result(bool ok, const char *what, const char *got, const char *want)
{
	n_checks++;
	if (!ok)
		n_failed++;
	printf("%sok %d - %s", ok ? "" : "not ", n_checks, what);
	if (!ok)
		printf(": got '%s', want '%s'", got, want);
	printf("\n");
}

static void check_str(const char *what, const char *got, const char *want)
{
	result(got && !strcmp(got, want), what, got ? got : "(null)", want);
}

static void check_num(const char *what, const struct json_value *obj,
		      const char *key, double want)
{
	char g[64], w[64];
	double got = -12345;
	int err = json_get_number(obj, key, &got);

	snprintf(g, sizeof(g), "%.17g (error %d)", got, err);
	snprintf(w, sizeof(w), "%.17g (error 0)", want);
	result(!err && got == want, what, g, w);
}

static void check_true(const char *what, bool ok)
{
	result(ok, what, ok ? "true" : "false", "true");
}

static void test_valid(void)
{
	const char *text =
		"  {\"n\": -0.5e1, \"zero\": 0, \"big\": 1E+2, \"frac\": 0.125,\n"
		"   \"s\": \"a\\\"b\\\\c\\/d\\n\\t\", \"u\": \"\\u00e9\\ud83d\\ude00\",\n"
		"   \"raw\": \"\xc3\xa9\", \"t\": true, \"f\": false, \"nul\": null,\r\n"
		"   \"arr\": [1, [2, []], {}], \"dup\": 1, \"dup\": 2}\n \t";
	const struct json_value *arr;
	struct json_value *v;
	char err[128] = "";

	v = json_parse(text, strlen(text), err, sizeof(err));
	check_true("a valid document parses", v != NULL);
	if (!v) {
		printf("# %s\n", err);
		return;
	}
	check_num("negative number with exponent", v, "n", -5);
	check_num("zero", v, "zero", 0);
	check_num("exponent with sign", v, "big", 100);
	check_num("fraction", v, "frac", 0.125);
	check_str("escapes", json_get_string(v, "s"), "a\"b\\c/d\n\t");
	check_str("\\u escapes and a surrogate pair become UTF-8",
		  json_get_string(v, "u"), "\xc3\xa9\xf0\x9f\x98\x80");
	check_str("raw UTF-8 kept", json_get_string(v, "raw"), "\xc3\xa9");
	check_true("true", json_get(v, "t")->type == JSON_BOOL && json_get(v, "t")->boolean);
	check_true("false", json_get(v, "f")->type == JSON_BOOL && !json_get(v, "f")->boolean);
	check_true("null", json_get(v, "nul")->type == JSON_NULL);
	arr = json_get(v, "arr");
	check_true("nested arrays and an empty object",
		   arr && arr->type == JSON_ARRAY && arr->array.n == 3 &&
		   arr->array.items[1].type == JSON_ARRAY &&
		   arr->array.items[1].array.n == 2 &&
		   arr->array.items[1].array.items[1].array.n == 0 &&
		   arr->array.items[2].type == JSON_OBJECT &&
		   arr->array.items[2].object.n == 0);
	check_num("the first of duplicate keys", v, "dup", 1);
	check_true("missing key is NULL", json_get(v, "nosuch") == NULL);
	check_true("a string member is not a number",
		   json_get_number(v, "s", &(double){ 0 }) == -1);
	check_true("json_get on a non-object is NULL",
		   json_get(&arr->array.items[0], "x") == NULL);
	json_free(v);
}

/* Arrays grow 4, 8, 16, ...: every element is kept across the growth. */
static void test_long_array(void)
{
	char text[512];
	struct json_value *v;
	size_t off = 0;
	char err[128];
	bool ok;

	off += snprintf(text, sizeof(text), "[");
	for (int i = 0; i < 37; i++)
		off += snprintf(text + off, sizeof(text) - off, "%s%d", i ? "," : "", i);
	snprintf(text + off, sizeof(text) - off, "]");
	v = json_parse(text, strlen(text), err, sizeof(err));
	ok = v && v->type == JSON_ARRAY && v->array.n == 37;
	for (size_t i = 0; ok && i < 37; i++)
		ok = v->array.items[i].number == i;
	check_true("an array of 37 numbers reads back in order", ok);
	json_free(v);
}

static void test_depth(void)
{
	char deep[2 * JSON_READER_MAX_DEPTH + 3];
	struct json_value *v;
	char err[128];
	int n = JSON_READER_MAX_DEPTH;

	memset(deep, '[', n);
	memset(deep + n, ']', n);
	v = json_parse(deep, 2 * n, err, sizeof(err));
	check_true("nesting at the limit parses", v != NULL);
	json_free(v);
	memset(deep, '[', n + 1);
	memset(deep + n + 1, ']', n + 1);
	v = json_parse(deep, 2 * n + 2, err, sizeof(err));
	check_true("one level deeper is refused", v == NULL);
	check_str("the reason names the limit", err,
		  "line 1, column 65: nested deeper than 64 levels");
}

static void test_errors(void)
{
	static const struct { const char *text, *err; } cases[] = {
		{ "", "line 1, column 1: expected a value, found the end of the text" },
		{ "   ", "line 1, column 4: expected a value, found the end of the text" },
		{ "[1,]", "line 1, column 4: expected a value, found ']'" },
		{ "[1 2]", "line 1, column 4: expected ',' or ']', found '2'" },
		{ "{\"a\" 1}", "line 1, column 6: expected ':' after a key, found '1'" },
		{ "{\"a\": 1,}", "line 1, column 9: expected a string key, found '}'" },
		{ "{a: 1}", "line 1, column 2: expected a string key, found 'a'" },
		{ "{\"a\": 1 \"b\": 2}", "line 1, column 9: expected ',' or '}', found '\"'" },
		{ "01", "line 1, column 1: malformed number (expected a digit; no leading zeros)" },
		{ "1.", "line 1, column 1: malformed number (expected digits after '.')" },
		{ "1e", "line 1, column 1: malformed number (expected digits in the exponent)" },
		{ "-", "line 1, column 1: malformed number (expected a digit; no leading zeros)" },
		{ "+1", "line 1, column 1: expected a value, found '+'" },
		{ "1e400", "line 1, column 1: number out of range of a double" },
		{ "tru", "line 1, column 1: expected 'true'" },
		{ "nul", "line 1, column 1: expected 'null'" },
		{ "NaN", "line 1, column 1: expected a value, found 'N'" },
		{ "\"abc", "line 1, column 5: unterminated string" },
		{ "\"a\\x\"", "line 1, column 4: unknown escape '\\x'" },
		{ "\"\\u12g4\"", "line 1, column 4: expected 4 hex digits after \\u" },
		{ "\"\\ud800\"",
		  "line 1, column 8: \\ud800 is a high surrogate without its low half" },
		{ "\"\\udc00\"", "line 1, column 8: \\udc00 is a lone low surrogate" },
		{ "\"\\u0000\"", "line 1, column 8: \\u0000 is not supported in strings" },
		{ "\"a\tb\"", "line 1, column 3: control character 0x09 in a string" },
		{ "\"\xff\"", "line 1, column 2: invalid UTF-8 in a string" },
		{ "\"\xc0\xaf\"", "line 1, column 2: invalid UTF-8 in a string" },
		{ "\"\xed\xa0\x80\"", "line 1, column 2: invalid UTF-8 in a string" },
		{ "[1] x", "line 1, column 5: unexpected 'x' after the value" },
		{ "{}{}", "line 1, column 3: unexpected '{' after the value" },
		{ "{\n  \"a\": [1,\n  tru]\n}", "line 3, column 3: expected 'true'" },
		{ "[\"\xc3\xa9\", x]", "line 1, column 7: expected a value, found 'x'" },
		/* Failures deep inside leave nothing allocated (ASan checks). */
		{ "[{\"a\": [\"x\", {\"b\": \"y\"",
		  "line 1, column 23: expected ',' or '}', found the end of the text" },
	};
	struct json_value *v;
	char what[160], err[160];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		v = json_parse(cases[i].text, strlen(cases[i].text), err, sizeof(err));
		snprintf(what, sizeof(what), "refused: %s", cases[i].err);
		check_str(what, v ? "(parsed)" : err, cases[i].err);
		json_free(v);
	}
	v = json_parse("[1,\0 2]", 7, err, sizeof(err));
	check_str("a NUL byte in the text is refused", v ? "(parsed)" : err,
		  "line 1, column 4: NUL byte in the text");
	json_free(v);
}

static void test_files(void)
{
	char path[] = "/tmp/json-reader-test.XXXXXX", err[256];
	struct json_value *v;
	int fd = mkstemp(path);

	check_true("make a scratch file", fd >= 0);
	if (fd < 0)
		return;
	v = json_parse_file(path, err, sizeof(err));
	check_str("an empty file is refused", v ? "(parsed)" : err,
		  "empty file, not JSON");
	check_true("write the scratch file", write(fd, "{\"a\": [1, 2]}\n", 14) == 14);
	close(fd);
	v = json_parse_file(path, err, sizeof(err));
	check_true("a file parses",
		   v && json_get(v, "a") && json_get(v, "a")->array.n == 2);
	json_free(v);
	unlink(path);
	v = json_parse_file(path, err, sizeof(err));
	check_str("a missing file is refused", v ? "(parsed)" : err,
		  "cannot open: No such file or directory");
	v = json_parse_file("/", err, sizeof(err));
	check_str("a directory is refused", v ? "(parsed)" : err,
		  "not a regular file");
}

int main(void)
{
	test_valid();
	test_long_array();
	test_depth();
	test_errors();
	test_files();
	printf("json-reader-test: %d passed, %d failed\n", n_checks - n_failed,
	       n_failed);
	return n_failed ? 1 : 0;
}
