# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154,SC2016
# (Sourced by history_check.sh, which sets T, DB, BENCH, BENCH_SAN, t0 and
# the helpers mkrep, hist, series and reports.)
#
# bench history's report shapes, export/import and plot, and what makes
# its store trustworthy: concurrent writers, refusals, a full disk, the
# schema's migration, bad input and bad usage.

check_shapes() {
	begin "vmtest --bench --json: a testbed per kernel; BMF needs --testbed"
	rm -f "$DB"
	jq -n '{accelerator: "tcg", icount: true, kernels: [{label: "6.1"}, {label: "6.12"}],
		cells: (([["6.1", 148.97], ["6.12", 179.02]] | map({name: "fizz/lookup",
			kernel: .[0], status: "ok", config: "prog-cost-fizzbuzz/octets",
			metrics: [{name: "test_run", unit: "insns/run", better: "lower",
				available: true, samples: [.[1], .[1], .[1]]}]})) +
			[{name: "fizz/lookup", kernel: "7.2", status: "failed", config: null,
			  metrics: []}])}' >"$T/vm.json"
	hist add --branch main --commit v1 "$T/vm.json"
	expect_exit 0
	hist report
	expect_match "$OUT" '^fizz/lookup +test_run +main +vm-tcg-icount-6\.1 '
	expect_match "$OUT" '^fizz/lookup +test_run +main +vm-tcg-icount-6\.12 '
	printf '{"a/b": {"latency": {"value": 10, "lower_value": 9, "upper_value": 11}}}\n' \
		>"$T/r.bmf"
	hist add --branch main --commit b1 "$T/r.bmf"
	expect_exit 2
	expect_nlines "$ERR" 1
	expect_has "$ERR" "give --testbed NAME"
	hist add --branch main --commit b1 --testbed laptop "$T/r.bmf"
	expect_exit 0
	hist report
	expect_match "$OUT" '^a/b +latency +main +laptop +1 +b1 +10 ns '
	end_check
}

check_export_import() {
	begin "export to BMF and import give back the same history; importing twice adds nothing"
	series 99 101 100 99.5 100.5 100
	hist report
	cp "$OUT" "$T/report.before"
	rm -rf "$T/exp2"
	hist export --out "$T/exp2"
	expect_exit 0
	expect_jq "$T/exp2/0001.json" '."prog-cost/made-up".test_run.value == 99'
	run "$BENCH" history import --db "$T/copy.db" "$T/exp2"
	expect_exit 0
	run "$BENCH" history import --db "$T/copy.db" "$T/exp2"
	expect_exit 0
	run "$BENCH" history report --db "$T/copy.db"
	expect_content "$OUT" "$(cat "$T/report.before")"
	end_check
}

check_plot() {
	begin "plot: an SVG and a PNG with the band and the alerts marked"
	series 99 101 100 99.5 100.5 100 110 100
	rm -rf "$T/plot"
	hist plot --out "$T/plot"
	expect_exit 0
	expect_line "$OUT" "bench history: wrote $T/plot/prog-cost_made-up__test_run.svg and $T/plot/prog-cost_made-up__test_run.png (1 line, 1 alert)"
	svg=$T/plot/prog-cost_made-up__test_run.svg
	expect_has "$svg" "<title>x86_64-2cpu-6.99-test (main): boundary limits</title>"
	expect_has "$svg" "<title>x86_64-2cpu-6.99-test (main): alert</title>"
	[ "$(head -c 8 "$T/plot/prog-cost_made-up__test_run.png" | od -An -tx1 | tr -d ' \n')" = \
		89504e470d0a1a0a ] || bad "the PNG has no PNG signature"
	series 99 101 100 99.5 100.5 100
	hist plot --out "$T/plot"
	expect_has "$OUT" "(1 line, 0 alerts)"
	end_check
}

check_concurrent() {
	# Four, from no file: they race to create it and its schema as well
	# (with the old code, 8 of 12 such runs lost a report).
	begin "four writers at once, from no file: 4 x 25 reports, none lost (WAL, busy timeout)"
	rm -f "$DB"
	mkrep "$T/c.json" 100
	for w in a b c d; do
		(
			for i in $(seq 1 25); do
				"$BENCH" history add --db "$DB" --branch "$w" --commit "$w$i" \
					"$T/c.json" >/dev/null || echo "$w$i failed"
			done
		) >"$T/writer-$w" 2>&1 &
	done
	wait
	for w in a b c d; do
		expect_empty "$T/writer-$w"
	done
	expect_eq "reports" 100 "$(reports "$DB")"
	end_check
}

# refused WHAT FILE NEEDLE: the history commands refuse FILE, one line,
# and leave it as it was.
refused() {
	begin "$1 is refused with one line and left as it was"
	sum=$(cksum <"$2")
	mkrep "$T/a.json" 100
	for c in add check; do
		run "$BENCH" history "$c" --db "$2" --branch main --commit c1 "$T/a.json"
		expect_exit 1
		expect_nlines "$ERR" 1
		expect_has "$ERR" "$3"
	done
	run "$BENCH" history report --db "$2"
	expect_exit 1
	expect_eq "the file's checksum" "$sum" "$(cksum <"$2")"
	end_check
}

check_refusals() {
	head -c 20000 /dev/urandom >"$T/garbage.db"
	refused "a file that is not SQLite" "$T/garbage.db" "not an SQLite database"
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("create table notes (t text)"); c.commit()' \
		"$T/foreign.db"
	refused "another program's SQLite database" "$T/foreign.db" \
		"an SQLite database of something else"
	series 99 101 100
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(4096); f.write(b"\xde\xad" * 2048); f.close()' "$DB"
	refused "a corrupt history" "$DB" "refusing to touch it"
	series 99 101 100
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = 99"); c.commit()' "$DB"
	refused "a history of a newer schema" "$DB" "schema version 99, this bench knows up to"
}

check_full_disk() {
	begin "a full disk: the add fails with one line, the old history stays whole"
	mkdir -p "$T/small"
	if ! mount -t tmpfs -o size=256k tmpfs "$T/small" 2>"$T/mount.err"; then
		bad "cannot mount a small tmpfs: $(cat "$T/mount.err")"
		end_check
		return
	fi
	series 99 101 100
	cp "$DB" "$T/small/h.db"
	# Leave a few KiB free.
	free=$(($(stat -f -c '%a * %S' "$T/small") - 49152))
	head -c "$free" /dev/zero >"$T/small/filler" 2>/dev/null
	before=$(reports "$T/small/h.db")
	i=0 rc=0
	while [ "$i" -lt 200 ] && [ "$rc" = 0 ]; do
		i=$((i + 1))
		jq -n --argjson i "$i" '{config: "big/\($i)", metrics: [range(0; 40) |
			{name: "m\(.)", unit: "ns/run", better: "lower", available: true,
			 samples: [1, 2, 3]}]}' >"$T/big.json"
		run "$BENCH" history add --db "$T/small/h.db" --branch main --commit "f$i" \
			--testbed t "$T/big.json"
		rc=$RC
	done
	expect_exit 1
	expect_nlines "$ERR" 1
	expect_has "$ERR" "the history is as it was"
	rm -f "$T/small/filler"
	expect_eq "reports: those before and those added" $((before + i - 1)) \
		"$(reports "$T/small/h.db")"
	umount "$T/small"
	end_check
}

check_migration() {
	begin "a schema 1 history is migrated to 2 and keeps its results"
	rm -f "$DB"
	mkrep "$T/a.json" 100
	hist add --schema 1 --branch main --commit c1 "$T/a.json"
	expect_eq "user_version" 1 "$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("pragma user_version").fetchone()[0])' "$DB")"
	hist threshold --measure test_run --test percentage
	expect_exit 0
	expect_eq "user_version" 2 "$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("pragma user_version").fetchone()[0])' "$DB")"
	expect_eq "reports" 1 "$(reports "$DB")"
	end_check
}

check_bad_input() {
	rm -f "$DB"
	mkrep "$T/neg.json" 100
	jq '.metrics[0].samples[1] = -5' "$T/neg.json" >"$T/neg2.json"
	check_rejected "a negative sample is refused, no history created" \
		"sample 1 is -5, expected a finite number >= 0" "$DB" \
		"$BENCH" history add --db "$DB" --branch main --commit c1 "$T/neg2.json"
	sed 's/100,/NaN,/' "$T/neg.json" >"$T/nan.json"
	check_rejected "NaN is refused" "nan.json: not valid JSON" "$DB" \
		"$BENCH" history add --db "$DB" --branch main --commit c1 "$T/nan.json"
	echo '{"foo": [1, 2]}' >"$T/other.json"
	check_rejected "a report of another shape is refused" \
		"not a report bench history reads" "$DB" \
		"$BENCH" history add --db "$DB" --branch main --commit c1 "$T/a.json" "$T/other.json"
	series 99 101 100
	sum=$(cksum <"$DB")
	begin "a bad report among good ones leaves the history as it was"
	run "$BENCH" history add --db "$DB" --branch main --commit c9 "$T/a.json" "$T/neg2.json"
	expect_exit 2
	expect_eq "the history's checksum" "$sum" "$(cksum <"$DB")"
	end_check
}

check_usage() {
	mkrep "$T/a.json" 100
	check_rejected "--test foo names the value and the accepted ones" \
		"--test 'foo': expected static, percentage, z_score, t_test or iqr" - \
		"$BENCH" history check --db "$DB" --test foo "$T/a.json"
	check_rejected "a t_test boundary of 1.5" \
		"--upper-boundary 1.5 for t_test: expected a percentile from 0.5 to below 1" - \
		"$BENCH" history check --db "$DB" --test t_test --upper-boundary 1.5 "$T/a.json"
	check_rejected "no --db" "add: --db FILE is required" - \
		"$BENCH" history add --branch main --commit c1 "$T/a.json"
	check_rejected "an unknown command" "unknown command 'ad': expected add," - \
		"$BENCH" history ad --db "$DB"
	check_rejected "--max-sample-size 0" "--max-sample-size '0': expected a count >= 1" - \
		"$BENCH" history check --db "$DB" --max-sample-size 0 "$T/a.json"
	check_rejected "static without a boundary" "--test static: needs" - \
		"$BENCH" history check --db "$DB" --test static "$T/a.json"
}

check_no_history() {
	begin "check before any history: exit 0, says so"
	mkrep "$T/a.json" 100
	run "$BENCH" history check --db "$T/none.db" --branch main --commit c1 "$T/a.json"
	expect_exit 0
	expect_has "$OUT" "does not exist yet"
	[ ! -e "$T/none.db" ] || bad "check created $T/none.db"
	end_check
}

# The commands again under ASan and UBSan (run() scans their output).
check_sanitizers() {
	begin "add, check, report, plot, export, import under ASan/UBSan"
	if [ ! -x "$BENCH_SAN" ]; then
		bad "$BENCH_SAN is missing (make check-bench builds it)"
		end_check
		return
	fi
	series 99 101 100 99.5
	mkrep "$T/n.json" 110
	for c in "add --branch main --commit s1" "check --branch main --commit s2" \
		"check --branch main --commit s2 --confirm $T/n.json" \
		"add --branch main --commit s1"; do
		# shellcheck disable=SC2086
		run "$BENCH_SAN" history $c --db "$DB" "$T/n.json"
	done
	expect_exit 0
	run "$BENCH_SAN" history report --db "$DB"
	run "$BENCH_SAN" history plot --db "$DB" --out "$T/splot"
	run "$BENCH_SAN" history export --db "$DB" --out "$T/sexp"
	run "$BENCH_SAN" history import --db "$T/san-copy.db" "$T/sexp"
	expect_exit 0
	run "$BENCH_SAN" history add --db "$DB" --branch main --commit c1 "$T/neg2.json"
	expect_exit 2
	end_check
}

trust_checks() {
	check_shapes
	check_export_import
	check_plot
	check_concurrent
	check_refusals
	check_full_disk
	check_migration
	check_bad_input
	check_usage
	check_no_history
	check_sanitizers
}
