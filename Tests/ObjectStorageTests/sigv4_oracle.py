"""The Signature V4 oracle for ObjectStorageTests: botocore (AWS's own Python SDK core) signs each request read from
standard input (a JSON list of {method, host, path, query, headers, payloadHash, time, accessKey, secretKey, region})
and prints the Authorization headers it computes, one per request, as a JSON list."""
import datetime
import json
import sys
import urllib.parse
from unittest import mock

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

out = []
for case in json.load(sys.stdin):
    query = urllib.parse.urlencode([tuple(pair) for pair in case["query"]], quote_via=urllib.parse.quote, safe="~")
    path = urllib.parse.quote(case["path"], safe="/~")
    url = f"http://{case['host']}{path}" + (f"?{query}" if query else "")
    request = AWSRequest(method=case["method"], url=url, headers=dict(case["headers"]))
    moment = datetime.datetime.fromtimestamp(case["time"], datetime.timezone.utc).replace(tzinfo=None)
    # botocore hashes the body itself; the cases give the payload's hash instead of a body.
    with mock.patch("botocore.auth.get_current_datetime", return_value=moment), \
            mock.patch.object(S3SigV4Auth, "payload", return_value=case["payloadHash"]):
        S3SigV4Auth(Credentials(case["accessKey"], case["secretKey"]), "s3", case["region"]).add_auth(request)
    out.append(request.headers["Authorization"])
print(json.dumps(out))
