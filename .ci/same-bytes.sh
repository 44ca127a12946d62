#!/usr/bin/env bash
# .ci/same-bytes.sh REV_A REV_B: build the demo site from two revisions of this repository and
# say whether every file has the same bytes. A restructuring must not change the site; the demo
# builds the same bytes on every run, so equal digests show it. Prints the paths that differ
# and exits 1 when any does.
set -euo pipefail
[ $# = 2 ] || { echo "usage: .ci/same-bytes.sh REV_A REV_B" >&2; exit 2; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/a" 2>/dev/null || true; git worktree remove --force "$tmp/b" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for side in a b; do
	rev=$1
	shift
	git worktree add -q --detach "$tmp/$side" "$rev"
	(cd "$tmp/$side" && go run ./cmd/ashyams demo --out "$tmp/site-$side" >/dev/null 2>&1) ||
		{ echo ".ci/same-bytes.sh: the demo failed at $rev" >&2; exit 1; }
	(cd "$tmp/site-$side" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$tmp/$side.sums"
done
if diff "$tmp/a.sums" "$tmp/b.sums"; then
	echo "identical: $(wc -l < "$tmp/a.sums") files"
else
	exit 1
fi
