# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Kernel splats in a guest's kernel log (sourced; POSIX sh).
#
#   splat_plain RAW              the log of "dmesg -r" without its <N>
#                                prefixes, as plain dmesg prints it
#   splat_scan LOG OUTDIR        one line per splat on stdout, tab-separated:
#                                KIND FILE TEST DURING MODULE FIRST-LINE;
#                                each splat's text in OUTDIR/FILE
#   splat_json TSV OUTDIR        those lines as a JSON array, with the texts
#   splat_summary TSV            one line naming them, for a detail
#
# KINDS: WARNING, BUG, Oops, panic, KASAN, UBSAN, lockdep, RCU stall,
# soft lockup, hard lockup, hung task.  A splat is a kernel message that
# starts with its marker ("WARNING: CPU: 0 PID: 1 at ...", "BUG: ...",
# "rcu: INFO: rcu_sched detected stalls ...") and runs to the kernel's
# "---[ end ...]---", to the next splat or marker, or 400 lines.  An Oops
# or panic right after a BUG or KASAN report belongs to it.
#
# The log of "dmesg -r" (vmtest/init) keeps each line's facility: a line
# a process wrote to /dev/kmsg has the user facility (it cannot claim the
# kernel's), so a test that logs "WARNING: ..." there is never a splat.
# Such lines that start "bpfcheck: " are markers: "bpfcheck: test NAME"
# from test_progs (harness/kmsg.c, with BPFCHECK_KMSG=1), "bpfcheck:
# insmod X.ko", "bpfcheck: the command" and "bpfcheck: shutdown" from the
# init.  A splat names the last marker as DURING ("boot" before any) and
# its TEST (a test_progs test or test/subtest, or "-"); test_progs's
# markers end "(pid N)", and a splat that names the pid of a test's
# process (its "PID: N", "[comm:N]") names that test, as tests run in
# parallel (-j).  In a plain log
# (no <N>) every line may be either.  MODULE is the "[name]" the first
# line or the RIP line ends with, or "-".

splat_plain() {	# RAW
	sed 's/^<[0-9]*>//' "$1"
}

splat_scan() {	# LOG OUTDIR
	tr -d '\r\t' <"$1" | awk -v dir="$2" '
	function kind_of(m) {
		if (m ~ /^WARNING: CPU: [0-9]+ PID: [0-9]+/) return "WARNING"
		if (m ~ /^WARNING: .*(lock|RCU)/ || m ~ /^INFO: possible (circular|recursive) locking/) return "lockdep"
		if (m ~ /^WARNING: /) return "WARNING"
		if (m ~ /^(BUG: )?KASAN: /) return "KASAN"
		if (m ~ /^UBSAN: /) return "UBSAN"
		if (m ~ /^(watchdog: )?BUG: soft lockup/) return "soft lockup"
		if (m ~ /Watchdog detected hard LOCKUP/) return "hard lockup"
		if (m ~ /^(rcu: )?INFO: rcu_[a-z_]+ (self-)?detected stall/) return "RCU stall"
		if (m ~ /^INFO: task .* blocked for more than [0-9]+ seconds/) return "hung task"
		if (m ~ /^BUG: / || m ~ /^kernel BUG at /) return "BUG"
		if (m ~ /^(Oops: |general protection fault|Unable to handle kernel|invalid opcode: )/) return "Oops"
		if (m ~ /^Kernel panic - not syncing/) return "panic"
		return ""
	}
	function module_of(m) {
		if (match(m, /\[[A-Za-z0-9_]+\]$/))
			return substr(m, RSTART + 1, RLENGTH - 2)
		return ""
	}
	function close_splat() {
		if (!open) return
		close(file)
		# The test whose process the splat names, else the last marker.
		if (spid != "" && (spid in test_of)) {
			s_test = test_of[spid]; s_during = "test " s_test
		}
		printf "%s\t%s\t%s\t%s\t%s\t%s\n", kind, name, s_test, s_during,
			(mod == "" ? "-" : mod), first
		open = 0
	}
	# The pid a splat line names: "PID: N" or "[comm:N]".
	function pid_in(m) {
		if (match(m, /PID: [0-9]+/))
			return substr(m, RSTART + 5, RLENGTH - 5)
		if (match(m, /\[[^]:]+:[0-9]+\]$/)) {
			m = substr(m, RSTART, RLENGTH - 1)
			sub(/.*:/, "", m)
			return m
		}
		return ""
	}
	BEGIN { during = "boot"; test = "-"; n = 0; open = 0; cut = ""; ncut = 0 }
	{
		line = $0
		# Plain logs: nothing tells who wrote a line.
		user = kernel = 1
		if (match(line, /^<[0-9]+>/)) {
			user = substr(line, 2, RLENGTH - 2) + 0 >= 8
			kernel = !user
			line = substr(line, RLENGTH + 1)
		}
		msg = line
		sub(/^\[ *[0-9]+\.[0-9]+\] /, "", msg)
		if (user && msg ~ /^bpfcheck: /) {
			m = substr(msg, 11); pid = ""
			if (match(m, / \(pid [0-9]+\)$/)) {
				pid = substr(m, RSTART + 6, RLENGTH - 7)
				m = substr(m, 1, RSTART - 1)
			}
			# Tests in parallel: another test starting does not end
			# a splat; a step of the init does.
			if (m !~ /^test /)
				close_splat()
			during = m
			test = "-"
			if (during ~ /^test /)
				test = substr(during, 6)
			if (pid != "")
				test_of[pid] = test
			next
		}
		# WARN() and BUG() print "cut here" and their message before
		# the splat line: the text keeps them.
		if (kernel && msg ~ /^-+\[ cut here \]-+$/) {
			cut = line "\n"; ncut = 1
			next
		}
		k = kernel ? kind_of(msg) : ""
		if (k != "" && open && (k == "Oops" || k == "panic") &&
		    (kind == "BUG" || kind == "KASAN" || kind == "Oops"))
			k = ""
		if (k != "") {
			close_splat()
			n++
			name = "splat-" n ".txt"
			file = dir "/" name
			open = 1; kind = k; first = msg; lines = 0
			s_test = test; s_during = during; spid = ""
			mod = module_of(msg)
			printf "%s", cut >file
		}
		if (ncut && !open && kernel && ncut++ < 4)
			cut = cut line "\n"
		else
			cut = ""; ncut = 0
		if (!open) next
		print line >file
		lines++
		if (mod == "" && msg ~ /^RIP: /)
			mod = module_of(msg)
		if (spid == "")
			spid = pid_in(msg)
		if (msg ~ /^---\[ end / || lines >= 400)
			close_splat()
	}
	END { close_splat() }'
}

splat_json() {	# TSV OUTDIR
	tab=$(printf '\t')
	while IFS=$tab read -r kind file test during mod first; do
		jq -n --arg kind "$kind" --arg file "$file" --arg test "$test" \
			--arg during "$during" --arg mod "$mod" --arg line "$first" \
			--rawfile text "$2/$file" '
			def opt: if . == "-" then null else . end;
			{kind: $kind, line: $line, test: ($test | opt), during: $during,
			 module: ($mod | opt), file: $file, text: $text}'
	done <"$1" | jq -s .
}

# "WARNING in bpfcheck_splat during insmod bpfcheck_splat.ko (+1 more)"
splat_summary() {	# TSV
	awk -F '\t' 'NR == 1 {
		s = $1 (($5 != "-") ? " in " $5 : "") " during " $4
	}
	END { if (NR > 1) s = s " (+" NR - 1 " more)"; if (NR) print s }' "$1"
}
