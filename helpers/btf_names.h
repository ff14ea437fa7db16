/* SPDX-License-Identifier: GPL-2.0 */
/*
 * __btf_func_path(): clang leaves the parameters of __naked functions
 * nameless in BTF; another object (built from a C declaration of the
 * same functions) has their names.
 */
#ifndef BPFCHECK_BTF_NAMES_H
#define BPFCHECK_BTF_NAMES_H

#include <bpf/libbpf.h>

/*
 * For each function of obj's BTF whose parameters have no names, give
 * it a prototype with the names the function of the same name and
 * arity has in the BTF of the object at path (types stay obj's).  0 or
 * -errno (the file is missing or has no BTF).
 */
int btf_name_params_from(struct bpf_object *obj, const char *path);

#endif
