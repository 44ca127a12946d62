#!/usr/bin/env bash
# .github/added-sources.sh BASE [FILE]: print, one per line, each url that FILE (default
# network/sources.toml) lists in the working tree but did not list at git revision BASE. The
# pull-request check runs `ashyams inspect` on each. A URL whose entry only moved or whose note
# changed is not printed. Each URL is printed through inert.sh's inert_value: a URL holding a line
# break (a TOML escape) is one line, with its breaks escaped, and no line is a workflow command.
set -euo pipefail
export LC_ALL=C # sort and comm must agree on order

base=${1:?usage: added-sources.sh BASE [FILE]}
file=${2:-network/sources.toml}
here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=.github/inert.sh
. "$here/inert.sh"

# urls: the url of every [[source]] in the TOML on stdin, read by a TOML parser (Python's
# tomllib), so every spelling TOML allows counts ('...', "url" = ..., inline tables), as refresh
# reads them. A file that is not TOML fails here, and so fails the pull-request check. Each url
# ends with a NUL byte, so one holding a line break stays one url.
urls() { python3 -c 'import sys, tomllib
try:
    doc = tomllib.loads(sys.stdin.read())
except tomllib.TOMLDecodeError as e:
    sys.exit("not valid TOML: %s" % e)
for s in doc.get("source", []):
    if isinstance(s, dict) and isinstance(s.get("url"), str) and s["url"] != "":
        sys.stdout.write(s["url"] + "\0")' 2> >(inert >&2) | sort -zu; }

git rev-parse -q --verify "$base^{commit}" >/dev/null || { say "added-sources.sh: unknown revision $base" >&2; exit 1; }
[ -f "$file" ] || { say "added-sources.sh: $file is missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git show "$base:$file" 2>/dev/null | urls >"$tmp/old" || : >"$tmp/old"
urls <"$file" >"$tmp/new" || { say "added-sources.sh: $file is not a TOML source list" >&2; exit 1; }
comm -z -13 "$tmp/old" "$tmp/new" | while IFS= read -r -d '' url; do inert_value "$url"; done
