#!/usr/bin/env bash
# Runs a command with a throwaway S3-compatible object store (scripts/object-store.sh): SAESSAK_TEST_S3_URL names
# its bucket, SAESSAK_TEST_S3_ACCESS_KEY_ID and SAESSAK_TEST_S3_SECRET_ACCESS_KEY its keys (the tests hand them to
# the servers they start as SAESSAK_S3_…). Stops it and deletes it afterwards, whatever the command's outcome.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/saessak-s3.XXXXXX)
trap '"$here/object-store.sh" stop "$dir"' EXIT
mapfile -t settings < <("$here/object-store.sh" start "$dir")
[ "${#settings[@]}" -eq 3 ] || exit 1
export SAESSAK_TEST_S3_URL="${settings[0]}" SAESSAK_TEST_S3_ACCESS_KEY_ID="${settings[1]}" SAESSAK_TEST_S3_SECRET_ACCESS_KEY="${settings[2]}"
"$@"
