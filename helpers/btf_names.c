// SPDX-License-Identifier: GPL-2.0
/*
 * Name a program's nameless function parameters from another object's
 * BTF.  New prototypes are appended to the program's BTF and the
 * functions pointed at them; appending may move the BTF's data, so no
 * pointer into it is kept across an append.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "btf_names.h"

/* The FUNC_PROTO of the function named name in btf, or NULL. */
static const struct btf_type *proto_by_name(const struct btf *btf,
					    const char *name)
{
	__s32 id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	const struct btf_type *t;

	if (id <= 0)
		return NULL;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	return t && btf_is_func_proto(t) ? t : NULL;
}

/* A prototype of ret and types, named as names says: its id or -errno. */
static int add_named_proto(struct btf *btf, __u32 ret, const __u32 *types,
			   const struct btf *names_btf,
			   const struct btf_type *names, __u16 n)
{
	const struct btf_param *p = btf_params(names);
	int id = btf__add_func_proto(btf, ret);

	for (__u16 i = 0; id > 0 && i < n; i++) {
		const char *name = btf__name_by_offset(names_btf, p[i].name_off);
		int err = btf__add_func_param(btf, name ? name : "", types[i]);

		if (err)
			return err;
	}
	return id;
}

/* Rename the parameters of function func_id; 0 when there is no match. */
static int rename_params(struct btf *btf, __u32 func_id,
			 const struct btf *names_btf)
{
	const struct btf_type *fn = btf__type_by_id(btf, func_id);
	const struct btf_type *proto = btf__type_by_id(btf, fn->type);
	const struct btf_type *named;
	__u32 *types, ret;
	__u16 n;
	int id;

	if (!proto || !btf_is_func_proto(proto) || !btf_vlen(proto) ||
	    btf_params(proto)[0].name_off)
		return 0;
	named = proto_by_name(names_btf, btf__name_by_offset(btf, fn->name_off));
	n = btf_vlen(proto);
	if (!named || btf_vlen(named) != n)
		return 0;
	types = calloc(n, sizeof(*types));
	if (!types)
		return -ENOMEM;
	for (__u16 i = 0; i < n; i++)
		types[i] = btf_params(proto)[i].type;
	ret = proto->type;
	id = add_named_proto(btf, ret, types, names_btf, named, n);
	free(types);
	if (id < 0)
		return id;
	((struct btf_type *)btf__type_by_id(btf, func_id))->type = id;
	return 0;
}

int btf_name_params_from(struct bpf_object *obj, const char *path)
{
	struct btf *btf = bpf_object__btf(obj), *names_btf;
	__u32 cnt;
	int err = 0;

	if (!btf)
		return 0;
	names_btf = btf__parse(path, NULL);
	if (!names_btf)
		return -errno;
	cnt = btf__type_cnt(btf);
	for (__u32 id = 1; id < cnt && !err; id++)
		if (btf_is_func(btf__type_by_id(btf, id)))
			err = rename_params(btf, id, names_btf);
	btf__free(names_btf);
	return err;
}
