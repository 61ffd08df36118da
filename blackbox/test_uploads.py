"""Issue 22: resumable uploads by the tus 1.0 protocol (`/api/v1/uploads`). A file announced with its length goes in
as many pieces as the connection allows, each at the offset the server confirms; a piece cut off mid-way keeps what
arrived, a restarted server goes on from the last byte stored, and the last byte makes the file a photo, once.
Refusals (415, 413, 422) come as soon as the bytes show them and stay with the upload."""
import base64
import hashlib
import socket
import uuid

from conftest import Server, make_family, new_child, new_entry
from images import image_bytes, jpeg_with_exif
from openapi_contract import check
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

TUS = {"Tus-Resumable": "1.0.0"}


def announce(server, token, length, name="사진.jpg", key=None, extra=None):
    headers = {**TUS, "Upload-Length": str(length), "Upload-Metadata": f"filename {base64.b64encode(name.encode()).decode()}"}
    if key:
        headers["Idempotency-Key"] = key
    response = server.request("POST", "/api/v1/uploads", token=token, headers={**headers, **(extra or {})})
    check("POST", "/api/v1/uploads", response)
    return response


def patch(server, token, location, offset, data, headers=None):
    response = server.request(
        "PATCH", location, token=token, raw=data,
        headers={**TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": str(offset), **(headers or {})})
    check("PATCH", "/api/v1/uploads/{id}", response)
    return response


def head(server, token, location):
    response = server.request("HEAD", location, token=token, headers=TUS)
    check("HEAD", "/api/v1/uploads/{id}", response)
    return response


def send(server, token, data, pieces=3, name="사진.jpg"):
    location = announce(server, token, len(data), name).headers["Location"]
    step = max(1, len(data) // pieces + 1)
    answer = None
    for offset in range(0, len(data), step):
        answer = patch(server, token, location, offset, data[offset:offset + step])
    return location, answer


def test_the_server_says_what_it_speaks(server):
    answer = server.request("OPTIONS", "/api/v1/uploads")
    check("OPTIONS", "/api/v1/uploads", answer)
    assert answer.status == 204 and answer.headers["Tus-Version"] == "1.0.0"
    assert set(answer.headers["Tus-Extension"].split(",")) == {"creation", "termination", "expiration"}
    assert int(answer.headers["Tus-Max-Size"]) >= 1024 ** 3


def test_a_photo_sent_in_pieces_arrives_whole_and_once(server, tmp_path):
    t = server.kim
    data = jpeg_with_exif(tmp_path).read_bytes()
    created = announce(server, t, len(data), "IMG_0001.jpg")
    assert created.status == 201 and created.headers["Location"].startswith("/api/v1/uploads/")
    assert created.headers["Tus-Resumable"] == "1.0.0" and created.headers["Upload-Expires"].endswith("GMT")
    location = created.headers["Location"]
    first = head(server, t, location)
    assert first.status == 200 and first.headers["Upload-Offset"] == "0" and first.headers["Upload-Length"] == str(len(data))
    assert first.headers["Cache-Control"] == "no-store"
    third = len(data) // 3
    assert patch(server, t, location, 0, data[:third]).headers["Upload-Offset"] == str(third)
    # A piece for the wrong offset is refused and changes nothing; so is one without the protocol's headers.
    wrong = patch(server, t, location, 0, data[:third])
    assert wrong.status == 409 and wrong.json()["field"] == "Upload-Offset" and f"{third} bytes" in wrong.json()["detail"]
    assert patch(server, t, location, third, b"x", {"Tus-Resumable": "0.2.2"}).status == 412
    assert patch(server, t, location, third, b"x", {"Content-Type": "application/octet-stream"}).status == 415
    assert patch(server, t, location, third, data[third:], {"Upload-Offset": "-1"}).status == 400
    assert head(server, t, location).headers["Upload-Offset"] == str(third)
    done = patch(server, t, location, third, data[third:])
    assert done.status == 204 and done.headers["Upload-Offset"] == str(len(data))
    photo_id = done.headers["Saessak-Photo"]
    status = server.request("GET", location, token=t)
    check("GET", "/api/v1/uploads/{id}", status)
    body = status.json()
    assert body["offset"] == body["length"] == len(data) and body["fileName"] == "IMG_0001.jpg"
    assert body["photo"]["id"] == photo_id and body["photo"]["takenAt"].startswith("2024-02-10T09:30")
    original = server.request("GET", f"/api/v1/photos/{photo_id}/original", token=t)
    assert original.status == 200 and hashlib.sha256(original.body).digest() == hashlib.sha256(data).digest()
    # The last piece sent again (its answer lost) makes no second photo.
    again = patch(server, t, location, len(data), b"")
    assert again.status == 204 and again.headers["Saessak-Photo"] == photo_id
    assert head(server, t, location).headers["Saessak-Photo"] == photo_id
    child = new_child(server, t)
    entry = new_entry(server, t, [child["id"]], photoIds=[photo_id])
    assert [p["id"] for p in server.request("GET", f"/api/v1/entries/{entry['id']}/photos", token=t).json()["items"]] == [photo_id]


def test_an_upload_announced_again_with_its_key_is_the_same(server):
    key = str(uuid.uuid4())
    first = announce(server, server.kim, 1000, key=key)
    again = announce(server, server.kim, 1000, key=key)
    assert first.status == 201 and again.status == 200 and again.headers["Location"] == first.headers["Location"]
    assert announce(server, server.kim, 1000, key=str(uuid.uuid4())).headers["Location"] != first.headers["Location"]


def test_refusals_come_as_soon_as_the_bytes_show_them_and_stay(server, tmp_path):
    t = server.kim
    # Text is not a photo: refused at the first piece, without waiting for the rest.
    text = b"hello, this is not a photo at all " * 100
    location = announce(server, t, len(text), "notes.txt").headers["Location"]
    refused = patch(server, t, location, 0, text[:100])
    assert refused.status == 415 and "not a supported" in refused.json()["detail"]
    assert head(server, t, location).status == 415
    assert server.request("GET", location, token=t).json()["refusal"]["status"] == 415
    assert patch(server, t, location, 100, text[100:]).status == 415
    # A photo announced larger than a photo may be: refused by its first bytes.
    jpeg = image_bytes(tmp_path, ".jpg", 64, 48)
    big = announce(server, t, 70 * 1024 * 1024, "huge.jpg").headers["Location"]
    assert patch(server, t, big, 0, jpeg[:200]).status == 413
    # Larger than anything the server takes: refused when announced.
    assert announce(server, t, 50 * 1024 ** 3).status == 413
    # A JPEG that does not decode: refused when complete.
    broken = jpeg[:300] + bytes(2000)
    location, answer = send(server, t, broken, name="broken.jpg")
    assert answer.status == 422 and server.request("GET", location, token=t).json()["refusal"]["status"] == 422


def test_bad_announcements_are_named(server):
    t = server.kim
    cases = [
        ({**TUS}, "Upload-Length"), ({**TUS, "Upload-Length": "12abc"}, "Upload-Length"),
        ({**TUS, "Upload-Length": "-5"}, "Upload-Length"), ({**TUS, "Upload-Length": "10", "Upload-Metadata": "filename ***"}, "Upload-Metadata"),
        ({**TUS, "Upload-Length": "10", "Upload-Metadata": "filename " + base64.b64encode(b"a\nb").decode()}, "Upload-Metadata"),
        ({"Upload-Length": "10"}, "Tus-Resumable"),
    ]
    for headers, field in cases:
        answer = server.request("POST", "/api/v1/uploads", token=t, headers=headers)
        assert answer.status in (400, 412) and answer.json()["field"] == field, (headers, answer.body)


def test_a_piece_past_the_length_is_refused_whole_and_others_cannot_touch_an_upload(server):
    t = server.kim
    location = announce(server, t, 10).headers["Location"]
    assert patch(server, t, location, 0, b"\xff\xd8\xff" + bytes(20)).status == 400
    assert head(server, t, location).headers["Upload-Offset"] == "0"
    # Another family's member: no such upload, whatever the method.
    for method in ("HEAD", "GET", "PATCH", "DELETE"):
        answer = server.request(method, location, token=server.lee, raw=b"" if method == "PATCH" else None,
                                headers={**TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"})
        assert answer.status == 404, method
    assert server.request("HEAD", "/api/v1/uploads/../../etc", token=t, headers=TUS).status == 404
    deleted = server.request("DELETE", location, token=t, headers=TUS)
    check("DELETE", "/api/v1/uploads/{id}", deleted)
    assert deleted.status == 204
    assert head(server, t, location).status == 404


def raw_patch(server, token, location, offset, data, announce_length, close_after):
    """A PATCH whose connection is cut after `close_after` bytes of a body announced as `announce_length` bytes."""
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall((f"PATCH {location} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                      f"Tus-Resumable: 1.0.0\r\nContent-Type: application/offset+octet-stream\r\nUpload-Offset: {offset}\r\n"
                      f"Content-Length: {announce_length}\r\n\r\n").encode() + data[:close_after])
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(5)
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass


def test_a_piece_cut_off_keeps_what_arrived_and_kill_9_loses_nothing(tmp_path):
    data_folder = tmp_path / "data"
    token = make_family(data_folder, "mom", "우리집")
    running = Server(data_folder).start()
    try:
        photo = image_bytes(tmp_path, ".png", 900, 700)
        location = announce(running, token, len(photo), "cut.png").headers["Location"]
        raw_patch(running, token, location, 0, photo, len(photo), len(photo) // 2)
        kept = int(head(running, token, location).headers["Upload-Offset"])
        assert 0 < kept <= len(photo) // 2
        running.stop(kill=True)  # kill -9: nothing of the server's shutdown runs
        running = Server(data_folder).start()
        assert int(head(running, token, location).headers["Upload-Offset"]) == kept
        done = patch(running, token, location, kept, photo[kept:])
        assert done.status == 204
        original = running.request("GET", f"/api/v1/photos/{done.headers['Saessak-Photo']}/original", token=token)
        assert original.body == photo
    finally:
        running.stop()
