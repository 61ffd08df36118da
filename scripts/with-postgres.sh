#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (scripts/postgres-cluster.sh) and SAESSAK_TEST_POSTGRES_URL
# naming it, then stops the cluster and deletes it, whatever the command's outcome.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/saessak-postgres.XXXXXX)
trap '"$here/postgres-cluster.sh" stop "$dir"' EXIT
SAESSAK_TEST_POSTGRES_URL=$("$here/postgres-cluster.sh" start "$dir")
export SAESSAK_TEST_POSTGRES_URL
"$@"
