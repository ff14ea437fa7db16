// SPDX-License-Identifier: GPL-2.0
/* Effective capabilities through capget/capset (no libcap needed). */
#include <errno.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cap_helpers.h"

static int caps_get(struct __user_cap_header_struct *hdr,
		    struct __user_cap_data_struct data[2])
{
	hdr->version = _LINUX_CAPABILITY_VERSION_3;
	hdr->pid = 0;
	return syscall(SYS_capget, hdr, data) ? -errno : 0;
}

/* Set (on) or clear (!on) caps in the effective set. */
static int cap_change(__u64 caps, __u64 *old_caps, bool on)
{
	struct __user_cap_header_struct hdr;
	struct __user_cap_data_struct data[2];
	__u64 eff;
	int err = caps_get(&hdr, data);

	if (err)
		return err;
	eff = (__u64)data[1].effective << 32 | data[0].effective;
	if (old_caps)
		*old_caps = eff;
	eff = on ? eff | caps : eff & ~caps;
	data[0].effective = (__u32)eff;
	data[1].effective = (__u32)(eff >> 32);
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

int cap_enable_effective(__u64 caps, __u64 *old_caps)
{
	return cap_change(caps, old_caps, true);
}

int cap_disable_effective(__u64 caps, __u64 *old_caps)
{
	return cap_change(caps, old_caps, false);
}
