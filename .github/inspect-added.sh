#!/usr/bin/env bash
# .github/inspect-added.sh BASE: run `ashyams inspect` on every URL that network/sources.toml
# lists in the working tree but did not list at git revision BASE (added-sources.sh), as the
# pull-request check does. Exit 1 when any inspect fails (no readable site index), 0 otherwise.
#
# The output is read as a GitHub Actions log, and what inspect prints is publisher text: a line
# of it starting with "::" would be a workflow command (::error::, ::add-mask::, ::stop-commands::).
# So each URL's report is fenced by ::stop-commands::<random token> ... ::<token>:: (no workflow
# command is read in between), and, in case the fence is ever lost, every line that would start
# with "::" gets its first ':' written as \x3a and every "##[" as "##\x5b".
#
# Environment: ASHYAMS, the ashyams binary (default ./ashyams).
set -euo pipefail

base=${1:?usage: inspect-added.sh BASE}
ashyams=${ASHYAMS:-./ashyams}
here=$(dirname "${BASH_SOURCE[0]}")

# neutralize: copy stdin to stdout with no line a workflow command.
neutralize() { sed -e 's/^\([[:space:]]*\)::/\1\\x3a:/' -e 's/##\[/##\\x5b/g'; }

added=$("$here/added-sources.sh" "$base")
if [ -z "$added" ]; then
	echo "No sources added."
	exit 0
fi
failed=()
while IFS= read -r url; do
	token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	echo "::group::inspect $(printf '%s' "$url" | neutralize)"
	echo "::stop-commands::$token"
	"$ashyams" inspect "$url" </dev/null 2>&1 | neutralize || failed+=("$url")
	echo "::$token::"
	echo "::endgroup::"
done <<<"$added"
if ((${#failed[@]})); then
	printf 'inspect found no readable site index at: %s\n' "${failed[@]}" | neutralize
	exit 1
fi
echo "Every added source has a readable site index."
