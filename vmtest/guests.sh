# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest's guests (sourced by vmtest.sh; POSIX sh): boot one kernel's guest
# and write its record (run_guest), and run every kernel's guest, at most
# JOBS at a time (guests_run).  A guest's inputs are its directory
# WORK/kN (kernel.env, initrd); its outputs are files there: status,
# detail, seconds, results/, record.json.

# Boot the guest of DIR, classify how it ended and write DIR/record.json.
run_guest() {	# DIR ACCEL TIMEOUT LIMIT VNG
	d=$1 accel=$2 tmo=$3 limit=$4 vng=$5
	# shellcheck disable=SC1091
	. "$d/kernel.env"
	vt_log "$K_LABEL: booting $K_RELEASE ($(echo "$accel" | tr a-z A-Z), command timeout $tmo s)"
	if [ "$vng" = 1 ]; then
		vng_boot "$d" "$accel" "$K_IMAGE" "$limit" "$tmo"
	else
		vm_boot "$d" "$accel" "$K_IMAGE" "$d/initrd" "$limit"
		vm_collect "$d"
	fi
	vm_classify "$d" "$limit" "$tmo"
	vt_log "$K_LABEL: $(cat "$d/status") after $(cat "$d/seconds") s: $(cat "$d/detail")"
	json_in=$d/results/test_progs.json
	if [ -s "$json_in" ] && jq -e . "$json_in" >/dev/null 2>&1; then
		set -- --slurpfile r "$json_in"
	else
		set -- --argjson r '[]'
	fi
	# Each splat with its text: the JSON is what outlives the work directory.
	if [ -s "$d/splats.tsv" ]; then
		splat_json "$d/splats.tsv" "$d/results" >"$d/splats.json"
	else
		echo '[]' >"$d/splats.json"
	fi
	rec() { sed -n "s/^$1 //p" "$d/records" | head -n 1; }
	init=$(rec INIT) start=$(rec START)
	end=$(vm_status_field "$d" end)
	rc=$(vm_status_field "$d" rc)
	jq -n "$@" --arg lbl "$K_LABEL" --arg kargs "$K_KARGS" \
		--arg rel "$K_RELEASE" --arg src "${K_PKGS:-$K_IMAGE}" \
		--arg st "$(cat "$d/status")" --arg why "$(cat "$d/detail")" \
		--arg rc "$rc" --arg secs "$(cat "$d/seconds")" \
		--arg t_init "$init" --arg t_start "$start" --arg t_end "$end" \
		--slurpfile splats "$d/splats.json" '
		def num: if . == "" or . == "none" then null else tonumber end;
		{"label": $lbl, "kernel_args": $kargs, "release": $rel,
		 "source": $src, "status": $st, "detail": $why,
		 "exit_code": ($rc | num), "seconds": ($secs | num),
		 "guest": {"init": ($t_init | num), "command_start": ($t_start | num),
			 "command_end": ($t_end | num)},
		 "splats": $splats[0], "results": ($r[0] // null)}' >"$d/record.json"
}

# The guests of WORK/k1..kNK, JOBS at a time (a FIFO of tokens); the pids of
# the running jobs go to WORK/jobs for the cleanup.  In the caller's shell
# (g_ names), so that its traps run while it waits.
guests_run() {	# WORK NK JOBS ACCEL TIMEOUT LIMIT VNG
	g_work=$1 g_nk=$2 g_jobs=$3
	shift 3
	g_t0=$(vt_now)
	g_fifo=$g_work/slots
	mkfifo "$g_fifo" && exec 6<>"$g_fifo" && rm -f "$g_fifo" || vt_die "mkfifo failed"
	g_n=0
	while [ "$g_n" -lt "$g_jobs" ]; do
		echo >&6
		g_n=$((g_n + 1))
	done
	: >"$g_work/jobs"
	g_i=0
	while [ "$g_i" -lt "$g_nk" ]; do
		g_i=$((g_i + 1))
		read -r _ <&6
		(
			trap - EXIT INT TERM HUP
			run_guest "$g_work/k$g_i" "$@"
			echo >&6
		) &
		echo "$!" >>"$g_work/jobs"
	done
	wait
	: >"$g_work/jobs"
	exec 6>&-
	vt_log "$g_nk guest(s) done in $(vt_elapsed "$g_t0") s wall (-j $g_jobs)"
}
