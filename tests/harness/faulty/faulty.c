// SPDX-License-Identifier: GPL-2.0
/*
 * Three tests that go wrong on purpose.  They are linked with the real
 * suite into build/test_progs_faulty, never into test_progs, so that
 * tests/harness/faulty_check.sh can show the full suite reporting each for what it
 * is and still finishing: one segfaults, one hangs, one leaves a BPF map
 * pinned in bpffs.  FAULTY_PIN_PATH names the pin (the check removes it).
 */
#include <bpf/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_progs.h"

#define DEFAULT_PIN_PATH "/sys/fs/bpf/bpfcheck_faulty_leak"

void test_faulty_segfault(void)
{
	volatile int *nowhere = NULL;

	ASSERT_TRUE(true, "about to write through NULL");
	*nowhere = 1;
	test__fail();	/* not reached */
}

void test_faulty_hang(void)
{
	printf("waiting forever\n");
	fflush(stdout);
	for (;;)
		pause();
}

/* A map that outlives the test: pinned, so closing its fd frees nothing. */
void test_faulty_leak_map(void)
{
	const char *path = getenv("FAULTY_PIN_PATH") ?: DEFAULT_PIN_PATH;
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "faulty_leak", 4, 8, 1, NULL);

	if (!ASSERT_OK_FD(fd, "bpf_map_create"))
		return;
	ASSERT_OK(bpf_obj_pin(fd, path), "bpf_obj_pin");
	close(fd);
}
