// SPDX-License-Identifier: GPL-2.0
/*
 * Queue and stack maps: FIFO and LIFO order, a full map refuses a push
 * unless BPF_EXIST asks to overwrite the oldest element, peek does not
 * remove, and values pushed by BPF (from a syscall tracepoint and from
 * BPF_PROG_TEST_RUN) or popped by BPF match what userspace sees.
 */
#include <linux/types.h>

#include "probe.h"
#include "test_progs.h"
#include "trigger.h"
#include "test_queue_stack.skel.h"

#define SMALL_MAP 8

static int create_map(enum bpf_map_type type)
{
	/* Queue and stack maps have no key: key_size must be 0. */
	return bpf_map_create(type, "qs_test", 0, sizeof(__u32), SMALL_MAP,
			      NULL);
}

static bool push_range(int fd, __u32 from, __u32 to, __u64 flags)
{
	for (__u32 v = from; v <= to; v++)
		if (!ASSERT_OK(bpf_map_update_elem(fd, NULL, &v, flags),
			       "push"))
			return false;
	return true;
}

/* Pop n values and check they are first, first+step, ... */
static bool pop_expect(int fd, __u32 first, int step, int n)
{
	__u32 v;

	for (int i = 0; i < n; i++) {
		if (!ASSERT_OK(bpf_map_lookup_and_delete_elem(fd, NULL, &v),
			       "pop") ||
		    !ASSERT_EQ(v, first + i * step, "popped value"))
			return false;
	}
	return ASSERT_EQ(bpf_map_lookup_and_delete_elem(fd, NULL, &v),
			 -ENOENT, "pop from empty map");
}

static void subtest_order(enum bpf_map_type type)
{
	bool fifo = type == BPF_MAP_TYPE_QUEUE;
	int fd = create_map(type);
	__u32 v;

	if (!ASSERT_OK_FD(fd, "bpf_map_create"))
		return;
	if (!push_range(fd, 1, SMALL_MAP, 0))
		goto out;
	/* Peek shows the element pop would return, and leaves it there. */
	if (ASSERT_OK(bpf_map_lookup_elem(fd, NULL, &v), "peek"))
		ASSERT_EQ(v, fifo ? 1 : SMALL_MAP, "peeked value");
	if (fifo)
		pop_expect(fd, 1, 1, SMALL_MAP);
	else
		pop_expect(fd, SMALL_MAP, -1, SMALL_MAP);
out:
	close(fd);
}

static void subtest_full(enum bpf_map_type type)
{
	bool fifo = type == BPF_MAP_TYPE_QUEUE;
	int fd = create_map(type);
	__u32 v = SMALL_MAP + 1;

	if (!ASSERT_OK_FD(fd, "bpf_map_create"))
		return;
	if (!push_range(fd, 1, SMALL_MAP, 0))
		goto out;
	ASSERT_EQ(bpf_map_update_elem(fd, NULL, &v, 0), -E2BIG,
		  "push to a full map");
	/* BPF_EXIST makes room by dropping the oldest element (1). */
	if (!ASSERT_OK(bpf_map_update_elem(fd, NULL, &v, BPF_EXIST),
		       "push with BPF_EXIST"))
		goto out;
	if (fifo)
		pop_expect(fd, 2, 1, SMALL_MAP);
	else
		pop_expect(fd, SMALL_MAP + 1, -1, SMALL_MAP);
out:
	close(fd);
}

static void subtest_bpf_push_tracepoint(struct test_queue_stack *skel)
{
	int fd = bpf_map__fd(skel->maps.queue);
	struct bpf_link *link;

	skel->bss->next_value = 1000;
	skel->bss->push_errors = 0;
	link = bpf_program__attach(skel->progs.push_on_getpgid);
	if (!ASSERT_OK_PTR(link, "attach tracepoint"))
		return;
	trigger_getpgid(20);
	bpf_link__destroy(link);
	ASSERT_EQ(skel->bss->push_errors, 0, "BPF push errors");
	pop_expect(fd, 1000, 1, 20);
}

static int run_xdp(struct bpf_program *prog, const void *pkt, size_t len,
		   __u32 *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.data_in = pkt,
		.data_size_in = len,
	);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);

	*retval = topts.retval;
	return err;
}

static void subtest_bpf_push_test_run(struct test_queue_stack *skel)
{
	int fd = bpf_map__fd(skel->maps.queue);
	unsigned char pkt[64] = { 0 };
	__u32 retval;

	skel->bss->push_errors = 0;
	for (__u32 v = 500; v < 505; v++) {
		memcpy(pkt, &v, sizeof(v));
		if (!ASSERT_OK(run_xdp(skel->progs.push_from_packet, pkt,
				       sizeof(pkt), &retval), "test_run") ||
		    !ASSERT_EQ(retval, XDP_PASS, "XDP verdict"))
			return;
	}
	ASSERT_EQ(skel->bss->push_errors, 0, "BPF push errors");
	pop_expect(fd, 500, 1, 5);
}

static void subtest_bpf_pop(struct test_queue_stack *skel)
{
	int fd = bpf_map__fd(skel->maps.stack);
	unsigned char pkt[64] = { 0 };
	__u32 retval;

	skel->bss->pops = 0;
	skel->bss->pop_misses = 0;
	if (!push_range(fd, 71, 75, 0))
		return;
	for (int i = 0; i < 6; i++)
		if (!ASSERT_OK(run_xdp(skel->progs.pop_from_stack, pkt,
				       sizeof(pkt), &retval), "test_run"))
			return;
	/* Five values came off LIFO, the sixth run found the stack empty. */
	ASSERT_EQ(skel->bss->pops, 5, "BPF pops");
	ASSERT_EQ(skel->bss->pop_misses, 1, "BPF pops from empty stack");
	ASSERT_EQ(retval, XDP_DROP, "verdict of the last run");
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(skel->bss->pop_log[i], 75 - i, "popped by BPF");
}

void test_queue_stack_map(void)
{
	struct test_queue_stack *skel;

	if (!test__need(FEAT_QUEUE_STACK))
		return;
	if (test__start_subtest("queue_fifo"))
		subtest_order(BPF_MAP_TYPE_QUEUE);
	if (test__start_subtest("stack_lifo"))
		subtest_order(BPF_MAP_TYPE_STACK);
	if (test__start_subtest("queue_full"))
		subtest_full(BPF_MAP_TYPE_QUEUE);
	if (test__start_subtest("stack_full"))
		subtest_full(BPF_MAP_TYPE_STACK);

	skel = test_queue_stack__open_and_load();
	if (!ASSERT_OK_PTR(skel, "test_queue_stack__open_and_load"))
		return;
	skel->bss->target_pid = getpid();
	if (test__start_subtest("bpf_push_tracepoint") &&
	    test__need(FEAT_TRACEPOINT))
		subtest_bpf_push_tracepoint(skel);
	if (test__start_subtest("bpf_push_test_run"))
		subtest_bpf_push_test_run(skel);
	if (test__start_subtest("bpf_pop_test_run"))
		subtest_bpf_pop(skel);
	test_queue_stack__destroy(skel);
}
