#!/usr/bin/env bash
# .github/state.sh: the git steps around a refresh, shared by the network workflow and anyone
# running the index from a clone. The state directory (state/ by default) is a git worktree of
# the network-state branch, so main's history never sees an observation and the state branch
# never sees code (seeds/state.txt, "History").
#
#   .github/state.sh checkout [DIR]       check the network-state branch out into DIR; when the
#                                         remote has no such branch, fail and say so (nothing is
#                                         started: a missing branch is a wrong remote, a typo or
#                                         a fetch problem until the operator says otherwise)
#   .github/state.sh start [DIR]          first setup only: start network-state in DIR as a new,
#                                         empty orphan branch, when the remote has none (also after
#                                         deleting a broken branch, "Recovering"); refuses when the
#                                         remote has the branch (use checkout)
#   .github/state.sh commit MSGFILE [DIR] commit everything in DIR with MSGFILE as the message
#                                         (the refresh summary). Every refresh changes DIR (its
#                                         observation times at least), so each refresh makes one
#                                         commit; nothing is committed only when DIR is unchanged
#                                         since the last commit
#   .github/state.sh push [DIR]           push DIR's commits to the remote network-state branch
#
# Run from the repository's top directory. Environment (all optional):
#   STATE_REMOTE        remote to fetch from and push to (default origin)
#   STATE_BRANCH        branch name (default network-state)
#   STATE_FETCH_DEPTH   fetch only this many commits of the branch (default: all)
#   STATE_AUTHOR_NAME   commit author (default "AsHyAmS refresh")
#   STATE_AUTHOR_EMAIL  (default "ashyams-refresh@users.noreply.github.com")
# Recovery (seeds/state.txt): delete the branch on the remote and run start, refresh,
# commit and push; the next refresh recovers every claim its publishers still publish.
set -euo pipefail

remote=${STATE_REMOTE:-origin}
branch=${STATE_BRANCH:-network-state}
name=${STATE_AUTHOR_NAME:-AsHyAmS refresh}
email=${STATE_AUTHOR_EMAIL:-ashyams-refresh@users.noreply.github.com}

# Every line the script prints (paths, branch and remote names) goes through inert.sh's say: no
# line of the network workflow's log it writes is a workflow command.
# shellcheck source=.github/inert.sh
. "$(dirname "${BASH_SOURCE[0]}")/inert.sh"

die() { say "state.sh: $*" >&2; exit 1; }

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

# not_worktree DIR: die explaining what to do when DIR is not the $branch worktree. A refresh
# run before `checkout` creates DIR as a plain directory, which is never committed anywhere; its
# observations are not lost by starting again, since the next refresh reads the sites anew.
not_worktree() {
	local dir=$1
	if [ ! -e "$dir" ]; then
		die "$dir does not exist; run: $0 checkout $dir, then refresh into it"
	fi
	if [ -e "$dir/network.json" ] && [ ! -e "$dir/.git" ]; then
		die "$dir is a state written by a refresh, but not the $branch worktree (the refresh ran before \`$0 checkout\`), so it cannot be committed to $branch. Move it away, check the branch out and refresh again:
  mv $dir $dir.unbranched
  $0 checkout $dir                 # or, first setup (the remote has no $branch yet): $0 start $dir
  ashyams refresh > summary.txt    # with the same --sources/--state flags as before
  $0 commit summary.txt $dir
(remove $dir.unbranched when the new commit is pushed)"
	fi
	die "$dir exists and is not the $branch worktree; move it away (mv $dir $dir.old), then run: $0 checkout $dir"
}

# is_state_worktree DIR: DIR is a worktree of this repository on $branch (or its orphan start).
is_state_worktree() {
	[ -e "$1/.git" ] || return 1
	local head
	head=$(git -C "$1" symbolic-ref -q HEAD 2>/dev/null) || return 1
	[ "$head" = "refs/heads/$branch" ]
}

# checkout MODE [DIR]: the existing branch into DIR (MODE checkout), or a new empty one when the
# remote has none (MODE start).
checkout() {
	local mode=$1 dir=${2:-state}
	git rev-parse --git-dir >/dev/null 2>&1 || die "not inside a git repository (run from the clone's top directory)"
	if [ -e "$dir" ]; then
		if is_state_worktree "$dir"; then
			say "state.sh: $dir is already the $branch worktree; pulling"
			if git ls-remote --exit-code --heads "$remote" "$branch" >/dev/null; then
				fetch
				git -C "$dir" merge --ff-only -q "refs/remotes/$remote/$branch" ||
					die "$dir has commits the remote $branch does not; push or remove them first"
			fi
			return
		fi
		[ -z "$(ls -A "$dir")" ] || not_worktree "$dir"
		rmdir "$dir"
	fi
	git worktree prune
	local rc=0
	git ls-remote --exit-code --heads "$remote" "$branch" >/dev/null || rc=$?
	if [ "$rc" -eq 0 ] && [ "$mode" = start ]; then
		die "$remote already has $branch; check it out instead (nothing was changed): $0 checkout $dir"
	elif [ "$rc" -eq 0 ]; then
		fetch
		git worktree add -q -B "$branch" "$dir" "refs/remotes/$remote/$branch"
		say "state.sh: checked out $remote/$branch into $dir"
	elif [ "$rc" -eq 2 ] && [ "$mode" != start ]; then
		die "$remote has no $branch branch, so there is nothing to check out (nothing was changed). Taking over an index: fetch its branch into $remote first (docs/adoption.md). First setup, or starting again after deleting a broken branch: $0 start $dir"
	elif [ "$rc" -eq 2 ]; then
		# No such branch: start it with no history and no files (works with git before 2.42,
		# which has no `worktree add --orphan`).
		git show-ref -q --verify "refs/heads/$branch" &&
			die "a local $branch branch exists but the remote has none; push it or delete it (git branch -D $branch)"
		git update-ref -d "refs/remotes/$remote/$branch" 2>/dev/null || true # a stale view of a deleted branch
		git worktree add -q --detach --no-checkout "$dir" HEAD
		git -C "$dir" symbolic-ref HEAD "refs/heads/$branch"
		git -C "$dir" read-tree --empty
		say "state.sh: $remote has no $branch; started it as a new, empty orphan branch in $dir (first setup)"
	else
		die "cannot list $remote's branches (git ls-remote exit $rc)"
	fi
}

fetch() {
	local depth=()
	[ -n "${STATE_FETCH_DEPTH:-}" ] && depth=(--depth "$STATE_FETCH_DEPTH")
	git fetch -q --no-tags "${depth[@]}" "$remote" "+refs/heads/$branch:refs/remotes/$remote/$branch"
}

commit() {
	local msg=${1:-} dir=${2:-state}
	[ -n "$msg" ] || usage
	[ -s "$msg" ] || die "commit message file $msg is missing or empty"
	is_state_worktree "$dir" || not_worktree "$dir"
	git -C "$dir" add -A .
	if git -C "$dir" rev-parse -q --verify HEAD >/dev/null; then
		if git -C "$dir" diff --cached --quiet; then
			say "state.sh: nothing changed in $dir; no commit"
			return
		fi
	elif [ -z "$(git -C "$dir" ls-files)" ]; then
		say "state.sh: $dir is empty; no commit"
		return
	fi
	git -C "$dir" -c user.name="$name" -c user.email="$email" commit -q -F "$(cd "$(dirname "$msg")" && pwd)/$(basename "$msg")"
	say "state.sh: committed $(git -C "$dir" rev-parse --short HEAD) to $branch"
}

push() {
	local dir=${1:-state}
	is_state_worktree "$dir" || not_worktree "$dir"
	if ! git -C "$dir" rev-parse -q --verify HEAD >/dev/null; then
		say "state.sh: $branch has no commits yet; nothing to push"
		return
	fi
	# Push only over what checkout saw (nothing, for an orphan start): a remote branch that
	# moved or was deleted and restarted in between (another run, a recovery) is never
	# overwritten or resurrected with this run's history.
	local seen=""
	seen=$(git rev-parse -q --verify "refs/remotes/$remote/$branch" 2>/dev/null) || seen=""
	git -C "$dir" push -q --force-with-lease="refs/heads/$branch:$seen" "$remote" "HEAD:refs/heads/$branch" ||
		die "the remote $branch is no longer what checkout saw (${seen:-no branch}): another run pushed, or it was reset; nothing was pushed. Check out again ($0 checkout) and refresh"
	git fetch -q --no-tags "$remote" "+refs/heads/$branch:refs/remotes/$remote/$branch" || true
	say "state.sh: pushed $branch to $remote"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd:$#" in
checkout:0 | checkout:1) checkout checkout "$@" ;;
start:0 | start:1) checkout start "$@" ;;
commit:1 | commit:2) commit "$@" ;;
push:0 | push:1) push "$@" ;;
*) usage ;;
esac
