/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RUN_TESTS() checks on what a loaded program looks like and prints:
 * __xlated() and __jited() after the load, __stderr() and __stdout()
 * after the test run.  A mismatch fails the subtest and shows the text.
 */
#ifndef BPFCHECK_TEST_TEXTS_H
#define BPFCHECK_TEST_TEXTS_H

#include "test_spec.h"

void check_prog_texts(int prog_fd, const struct spec_mode *m);
void check_streams(int prog_fd, const struct spec_mode *m);

#endif
