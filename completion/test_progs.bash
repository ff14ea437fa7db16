# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Bash completion for bpfcheck's test_progs: options, and test and
# subtest names (from "test_progs --list=detail") after -t, -b, -a and -d, each
# entry of a comma list on its own.  Installed as
# share/bash-completion/completions/test_progs.

_bpfcheck_test_progs()
{
	local cur prev head names
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	case $prev in
	-t | -b | -a | -d | --name | --name-blacklist | --allow | --deny)
		# Entries before the last comma stay as typed.
		head=
		[[ $cur == *,* ]] && head=${cur%,*},
		names=$("${COMP_WORDS[0]}" --list=detail 2>/dev/null) || return 0
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$names" -- "${cur##*,}")
		return 0
		;;
	-J | --json | --json-summary | --junit)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
		;;
	-n | --num | -j | -w | --watchdog-timeout | --shard)
		return 0
		;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "-t --name -b --name-blacklist
			-a --allow -d --deny -n --num --shard -l --list -c --count
			-j --workers -w --watchdog-timeout -s --verifier-stats -v
			--verbose --debug --ktap -J --json --json-summary --junit
			--no-fork --leak-check -h --help --usage -V --version" -- "$cur")
	fi
}
complete -F _bpfcheck_test_progs test_progs
