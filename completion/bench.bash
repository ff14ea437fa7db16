# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Bash completion for bpfcheck's bench: benchmark names (from "bench -l"),
# its commands ("compare", "sweep-table"), the options and the values of
# the ones with a fixed set.
# Installed as share/bash-completion/completions/bench.

_bpfcheck_bench()
{
	local cur prev names
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	case $prev in
	--json | --bmf | --obj | --data-in | --csv)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
		;;
	--attach)
		mapfile -t COMPREPLY < <(compgen -W "auto fentry tp raw_tp" -- "$cur")
		return 0
		;;
	--op)
		mapfile -t COMPREPLY < <(compgen -W "lookup update delete" -- "$cur")
		return 0
		;;
	-d | -w | -p | -c | --duration | --warmup | --producers | --consumers | \
	--prod-affinity | --cons-affinity | --batch-cnt | --sampled | --rb-size | \
	--pb-pages | --queue-size | --variant | --keys | --hit-pct | --prog | --guard)
		return 0
		;;
	esac
	if [[ (${COMP_WORDS[1]} == compare || ${COMP_WORDS[1]} == sweep-table) &&
		$COMP_CWORD -gt 1 ]]; then
		if [[ $cur == -* && ${COMP_WORDS[1]} == compare ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--threshold --alpha --help" -- "$cur")
		elif [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--csv --guard --help" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "-l --list -d --duration -w --warmup
			-p --producers -c --consumers -a --affinity --prod-affinity
			--cons-affinity -q --quiet -v --verbose --json --bmf --help
			--version --batch-cnt --sampled --b2b --attach --rb-size
			--pb-pages --queue-size --variant --keys --hit-pct --op --obj
			--prog --data-in" -- "$cur")
		return 0
	fi
	names=$("${COMP_WORDS[0]}" -l 2>/dev/null | awk '{ print $1 }') || return 0
	[[ $COMP_CWORD -eq 1 ]] && names="$names compare sweep-table"
	mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur")
}
complete -F _bpfcheck_bench bench
