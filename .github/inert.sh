# shellcheck shell=bash
# .github/inert.sh: sourced by the other .github/*.sh scripts. Everything they print that may
# hold outside text (URLs from a pull request's sources.toml, what ashyams prints, paths)
# passes through inert or inert_value, so no line of a GitHub Actions log they write is a
# workflow command. The rule is catalog/termtext's (Inert), on bytes:
#   - CR, VT, FF, NEL (U+0085), LS (U+2028) and PS (U+2029), where a runner also ends a line,
#     are written as \r, \v, \f, \u0085, \u2028, \u2029;
#   - "##[" (a legacy workflow command anywhere in a line) as "##\x5b";
#   - a line starting with "::" after white space (the runner trims Unicode white space) gets
#     its first ':' written as \x3a.
# Invalid UTF-8 passes as it is. cmd/ashyams's workflow-command test runs every script on
# hostile input and scans what it prints.

# inert: copy stdin to stdout under the rule, line by line (LF ends a line and is kept).
inert() { LC_ALL=C perl -C0 -pe "$_inert_rule"; }

# inert_value VALUE: print VALUE as one line under the rule, an LF inside it written as \n.
inert_value() { printf '%s' "$1" | LC_ALL=C perl -C0 -0777 -pe 's/\n/\\n/g;'"$_inert_rule"; echo; }

# say TEXT...: echo, under the rule (the arguments joined by spaces, as echo does).
say() { inert_value "$*"; }

# shellcheck disable=SC2016 # perl code, expanded by perl
_inert_rule='
	s/\r/\\r/g; s/\x0b/\\v/g; s/\f/\\f/g;
	s/\xc2\x85/\\u0085/g; s/\xe2\x80\xa8/\\u2028/g; s/\xe2\x80\xa9/\\u2029/g;
	s/##\[/##\\x5b/g;
	s/^((?:[ \t]|\xc2\xa0|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xaf]|\xe2\x81\x9f|\xe3\x80\x80)*)::/$1\\x3a:/mg;
'
