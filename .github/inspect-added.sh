#!/usr/bin/env bash
# .github/inspect-added.sh BASE: run `ashyams inspect` on every URL that network/sources.toml
# lists in the working tree but did not list at git revision BASE (added-sources.sh), as the
# pull-request check does. Exit 1 when any inspect fails (no readable site index, or a claim that
# would not be current), 0 otherwise.
#
# The output is read as a GitHub Actions log, and what inspect prints is publisher text: a line
# of it starting with "::" would be a workflow command (::error::, ::add-mask::, ::stop-commands::).
# So each URL's report is fenced by ::stop-commands::<random token> ... ::<token>:: (no workflow
# command is read in between), and, in case the fence is ever lost, everything printed between
# the script's own commands goes through inert.sh's rule (no CR or other line break but LF, no
# line starting with "::", no "##[").
#
# Environment: ASHYAMS, the ashyams binary (default ./ashyams).
set -euo pipefail

base=${1:?usage: inspect-added.sh BASE}
ashyams=${ASHYAMS:-./ashyams}
here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=.github/inert.sh
. "$here/inert.sh"

added=$("$here/added-sources.sh" "$base")
if [ -z "$added" ]; then
	echo "No sources added."
	exit 0
fi
failed=()
while IFS= read -r url; do
	token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	echo "::group::inspect $(inert_value "$url")"
	echo "::stop-commands::$token"
	"$ashyams" inspect "$url" </dev/null 2>&1 | inert || failed+=("$url")
	echo "::$token::"
	echo "::endgroup::"
done <<<"$added"
if ((${#failed[@]})); then
	for url in "${failed[@]}"; do say "inspect found no readable site index, or a claim that would not be current, at: $url"; done
	exit 1
fi
echo "Every added source has a readable site index, and every claim would be current."
