# SPDX-License-Identifier: MIT
# bash completion for ftrace2trace.
#
# The subcommands and their options are read from the tool's own --help
# (the "commands:" list, and the option lines that start with "-x, --name"
# or "--name"), so completion stays true when options are added.  What an
# option's argument is (an output file, a capture, a format name) is known
# here by the option's long name.  Needs nothing but bash: it works without
# the bash-completion package's helpers, and uses _command_offset from it
# for `record ... -- COMMAND` when that is there.

# The format names --format takes (src/output/format.c; txt = systrace).
_ftrace2trace_formats="perfetto fxt json json.gz systrace txt"

# Prints the subcommand names listed by `TOOL --help`.
_ftrace2trace_commands()
{
	"$1" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# Prints one line per option of `TOOL SUB --help`: "SHORT LONG TAKES_ARG",
# with "-" for a missing short name; TAKES_ARG is 1 when the option's
# argument is the next word ("-o, --output FILE"), else 0 ("--all",
# "--function[=GLOBS]").
_ftrace2trace_options()
{
	local line short takes re='^ +(-([[:alnum:]]), )?--([[:alnum:]][[:alnum:]-]*)(\[=[^]]*\])?( [A-Z][^ ]*)?( |$)'
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		short=- takes=0
		[ -n "${BASH_REMATCH[2]}" ] && short=-${BASH_REMATCH[2]}
		[ -n "${BASH_REMATCH[5]}" ] && takes=1
		echo "$short --${BASH_REMATCH[3]} $takes"
	done < <("$1" "$2" --help 2>/dev/null)
}

# Adds to COMPREPLY the directories and the files ending in .EXT for each
# EXT given, that start with CUR.
_ftrace2trace_files()
{
	local cur=$1 ext
	shift
	compopt -o filenames 2>/dev/null
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
	for ext in "$@"; do
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X "!*.$ext" -- "$cur")
	done
}

# Completes the argument of option LONG (e.g. --output) of subcommand SUB.
_ftrace2trace_optarg()
{
	local sub=$1 long=$2 cur=$3
	case $long in
	--output)
		if [ "$sub" = merge ]; then
			_ftrace2trace_files "$cur" json
		elif [ "$sub" = report ]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		else
			_ftrace2trace_files "$cur" pftrace perfetto-trace fxt json json.gz txt
		fi ;;
	--keep-capture) _ftrace2trace_files "$cur" cap ;;
	--format) mapfile -t COMPREPLY < <(compgen -W "$_ftrace2trace_formats" -- "$cur") ;;
	--call-graph) mapfile -t COMPREPLY < <(compgen -W "fp dwarf" -- "$cur") ;;
	--pid)
		mapfile -t COMPREPLY < <(compgen -W "$(cd /proc && compgen -G '[0-9]*')" -- "$cur") ;;
	esac
	# Anything else (seconds, sizes, globs) has nothing to offer.
	return 0
}

_ftrace2trace()
{
	local tool=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]} i w sub= subi=0
	COMPREPLY=()
	[[ $tool == "~/"* ]] && tool=$HOME/${tool#"~/"}

	# "--format=js" arrives as "--format" "=" "js": '=' breaks words.
	if [ "$cur" = "=" ]; then
		cur=
	elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi

	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w != -* ]]; then
			sub=$w subi=$i
			break
		fi
	done
	if [ -z "$sub" ]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_ftrace2trace_commands "$tool")" -- "$cur")
		fi
		return 0
	fi

	local opts argopts=" " s l a
	opts=$(_ftrace2trace_options "$tool" "$sub")
	while read -r s l a; do
		[ "$a" = 1 ] || continue
		[ "$s" = - ] || argopts+="$s=$l "
		argopts+="$l=$l "
	done <<<"$opts"

	# Where the words before this one leave us: past "--", or past the
	# first operand (record's COMMAND, whose own arguments follow it).
	local dashdash=0 operand=0
	for ((i = subi + 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ "$dashdash" = 1 ] || [ "$operand" -gt 0 ]; then
			break
		elif [ "$w" = -- ]; then
			dashdash=1 operand=$((i + 1))
		elif [[ $argopts == *" $w="* ]] && [ "${COMP_WORDS[i + 1]}" != "=" ]; then
			((i++))
		elif [ "$w" = "=" ]; then
			((i++))
		elif [[ $w != -* ]]; then
			[ "$sub" = record ] && operand=$i
		fi
	done

	if [ "$sub" = record ] && [ "$operand" -gt 0 ] && [ "$operand" -le "$COMP_CWORD" ]; then
		# The rest of the line is the command to run.
		if [ "$operand" -lt "$COMP_CWORD" ] && declare -F _command_offset >/dev/null; then
			_command_offset "$operand"
		elif [ "$operand" -eq "$COMP_CWORD" ]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -c -- "$cur"; [[ $cur == */* ]] && compgen -f -- "$cur")
		else
			compopt -o default 2>/dev/null
		fi
		return 0
	fi

	if [ "$dashdash" = 0 ] && [[ $argopts == *" $prev="* ]]; then
		l=${argopts#*" $prev="}
		_ftrace2trace_optarg "$sub" "${l%% *}" "$cur"
		return 0
	fi
	# "--format=js" as one word: when COMP_WORDBREAKS has no '='.
	if [ "$dashdash" = 0 ] && [[ $cur == --*=* && $argopts == *" ${cur%%=*}="* ]]; then
		l=${argopts#*" ${cur%%=*}="}
		_ftrace2trace_optarg "$sub" "${l%% *}" "${cur#*=}"
		COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
		return 0
	fi

	if [ "$dashdash" = 0 ] && [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(awk '$1 != "-" { print $1 } { print $2 }' <<<"$opts")" -- "$cur")
		return 0
	fi

	case $sub in
	convert | report) _ftrace2trace_files "$cur" cap dat txt trace html ;;
	dump) _ftrace2trace_files "$cur" fxt ;;
	open) _ftrace2trace_files "$cur" pftrace perfetto-trace fxt json json.gz ;;
	merge) _ftrace2trace_files "$cur" json ;;
	record)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -c -- "$cur"; [[ $cur == */* ]] && compgen -f -- "$cur") ;;
	esac
	return 0
}

complete -F _ftrace2trace ftrace2trace
