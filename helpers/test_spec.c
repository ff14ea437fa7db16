// SPDX-License-Identifier: GPL-2.0
/*
 * Read a program's test annotations back from BTF.  progs/bpf_misc.h makes
 * each one a declaration tag "bpfcheck:<seq>:<key>[=<value>]" on the
 * program's function; seq restores source order (several __msg()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <linux/bpf.h>

#include "int_file.h"
#include "util.h"
#include "test_spec.h"

#define TAG_PREFIX "bpfcheck:"

struct tag {
	long seq;
	char key[32];
	const char *value;	/* after '=', or "" */
};

static int cmp_tag(const void *a, const void *b)
{
	const struct tag *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* "<seq>:<key>[=<value>]" after the prefix; false when malformed. */
static bool split_tag(const char *s, struct tag *t)
{
	char *end;
	size_t klen;
	const char *eq;

	t->seq = strtol(s, &end, 10);
	if (end == s || *end != ':')
		return false;
	s = end + 1;
	eq = strchr(s, '=');
	klen = eq ? (size_t)(eq - s) : strlen(s);
	if (!klen || klen >= sizeof(t->key))
		return false;
	memcpy(t->key, s, klen);
	t->key[klen] = '\0';
	t->value = eq ? eq + 1 : "";
	return true;
}

/* The tags on func_name (component -1: the function itself), sorted. */
static struct tag *collect_tags(const struct btf *btf, const char *func_name,
				int *n, char *bad, size_t bad_sz)
{
	int cnt = btf__type_cnt(btf);
	struct tag *tags = calloc(cnt, sizeof(*tags));

	*n = 0;
	if (!tags)
		return NULL;
	for (int id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_type *fn;
		const char *s;

		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1)
			continue;
		fn = btf__type_by_id(btf, t->type);
		if (!fn || !btf_is_func(fn) ||
		    strcmp(btf__name_by_offset(btf, fn->name_off), func_name))
			continue;
		s = btf__name_by_offset(btf, t->name_off);
		if (strncmp(s, TAG_PREFIX, strlen(TAG_PREFIX)))
			continue;
		if (!split_tag(s + strlen(TAG_PREFIX), &tags[*n])) {
			snprintf(bad, bad_sz, "malformed test tag '%s'", s);
			continue;
		}
		(*n)++;
	}
	qsort(tags, *n, sizeof(*tags), cmp_tag);
	return tags;
}

static int push_msg(struct spec_msg **v, int *n, const char *text,
		    bool negative, bool next_line)
{
	struct spec_msg *msgs = realloc(*v, (*n + 1) * sizeof(*msgs));

	if (!msgs)
		return -ENOMEM;
	msgs[*n] = (struct spec_msg){ text, negative, next_line };
	*v = msgs;
	(*n)++;
	return 0;
}

static int add_msg(struct spec_mode *m, const char *text, bool negative)
{
	return push_msg(&m->msgs, &m->n_msgs, text, negative, false);
}

/*
 * A disassembly or stream line: on the line after the previous one,
 * unless "..." came between them.
 */
static int add_line(struct spec_lines *l, const char *text)
{
	int err;

	if (!strcmp(text, "...")) {
		l->next_line = false;
		return 0;
	}
	err = push_msg(&l->v, &l->n, text, false, l->next_line);
	l->next_line = true;
	return err;
}

/*
 * What may follow a C integer literal: nothing, or u/l/ll in either case
 * and order (__retval(POINTER_VALUE) reaches here as "0xcafe4all").
 */
static bool int_suffix(const char *s)
{
	static const char *const suffixes[] = {
		"", "u", "l", "ul", "lu", "ll", "ull", "llu",
	};
	char low[4];
	size_t n = strlen(s);

	if (n >= sizeof(low))
		return false;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (!strcmp(low, suffixes[i]))
			return true;
	return false;
}

/*
 * "(A - B)" or "(A + B)": what a macro such as INT_MIN, "(-__INT_MAX__ - 1)",
 * expands to when __retval() expands its argument (6.12's tests write
 * INT_MIN, which bpfcheck's bpf_misc.h expands).
 */
static bool parse_sum(const char *s, long long *v)
{
	long long a, b;
	char *end;
	char op;

	errno = 0;
	a = strtoll(s + 1, &end, 0);
	if (end == s + 1 || errno)
		return false;
	while (*end == ' ')
		end++;
	op = *end;
	if (op != '-' && op != '+')
		return false;
	s = end + 1;
	b = strtoll(s, &end, 0);
	if (end == s || errno || strcmp(end, ")"))
		return false;
	*v = op == '-' ? a - b : a + b;
	return true;
}

/*
 * Numbers, and the names __retval() and __flag() may use: "_INT_MIN" is
 * how 7.x's tests write INT_MIN (which does not expand to one literal).
 */
static bool parse_value(const char *s, long long *v)
{
	static const struct { const char *name; long long v; } names[] = {
		{ "INT_MIN", INT_MIN }, { "_INT_MIN", INT_MIN }, { "INT_MAX", INT_MAX },
		{ "UINT_MAX", UINT_MAX }, { "POINTER_VALUE", 0xcafe4all },
		{ "TEST_DATA_LEN", 64 },
		{ "BPF_F_STRICT_ALIGNMENT", BPF_F_STRICT_ALIGNMENT },
		{ "BPF_F_ANY_ALIGNMENT", BPF_F_ANY_ALIGNMENT },
		{ "BPF_F_TEST_RND_HI32", BPF_F_TEST_RND_HI32 },
		{ "BPF_F_TEST_STATE_FREQ", BPF_F_TEST_STATE_FREQ },
		{ "BPF_F_SLEEPABLE", BPF_F_SLEEPABLE },
		{ "BPF_F_XDP_HAS_FRAGS", BPF_F_XDP_HAS_FRAGS },
		{ "BPF_F_TEST_REG_INVARIANTS", 1U << 7 },
	};
	bool neg = *s == '-';
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s + neg, names[i].name)) {
			*v = neg ? -names[i].v : names[i].v;
			return true;
		}
	}
	if (*s == '(')
		return parse_sum(s, v);
	errno = 0;
	*v = strtoll(s, &end, 0);
	if (errno == ERANGE)
		*v = (long long)strtoull(s, &end, 0);
	return end != s && int_suffix(end);
}

static const char *this_arch(void)
{
	static struct utsname u;

	if (!u.machine[0] && uname(&u))
		return "";
	if (!strcmp(u.machine, "x86_64"))
		return "X86_64";
	if (!strcmp(u.machine, "aarch64"))
		return "ARM64";
	if (!strcmp(u.machine, "riscv64"))
		return "RISCV64";
	if (!strcmp(u.machine, "loongarch64"))
		return "LOONGARCH";
	return u.machine;	/* s390x is spelt as uname spells it */
}

static void check_load_mode(struct test_spec *spec, const char *mode)
{
	int jit = read_int_file("/proc/sys/net/core/bpf_jit_enable");

	if (!strcmp(mode, "jited") && jit <= 0)
		spec->not_here = "runs only with the JIT on (net.core.bpf_jit_enable)";
	else if (!strcmp(mode, "no_jited") && jit > 0)
		spec->not_here = "runs only with the JIT off (net.core.bpf_jit_enable)";
}

/* __caps_unpriv(CAP_A|CAP_B): the numbers bpf_misc.h defines them as. */
static bool parse_caps(const char *s, uint64_t *caps)
{
	while (*s) {
		char *end;
		long cap = strtol(s, &end, 10);

		if (end == s || cap < 0 || cap > 63 || (*end && *end != '|'))
			return false;
		*caps |= 1ULL << cap;
		s = *end ? end + 1 : end;
	}
	return true;
}

static int text_of(const char *key)
{
	static const char *const keys[NR_TEXTS] = {
		[TEXT_XLATED] = "xlated", [TEXT_JITED] = "jited",
		[TEXT_STDERR] = "stderr", [TEXT_STDOUT] = "stdout",
	};

	for (int i = 0; i < NR_TEXTS; i++)
		if (!strcmp(key, keys[i]))
			return i;
	return -1;
}

/* __jited() lines count only after an __arch_*() naming this machine. */
static int add_text_line(struct spec_mode *m, int text, const struct tag *t,
			 struct test_spec *spec)
{
	if (text == TEXT_JITED && !spec->arch_tags) {
		snprintf(spec->bad_tag, sizeof(spec->bad_tag),
			 "__jited(\"%s\") before any __arch_*()", t->value);
		return 0;
	}
	if (text == TEXT_JITED && !spec->jit_collect)
		return 0;
	return add_line(&m->texts[text], t->value);
}

/* Keys shared by both modes: "msg" and "msg_unpriv" reach here as "msg". */
static int apply_mode_tag(struct spec_mode *m, const char *key,
			  const struct tag *t, struct test_spec *spec)
{
	m->on = true;
	if (!strcmp(key, "success"))
		m->expect_failure = false;
	else if (!strcmp(key, "failure"))
		m->expect_failure = true;
	else if (!strcmp(key, "msg") || !strcmp(key, "not_msg"))
		return add_msg(m, t->value, key[0] == 'n');
	else if (!strcmp(key, "retval")) {
		m->has_retval = parse_value(t->value, &m->retval);
		if (!m->has_retval)
			snprintf(spec->bad_tag, sizeof(spec->bad_tag),
				 "__retval(%s): not a number or a known name",
				 t->value);
	} else if (text_of(key) >= 0) {
		return add_text_line(m, text_of(key), t, spec);
	} else if (!strcmp(key, "caps")) {
		if (!parse_caps(t->value, &m->caps))
			snprintf(spec->bad_tag, sizeof(spec->bad_tag),
				 "__caps_unpriv(%s): not capability numbers", t->value);
	} else {
		return -ENOENT;
	}
	return 0;
}

/* Each __arch_*() starts the __jited() lines of that arch afresh. */
static void apply_arch(struct test_spec *spec, const char *arch)
{
	spec->arch_tags++;
	spec->jit_collect = !strcmp(arch, this_arch());
	spec->arch_match |= spec->jit_collect;
	spec->priv.texts[TEXT_JITED].next_line = true;
	spec->unpriv.texts[TEXT_JITED].next_line = true;
}

static int apply_tag(struct test_spec *spec, const struct tag *t)
{
	static const char unpriv[] = "_unpriv";
	char key[sizeof(t->key)];
	size_t len = strlen(t->key);
	long long v;

	if (!strcmp(t->key, "description"))
		spec->description = t->value;
	else if (!strcmp(t->key, "log_level") && parse_value(t->value, &v))
		spec->log_level = (int)v;
	else if (!strcmp(t->key, "flag") && t->value[0] == '!' &&
		 parse_value(t->value + 1, &v))
		spec->prog_flags_clear |= (uint32_t)v;
	else if (!strcmp(t->key, "flag") && parse_value(t->value, &v))
		spec->prog_flags |= (uint32_t)v;
	else if (!strcmp(t->key, "btf_path"))
		spec->btf_path = t->value;
	else if (!strcmp(t->key, "arch"))
		apply_arch(spec, t->value);
	else if (!strcmp(t->key, "linear_size") && parse_value(t->value, &v))
		spec->linear_size = (int)v;
	else if (!strcmp(t->key, "load_mode"))
		check_load_mode(spec, t->value);
	else if (!strcmp(t->key, "auxiliary"))
		spec->auxiliary = true;
	else if (!strcmp(t->key, "auxiliary_unpriv"))
		spec->auxiliary_unpriv = true;
	else if (!strcmp(t->key, "btf_func_path"))
		spec->btf_func_path = t->value;
	else if (len > strlen(unpriv) && !strcmp(t->key + len - strlen(unpriv), unpriv)) {
		snprintf(key, sizeof(key), "%.*s", (int)(len - strlen(unpriv)), t->key);
		return apply_mode_tag(&spec->unpriv, key, t, spec);
	} else {
		return apply_mode_tag(&spec->priv, t->key, t, spec);
	}
	return 0;
}

static int copy_lines(struct spec_lines *to, const struct spec_lines *from)
{
	if (to->n)
		return 0;
	for (int i = 0; i < from->n; i++)
		if (push_msg(&to->v, &to->n, from->v[i].text, false,
			     from->v[i].next_line))
			return -ENOMEM;
	return 0;
}

/* Unprivileged runs expect what the privileged one does, unless told. */
static int inherit_unpriv(struct test_spec *spec)
{
	struct spec_mode *p = &spec->priv, *u = &spec->unpriv;

	if (!u->n_msgs) {
		for (int i = 0; i < p->n_msgs; i++)
			if (add_msg(u, p->msgs[i].text, p->msgs[i].negative))
				return -ENOMEM;
	}
	for (int t = 0; t < NR_TEXTS; t++)
		if (copy_lines(&u->texts[t], &p->texts[t]))
			return -ENOMEM;
	if (!u->has_retval) {
		u->has_retval = p->has_retval;
		u->retval = p->retval;
	}
	return 0;
}

int test_spec_parse(struct test_spec *spec, const struct btf *btf,
		    const char *func_name)
{
	struct tag *tags;
	int n, err = 0;

	memset(spec, 0, sizeof(*spec));
	spec->prog_name = func_name;
	spec->log_level = -1;
	spec->linear_size = -1;
	for (int i = 0; i < NR_TEXTS; i++)
		spec->priv.texts[i].next_line = spec->unpriv.texts[i].next_line = true;
	tags = collect_tags(btf, func_name, &n, spec->bad_tag,
			    sizeof(spec->bad_tag));
	if (!tags)
		return -ENOMEM;
	for (int i = 0; i < n && !err; i++) {
		err = apply_tag(spec, &tags[i]);
		if (err == -ENOENT) {
			snprintf(spec->bad_tag, sizeof(spec->bad_tag),
				 "unknown test tag '%s'", tags[i].key);
			err = 0;
		}
	}
	free(tags);
	/* Several __arch_*(): any of them. */
	if (spec->arch_tags && !spec->arch_match)
		spec->not_here = "not for this architecture";
	/* No mode named: the privileged load, expected to succeed. */
	if (!err && !spec->unpriv.on)
		spec->priv.on = true;
	if (!err && spec->unpriv.on)
		err = inherit_unpriv(spec);
	if (err)
		test_spec_free(spec);
	return err;
}

static void free_mode(struct spec_mode *m)
{
	free(m->msgs);
	m->msgs = NULL;
	m->n_msgs = 0;
	for (int i = 0; i < NR_TEXTS; i++) {
		free(m->texts[i].v);
		m->texts[i].v = NULL;
		m->texts[i].n = 0;
	}
}

void test_spec_free(struct test_spec *spec)
{
	free_mode(&spec->priv);
	free_mode(&spec->unpriv);
}
