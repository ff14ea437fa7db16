// SPDX-License-Identifier: GPL-2.0
/*
 * bpfcheck_splat: a module that makes the kernel print a WARNING, so that
 * vmtest's splat scan (vmtest/splat.sh) can be checked against the real
 * thing.  It warns once when it is loaded (unless warn_on_load=0) and once
 * per write to /sys/kernel/debug/bpfcheck_splat/warn.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/fs.h>

static bool warn_on_load = true;
module_param(warn_on_load, bool, 0444);
MODULE_PARM_DESC(warn_on_load, "print a WARNING when loaded (default: yes)");

static struct dentry *splat_dir;

static ssize_t warn_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	WARN(1, "bpfcheck_splat: WARNING on request (debugfs write)\n");
	return count;
}

static const struct file_operations warn_fops = {
	.owner = THIS_MODULE,
	.write = warn_write,
};

static int __init bpfcheck_splat_init(void)
{
	splat_dir = debugfs_create_dir("bpfcheck_splat", NULL);
	debugfs_create_file("warn", 0200, splat_dir, NULL, &warn_fops);
	WARN(warn_on_load, "bpfcheck_splat: WARNING on load, on purpose\n");
	return 0;
}

static void __exit bpfcheck_splat_exit(void)
{
	debugfs_remove_recursive(splat_dir);
}

module_init(bpfcheck_splat_init);
module_exit(bpfcheck_splat_exit);

MODULE_DESCRIPTION("bpfcheck: a WARNING on purpose, to check splat detection");
MODULE_LICENSE("GPL");
