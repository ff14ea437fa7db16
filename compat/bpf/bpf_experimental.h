/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's selftests' bpf_experimental.h, the common part: allocated
 * objects, linked lists and red-black trees of them, exceptions, bounded
 * loops (may_goto), open-coded iterators and assertions.  Kfuncs are
 * declared here, so build with BPF_NO_KFUNC_PROTOTYPES (the Makefile does
 * for progs/X.c) to keep vmlinux.h's own declarations out of the way.
 */
#ifndef BPFCHECK_BPF_EXPERIMENTAL_H
#define BPFCHECK_BPF_EXPERIMENTAL_H

#include <vmlinux.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* A bpf_list_head or bpf_rb_root holds <name>s linked by their <node>. */
#define __contains(name, node)						\
	__attribute__((btf_decl_tag("contains:" #name ":" #node)))

/* A global in its own data section, to hold a lock and what it guards. */
#define private(name)							\
	SEC(".data." #name) __hidden __attribute__((aligned(8)))

/* Objects allocated by the program, of a type of its own BTF. */
extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
#define bpf_obj_new(type)						\
	((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym;
#define bpf_obj_drop(kptr)	bpf_obj_drop_impl(kptr, NULL)
extern void *bpf_refcount_acquire_impl(void *kptr, void *meta) __ksym;
#define bpf_refcount_acquire(kptr) bpf_refcount_acquire_impl(kptr, NULL)
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
#define bpf_percpu_obj_new(type)					\
	((type __percpu_kptr *)bpf_percpu_obj_new_impl(			\
		bpf_core_type_id_local(type), NULL))
extern void bpf_percpu_obj_drop_impl(void *kptr, void *meta) __ksym;
#define bpf_percpu_obj_drop(kptr) bpf_percpu_obj_drop_impl(kptr, NULL)

/* Lists: push returns 0, or -EINVAL (and drops the node) when it failed. */
extern int bpf_list_push_front_impl(struct bpf_list_head *head,
				    struct bpf_list_node *node,
				    void *meta, __u64 off) __ksym;
#define bpf_list_push_front(head, node)					\
	bpf_list_push_front_impl(head, node, NULL, 0)
extern int bpf_list_push_back_impl(struct bpf_list_head *head,
				   struct bpf_list_node *node,
				   void *meta, __u64 off) __ksym;
#define bpf_list_push_back(head, node)					\
	bpf_list_push_back_impl(head, node, NULL, 0)
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head) __ksym;

/* Red-black trees ordered by a less() callback. */
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
					     struct bpf_rb_node *node) __ksym;
extern int bpf_rbtree_add_impl(struct bpf_rb_root *root,
			       struct bpf_rb_node *node,
			       bool (*less)(struct bpf_rb_node *a,
					    const struct bpf_rb_node *b),
			       void *meta, __u64 off) __ksym;
#define bpf_rbtree_add(head, node, less)				\
	bpf_rbtree_add_impl(head, node, less, NULL, 0)
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;

/* Exceptions: unwind the program, return what the callback says. */
extern void bpf_throw(__u64 cookie) __ksym;
#define __exception_cb(name)						\
	__attribute__((btf_decl_tag("exception_callback:" #name)))

#define bpf_assert(cond)						\
	do {								\
		if (!(cond))						\
			bpf_throw(0);					\
	} while (0)
#define bpf_assert_with(cond, value)					\
	do {								\
		if (!(cond))						\
			bpf_throw(value);				\
	} while (0)
#define bpf_assert_range(x, lo, hi)					\
	bpf_assert((x) >= (lo) && (x) <= (hi))
#define bpf_assert_range_with(x, lo, hi, value)				\
	bpf_assert_with((x) >= (lo) && (x) <= (hi), value)

/*
 * A comparison the compiler must emit as written (not folded or
 * reordered), so that the verifier learns the bounds it implies.
 */
#define __bpfcheck_cmp(lhs, op, rhs, want)				\
	({								\
		typeof(lhs) ___l = (lhs);				\
		typeof(rhs) ___r = (rhs);				\
		bool ___res = ___l op ___r;				\
		asm volatile("" : "+r"(___l), "+r"(___r));		\
		__builtin_expect(___res, want);				\
	})
#define bpf_cmp_likely(lhs, op, rhs)	__bpfcheck_cmp(lhs, op, rhs, 1)
#define bpf_cmp_unlikely(lhs, op, rhs)	__bpfcheck_cmp(lhs, op, rhs, 0)

/*
 * Loops the verifier bounds at run time: may_goto jumps out once the
 * program has looped too long.  can_loop is false then; cond_break breaks.
 */
#ifdef __BPF_FEATURE_MAY_GOTO
#define can_loop							\
	({								\
		__label__ l_stop, l_go;					\
		bool ___go = true;					\
		asm volatile goto("may_goto %l[l_stop]" :::: l_stop);	\
		goto l_go;						\
	l_stop:								\
		___go = false;						\
	l_go:								\
		___go;							\
	})
#define cond_break							\
	({								\
		__label__ l_stop, l_go;					\
		asm volatile goto("may_goto %l[l_stop]" :::: l_stop);	\
		goto l_go;						\
	l_stop:								\
		break;							\
	l_go:;								\
	})
#else
#error "can_loop and cond_break need a clang with may_goto (clang >= 19)"
#endif

/* Open-coded iterators over tasks, cgroups and a task's VMAs. */
struct bpf_iter_task_vma;
extern int bpf_iter_task_vma_new(struct bpf_iter_task_vma *it,
				 struct task_struct *task, __u64 addr) __ksym;
extern struct vm_area_struct *bpf_iter_task_vma_next(struct bpf_iter_task_vma *it) __ksym;
extern void bpf_iter_task_vma_destroy(struct bpf_iter_task_vma *it) __ksym;

struct bpf_iter_css_task;
struct cgroup_subsys_state;
extern int bpf_iter_css_task_new(struct bpf_iter_css_task *it,
				 struct cgroup_subsys_state *css,
				 unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_css_task_next(struct bpf_iter_css_task *it) __weak __ksym;
extern void bpf_iter_css_task_destroy(struct bpf_iter_css_task *it) __weak __ksym;

struct bpf_iter_task;
extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;

struct bpf_iter_css;
extern int bpf_iter_css_new(struct bpf_iter_css *it,
			    struct cgroup_subsys_state *start,
			    unsigned int flags) __weak __ksym;
extern struct cgroup_subsys_state *bpf_iter_css_next(struct bpf_iter_css *it) __weak __ksym;
extern void bpf_iter_css_destroy(struct bpf_iter_css *it) __weak __ksym;

/* Files of a task, and their paths. */
extern struct file *bpf_get_task_exe_file(struct task_struct *task) __ksym __weak;
extern void bpf_put_file(struct file *file) __ksym __weak;
extern int bpf_path_d_path(struct path *path, char *buf, size_t buf__sz) __ksym __weak;

/* Work queues: a callback run later in process context. */
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
		int (callback_fn)(void *map, int *key, void *value),
		unsigned int flags, void *aux) __weak __ksym;
#define bpf_wq_set_callback(wq, cb, flags)				\
	bpf_wq_set_callback_impl(wq, cb, flags, NULL)

/* Preemption off (nests), and back on. */
extern void bpf_preempt_disable(void) __weak __ksym;
extern void bpf_preempt_enable(void) __weak __ksym;

static inline void __bpfcheck_preempt_guard_end(char *guard)
{
	(void)guard;
	bpf_preempt_enable();
}

/* Preemption off until the end of the enclosing scope. */
#define bpf_guard_preempt()						\
	char ___bpf_preempt_guard					\
	__attribute__((cleanup(__bpfcheck_preempt_guard_end), unused)) =\
		(bpf_preempt_disable(), 0)

#endif
