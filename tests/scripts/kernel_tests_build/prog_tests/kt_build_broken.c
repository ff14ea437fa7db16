// SPDX-License-Identifier: GPL-2.0
/*
 * A test whose program does not build (tests/scripts/
 * kernel_tests_build_check.sh): kernel-tests/build.sh must list it as not
 * built, with the program's first error, and link the others.
 */
#include <test_progs.h>
#include "kt_build_broken.skel.h"

void test_kt_build_broken(void)
{
	struct kt_build_broken *skel = kt_build_broken__open_and_load();

	ASSERT_OK_PTR(skel, "open_and_load");
	kt_build_broken__destroy(skel);
}
