// SPDX-License-Identifier: GPL-2.0
/*
 * Builds the test table from the generated list named by TESTS_LIST: the
 * list is included twice, once to declare each entry point and once to
 * fill the table.  A test the build left out (it needs a newer libbpf,
 * see scripts/requires.awk) gets an entry point here that skips with the
 * reason, so that listings and reports still show it.
 */
#include "registry.h"
#include "test_api.h"

#ifndef TESTS_LIST
#error "TESTS_LIST must name the generated test list"
#endif

#define DEFINE_TEST(n) void test_##n(void);
#define DEFINE_SERIAL_TEST(n) void serial_test_##n(void);
#define DEFINE_LEFT_OUT_TEST(n, why) \
	static void left_out_##n(void) { test__skip_reason("%s", why); }
#include TESTS_LIST
#undef DEFINE_TEST
#undef DEFINE_SERIAL_TEST
#undef DEFINE_LEFT_OUT_TEST

const struct test_def registry_tests[] = {
#define DEFINE_TEST(n) { #n, test_##n, false },
#define DEFINE_SERIAL_TEST(n) { #n, serial_test_##n, true },
#define DEFINE_LEFT_OUT_TEST(n, why) { #n, left_out_##n, false },
#include TESTS_LIST
};

const int registry_n_tests = ARRAY_SIZE(registry_tests);
