/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kfuncs the kernel's selftests declare in bpf_kfuncs.h: dynamic pointers
 * over packets, signatures and keys, extended attributes, sessions.
 * Build with BPF_NO_KFUNC_PROTOTYPES (see bpf_experimental.h).
 */
#ifndef BPFCHECK_BPF_KFUNCS_H
#define BPFCHECK_BPF_KFUNCS_H

struct bpf_sock_addr_kern;

/* A dynptr over an skb's or an xdp_md's packet data.  0 or -errno. */
extern int bpf_dynptr_from_skb(struct __sk_buff *skb, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym __weak;
extern int bpf_dynptr_from_xdp(struct xdp_md *xdp, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym __weak;
/* A pointer to len bytes at offset: into the data, or copied to buffer. */
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset,
			      void *buffer, __u32 buffer__szk) __ksym __weak;
extern void *bpf_dynptr_slice_rdwr(const struct bpf_dynptr *ptr, __u32 offset,
				   void *buffer, __u32 buffer__szk) __ksym __weak;
extern int bpf_dynptr_adjust(const struct bpf_dynptr *ptr, __u32 start,
			     __u32 end) __ksym __weak;
extern bool bpf_dynptr_is_null(const struct bpf_dynptr *ptr) __ksym __weak;
extern bool bpf_dynptr_is_rdonly(const struct bpf_dynptr *ptr) __ksym __weak;
extern __u32 bpf_dynptr_size(const struct bpf_dynptr *ptr) __ksym __weak;
extern int bpf_dynptr_clone(const struct bpf_dynptr *ptr,
			    struct bpf_dynptr *clone__init) __ksym __weak;

/* Sockets. */
extern int bpf_sock_addr_set_sun_path(struct bpf_sock_addr_kern *sa_kern,
				      const __u8 *sun_path,
				      __u32 sun_path__sz) __ksym __weak;
extern int bpf_sock_destroy(struct sock_common *sk) __ksym __weak;

/* Read-only views of kernel memory of a given BTF type. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* Files: extended attributes, fs-verity digests. */
extern int bpf_get_file_xattr(struct file *file, const char *name,
			      struct bpf_dynptr *value_ptr) __ksym __weak;
extern int bpf_get_fsverity_digest(struct file *file,
				   struct bpf_dynptr *digest_ptr) __ksym __weak;

/* Keys and PKCS#7 signatures. */
extern struct bpf_key *bpf_lookup_user_key(__u32 serial, __u64 flags) __ksym __weak;
extern struct bpf_key *bpf_lookup_system_key(__u64 id) __ksym __weak;
extern void bpf_key_put(struct bpf_key *key) __ksym __weak;
extern int bpf_verify_pkcs7_signature(struct bpf_dynptr *data_ptr,
				      struct bpf_dynptr *sig_ptr,
				      struct bpf_key *trusted_keyring) __ksym __weak;

/* kprobe.session and uprobe.session programs. */
extern bool bpf_session_is_return(void) __ksym __weak;
extern __u64 *bpf_session_cookie(void) __ksym __weak;

#endif
