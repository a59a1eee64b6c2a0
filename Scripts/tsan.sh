#!/usr/bin/env bash
# Runs the tests of threads, queues, actors, frozen data and hand-overs under ThreadSanitizer,
# in a build folder of their own, and fails on any race it reports.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/bootstrap.sh --tests
suites='ConfinementTests|MainQueueRealmTests|PagePipelineTests|AsyncWriteTests|GroupCommitTests|FreezingTests|ThreadSafeReferenceTests|SnapshotOrderTests|VersionLimitTests|CollectionIdentityTests|InvalidateTests|NotificationTests|CollectionNotificationTests|NotificationDeliveryTests'
swift build --build-tests --sanitize=thread --scratch-path .build/tsan
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
TSAN_OPTIONS="halt_on_error=0 ${TSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=thread --scratch-path .build/tsan --filter "$suites" "$@" 2>&1 | tee "$log" || status=$?
races=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
echo "ThreadSanitizer: $races race report(s)"
if [ "$races" -ne 0 ]; then exit 1; fi
exit "$status"
