/* SPDX-License-Identifier: GPL-2.0 */
/* The classes pktclass.bpf.c counts, shared with its tests. */
#ifndef PKTCLASS_H
#define PKTCLASS_H

enum pkt_class {
	PKTCLASS_OTHER,		/* not IPv4, or IPv4 that is none of below */
	PKTCLASS_WEB,		/* TCP to port 80 or 443 */
	PKTCLASS_SSH,		/* TCP to port 22 */
	PKTCLASS_DNS,		/* UDP to port 53 */
	PKTCLASS_SHORT,		/* headers cut short: dropped */
	PKTCLASS_MAX,
};

#endif
