#!/usr/bin/env bash
# .github/refresh.sh SUMMARY [FLAG...]: the network workflow's refresh step. Runs
# `ashyams refresh FLAG...` with its summary (stdout) written to SUMMARY and its progress (stderr)
# in the log, and decides by the refresh's exit status whether the run goes on to commit and
# publish. The step's exit status is the decision: 0 goes on, anything else stops the job
# before its commit, so nothing is committed or deployed.
#
#   0  refreshed (every problem of a site is recorded on it): go on.
#   3  --deadline ran out: the state is sound and says it was interrupted and what was not
#      read; go on, with a warning.
#   4  no source reached: every one failed before any server answered, which points at the
#      runner's own network; nothing was recorded. Stop, with an error saying so.
#   *  this index's own bug (1), a usage error (2), a signal (130, 143): stop.
#
# Progress names what the sites publish. ashyams escapes it, and it is fenced by
# ::stop-commands::<random token> ... ::<token>:: so that no line of it is read as a workflow
# command.
#
# Environment: ASHYAMS, the ashyams binary (default ./ashyams).
set -uo pipefail

summary=${1:?usage: refresh.sh SUMMARY [FLAG...]}
shift
ashyams=${ASHYAMS:-./ashyams}

token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo "::stop-commands::$token"
status=0
"$ashyams" refresh "$@" >"$summary" || status=$?
echo "::$token::"
case $status in
0) ;;
3)
	echo "::warning title=Refresh interrupted::the refresh's deadline ran out: the summary's first line says INTERRUPTED and lists what was not read; the state is committed and published"
	status=0
	;;
4)
	echo "::error title=No source reached::no enrolled source could be reached (name resolution, connecting or TLS failed for every one): the likely cause is this runner's own network, not the sites. Nothing was recorded, committed or deployed; the next scheduled run tries again."
	;;
*)
	echo "::error title=Refresh failed::ashyams refresh exited $status (this index's own fault, see the log above): nothing is committed or deployed"
	;;
esac
exit "$status"
