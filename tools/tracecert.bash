# SPDX-License-Identifier: BSD-3-Clause
# bash completion for tracecert (installed as BASHCOMPDIR/tracecert by make install).
# The commands and each command's options are read from the tool's own help (`tracecert --help`,
# `tracecert CMD --help`), so they are always those of the installed tool.
_tracecert()
{
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --help 2>/dev/null |
				sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')" -- "$cur"))
		fi
		return 0
	fi
	[ "$cmd" = help ] && cmd=${COMP_WORDS[i+1]:-help}
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
			sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p')" -- "$cur"))
		return 0
	fi
	# An option's value or an operand: file names.
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}
complete -o filenames -F _tracecert tracecert
