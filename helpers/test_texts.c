// SPDX-License-Identifier: GPL-2.0
/*
 * The texts RUN_TESTS() matches besides the verifier log: the translated
 * program (insn_text.c), its JIT image (jit_text.c, LLVM), and the BPF
 * streams a program writes to (BPF_PROG_STREAM_READ_BY_FD, kernel 6.17
 * and libbpf 1.6 on).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf_version.h>

#include "insn_text.h"
#include "jit_text.h"
#include "test_api.h"
#include "test_texts.h"

#define STREAM_BUF_SZ	(1u << 20)
#define STREAM_STDOUT	1
#define STREAM_STDERR	2

static const char *const text_names[NR_TEXTS] = {
	[TEXT_XLATED] = "XLATED", [TEXT_JITED] = "JITED",
	[TEXT_STDERR] = "STDERR", [TEXT_STDOUT] = "STDOUT",
};

/* Match; on a mismatch fail the subtest and show the whole text. */
static void check_text(const struct spec_mode *m, int which, const char *text)
{
	const struct spec_lines *l = &m->texts[which];

	if (match_msgs(text_names[which], l->v, l->n, text))
		return;
	test__fail();
	fprintf(stderr, "%s:\n=============\n%s=============\n",
		text_names[which], text);
}

void check_prog_texts(int prog_fd, const struct spec_mode *m)
{
	char *text;

	if (m->texts[TEXT_XLATED].n) {
		text = xlated_prog_text(prog_fd);
		if (!text) {
			ASSERT_FAIL("reading the translated program: %s", strerror(errno));
			return;
		}
		check_text(m, TEXT_XLATED, text);
		free(text);
	}
	if (m->texts[TEXT_JITED].n) {
		text = jited_prog_text(prog_fd);
		if (!text && errno == ELIBACC) {
			test__skip_reason("__jited: LLVM's library (%s) is not here",
					  LLVM_LIB);
			return;
		}
		if (!text && errno == ENOENT) {
			ASSERT_FAIL("__jited: the program has no JIT image (%s)",
				    "net.core.bpf_jit_enable is 0?");
			return;
		}
		if (!text) {
			ASSERT_FAIL("disassembling the JIT image: %s", strerror(errno));
			return;
		}
		check_text(m, TEXT_JITED, text);
		free(text);
	}
}

#if LIBBPF_MAJOR_VERSION > 1 || LIBBPF_MINOR_VERSION >= 6
static int read_stream(int prog_fd, int id, char *buf, size_t sz)
{
	LIBBPF_OPTS(bpf_prog_stream_read_opts, opts);

	return bpf_prog_stream_read(prog_fd, id, buf, sz - 1, &opts);
}
#else
static int read_stream(int prog_fd, int id, char *buf, size_t sz)
{
	(void)prog_fd, (void)id, (void)buf, (void)sz;
	return -EOPNOTSUPP;
}
#endif

/* A kernel without streams answers EINVAL (unknown command). */
static void check_stream(int prog_fd, const struct spec_mode *m, int which,
			 int id, char *buf)
{
	int n;

	if (!m->texts[which].n)
		return;
	n = read_stream(prog_fd, id, buf, STREAM_BUF_SZ);
	if (n == -EOPNOTSUPP || n == -EINVAL) {
		test__skip_reason("__%s: no BPF streams (%s: kernel 6.17 and libbpf 1.6 have them)",
				  which == TEXT_STDERR ? "stderr" : "stdout",
				  n == -EINVAL ? "the kernel refused the read" :
				  "libbpf is older");
		return;
	}
	if (n <= 0) {
		ASSERT_FAIL("reading the program's %s stream: %d (it wrote nothing?)",
			    which == TEXT_STDERR ? "stderr" : "stdout", n);
		return;
	}
	buf[n] = '\0';
	check_text(m, which, buf);
}

void check_streams(int prog_fd, const struct spec_mode *m)
{
	char *buf;

	if (!m->texts[TEXT_STDERR].n && !m->texts[TEXT_STDOUT].n)
		return;
	buf = malloc(STREAM_BUF_SZ);
	if (!buf) {
		ASSERT_FAIL("malloc");
		return;
	}
	check_stream(prog_fd, m, TEXT_STDERR, STREAM_STDERR, buf);
	check_stream(prog_fd, m, TEXT_STDOUT, STREAM_STDOUT, buf);
	free(buf);
}
