#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The test harness itself: tests/run-all and the skips of tests/helpers.bash.
# FBAC_MUST_WORK=1 (CI) turns a skip for what .ci/install-deps installs into
# a failure, but a feature that the running kernel lacks (found by a probe
# run without fbac) is a skip in every mode, counted in the summary and
# listed apart.
#
#   tests/fixtures/harness/sample.bats   one pass, one kernel skip, one package skip

bats_require_minimum_version 1.5.0

load helpers

SAMPLE=$REPO/tests/fixtures/harness/sample.bats

@test "run-all: a kernel feature skip and a package skip are counted, and the kernel one listed" {
	run env FBAC_MUST_WORK=0 "$REPO/tests/run-all" "$SAMPLE"
	[[ $status -eq 0 ]] || fail "status $status: $output"
	[[ $output == *$'\n1 passed, 0 failed, 2 skipped\n'* ]] || fail "summary: $output"
	[[ $output == *$'\n1 skipped for a kernel feature this machine lacks:\n  '*"sample: a kernel feature the probe finds absent # skip kernel feature absent: the feature no kernel has"* ]] ||
		fail "kernel skips not listed: $output"
	[[ $(grep -c 'fbac-no-such-program' <<<"$output") -eq 1 ]] || fail "the package skip not shown once: $output"
}

@test "run-all: with FBAC_MUST_WORK=1 a missing package fails, an absent kernel feature is still a skip" {
	run env FBAC_MUST_WORK=1 "$REPO/tests/run-all" "$SAMPLE"
	[[ $status -eq 1 ]] || fail "status $status: $output"
	[[ $output == *$'\n1 passed, 1 failed, 1 skipped\n'* ]] || fail "summary: $output"
	[[ $output == *"not ok 3 sample: a package that is not installed"*"fbac-no-such-program is not installed (FBAC_MUST_WORK=1: not skipping)"* ]] ||
		fail "the package test is not the failure: $output"
	[[ $output == *$'\n1 skipped for a kernel feature this machine lacks:\n'*"the feature no kernel has"* ]] ||
		fail "kernel skips not listed: $output"
}

@test "run-all: a bats file that does not exist is a usage error" {
	run "$REPO/tests/run-all" "$BATS_TEST_TMPDIR/none.bats"
	[[ $status -eq 2 && $output == *"no file '$BATS_TEST_TMPDIR/none.bats'"* ]] || fail "status $status: $output"
}
