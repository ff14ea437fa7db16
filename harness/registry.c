// SPDX-License-Identifier: GPL-2.0
/*
 * Builds the test table from the generated list named by TESTS_LIST: the
 * list is included twice, once to declare each entry point and once to
 * fill the table.
 */
#include "registry.h"

#ifndef TESTS_LIST
#error "TESTS_LIST must name the generated test list"
#endif

#define DEFINE_TEST(n) void test_##n(void);
#define DEFINE_SERIAL_TEST(n) void serial_test_##n(void);
#include TESTS_LIST
#undef DEFINE_TEST
#undef DEFINE_SERIAL_TEST

const struct test_def registry_tests[] = {
#define DEFINE_TEST(n) { #n, test_##n, false },
#define DEFINE_SERIAL_TEST(n) { #n, serial_test_##n, true },
#include TESTS_LIST
};

const int registry_n_tests = sizeof(registry_tests) / sizeof(registry_tests[0]);
