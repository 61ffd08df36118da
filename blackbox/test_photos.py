"""Photos through the real server: streamed uploads, EXIF, thumbnails, safe serving, clear refusals."""
import time
from pathlib import Path

import pytest

from conftest import new_child, new_entry, photo_files
from images import image, jpeg_with_exif, multipart, png_declaring, size_of
from openapi_contract import check

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]


def upload(server, token, files, path="/api/v1/photos", fields=None):
    content_type, body = multipart(files, fields)
    response = server.request("POST", path, raw=body, token=token, headers={"Content-Type": content_type})
    check("POST", path, response)
    return response


def call(server, method, path, body=None, token=None, **kw):
    response = server.request(method, path, body, token, **kw)
    check(method, path, response)
    return response


def files_in(server, folder):
    return photo_files(server.data, folder)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("images")


def test_upload_to_an_entry_and_serve(server, folder):
    t = server.kim
    child = new_child(server, t)
    entry = new_entry(server, t, [child["id"]])
    original = jpeg_with_exif(folder).read_bytes()
    png = image(folder, ".png", 300, 200).read_bytes()
    response = upload(server, t, [("IMG_0001.JPG", original), ("screenshot.png", png)], f"/api/v1/entries/{entry['id']}/photos")
    assert response.status == 201, response.body
    photos = response.json()["items"]
    first = photos[0]
    assert first["takenAt"] == "2024-02-10T09:30:15+09:00"
    assert abs(first["latitude"] - 37.5665) < 1e-4 and abs(first["longitude"] - 126.978) < 1e-4
    assert (first["width"], first["height"], first["orientation"]) == (400, 600, 6)
    assert first["cameraModel"] == "iPhone 15 Pro" and first["mimeType"] == "image/jpeg"
    assert photos[1]["mimeType"] == "image/png" and "takenAt" not in photos[1]
    assert server.request("GET", f"/api/v1/entries/{entry['id']}", token=t).json()["photoIds"] == [p["id"] for p in photos]
    assert [p["id"] for p in call(server, "GET", f"/api/v1/entries/{entry['id']}/photos", token=t).json()["items"]] == [p["id"] for p in photos]
    call(server, "GET", f"/api/v1/photos/{first['id']}", token=t)

    # The original, byte for byte, with caching headers.
    served = call(server, "GET", f"/api/v1/photos/{first['id']}/original", token=t)
    assert served.body == original
    assert served.headers["Content-Type"] == "image/jpeg" and served.headers["X-Content-Type-Options"] == "nosniff"
    assert served.headers["ETag"] and "immutable" in served.headers["Cache-Control"]
    partial = call(server, "GET", f"/api/v1/photos/{first['id']}/original", token=t, headers={"Range": "bytes=10-19"})
    assert partial.status == 206 and partial.body == original[10:20]
    assert partial.headers["Content-Range"] == f"bytes 10-19/{len(original)}"
    assert call(server, "GET", f"/api/v1/photos/{first['id']}/original", token=t, headers={"Range": "bytes=-5"}).body == original[-5:]
    assert call(server, "GET", f"/api/v1/photos/{first['id']}/original", token=t, headers={"Range": f"bytes={len(original)}-"}).status == 416
    cached = call(server, "GET", f"/api/v1/photos/{first['id']}/original", token=t, headers={"If-None-Match": served.headers["ETag"]})
    assert cached.status == 304 and not cached.body

    # Thumbnails: upright, sRGB JPEG, no metadata.
    for size, box in (("small", 320), ("large", 1600)):
        thumb = call(server, "GET", f"/api/v1/photos/{first['id']}/thumbnail?size={size}", token=t)
        assert thumb.headers["Content-Type"] == "image/jpeg" and thumb.headers["X-Content-Type-Options"] == "nosniff"
        width, height, meta = size_of(thumb.body)
        assert height == min(box, 600) and width == round(400 * height / 600)
        assert "exif-" not in meta and "GPS" not in meta
    assert call(server, "GET", f"/api/v1/photos/{first['id']}/thumbnail?size=huge", token=t).status == 400
    call(server, "GET", f"/api/v1/photos/{first['id']}/thumbnail", token=t, headers={"Range": "bytes=0-9"})
    call(server, "GET", f"/api/v1/photos/{first['id']}/thumbnail", token=t, headers={"Range": "bytes=999999999-"})
    call(server, "GET", f"/api/v1/photos/{first['id']}/thumbnail", token=t,
         headers={"If-None-Match": call(server, "GET", f"/api/v1/photos/{first['id']}/thumbnail", token=t).headers["ETag"]})

    # The large thumbnail is made in the background.
    deadline = time.time() + 30
    while not server.request("GET", f"/api/v1/photos/{photos[1]['id']}", token=t).json()["thumbnailsReady"]:
        assert time.time() < deadline, "thumbnails never became ready"
        time.sleep(0.1)

    # Reorder, then remove: the file goes when no row refers to it.
    reordered = call(server, "PUT", f"/api/v1/entries/{entry['id']}/photos", {"photoIds": [photos[1]["id"], photos[0]["id"]]}, t)
    assert [p["id"] for p in reordered.json()["items"]] == [photos[1]["id"], photos[0]["id"]]
    before = len(files_in(server, "originals"))
    removed = call(server, "DELETE", f"/api/v1/entries/{entry['id']}/photos/{photos[1]['id']}", token=t)
    assert removed.status == 204
    assert call(server, "DELETE", f"/api/v1/entries/{entry['id']}/photos/{photos[1]['id']}", token=t).status == 404
    # The trash keeps the file until it is purged (issue 36); purged, the entry's earlier version (from before the
    # reorder) still shows the photo, so it stays until the entry itself is gone for good; then it goes.
    assert len(files_in(server, "originals")) == before
    assert call(server, "DELETE", f"/api/v1/trash/{removed.headers['Trash-Item']}", token=t).status == 204
    assert len(files_in(server, "originals")) == before
    versions = call(server, "GET", f"/api/v1/entries/{entry['id']}/versions", token=t).json()["items"]
    assert len(versions) == 1 and photos[1]["id"] in versions[0]["photoIds"]
    gone = call(server, "DELETE", f"/api/v1/entries/{entry['id']}", token=t)
    assert call(server, "DELETE", f"/api/v1/trash/{gone.headers['Trash-Item']}", token=t).status == 204
    assert len(files_in(server, "originals")) == before - len(photos)
    assert call(server, "GET", f"/api/v1/photos/{photos[1]['id']}", token=t).status == 404


def test_entry_takes_date_and_place_from_the_first_photo(server, folder):
    t = server.kim
    child = new_child(server, t)
    photo = upload(server, t, [("a.jpg", jpeg_with_exif(folder).read_bytes())]).json()["items"][0]
    entry = server.request("POST", "/api/v1/entries", {"title": "공원", "childIds": [child["id"]], "photoIds": [photo["id"]]}, t)
    assert entry.status == 201, entry.body
    body = entry.json()
    assert body["date"] == "2024-02-10T09:30" and body["photoIds"] == [photo["id"]]
    assert abs(body["place"]["latitude"] - 37.5665) < 1e-4
    plain = upload(server, t, [("b.png", image(folder, ".png").read_bytes())]).json()["items"][0]
    refused = server.request("POST", "/api/v1/entries", {"title": "x", "childIds": [child["id"]], "photoIds": [plain["id"]]}, t)
    assert refused.status == 422 and refused.json()["field"] == "date"


def test_same_bytes_are_stored_once_and_profile_photos(server, folder):
    t = server.kim
    data = image(folder, ".webp", 500, 300).read_bytes()
    one = upload(server, t, [("x.webp", data)]).json()["items"][0]
    before = len(files_in(server, "originals"))
    two = upload(server, t, [("copy.webp", data)]).json()["items"][0]
    assert one["id"] == two["id"] and len(files_in(server, "originals")) == before
    other = upload(server, server.lee, [("x.webp", data)]).json()["items"][0]
    assert other["id"] != one["id"] and len(files_in(server, "originals")) == before  # another family, the same file
    child = new_child(server, t)
    assert call(server, "PUT", f"/api/v1/children/{child['id']}/photo", {"photoId": one["id"]}, t).status == 204
    square = call(server, "GET", f"/api/v1/children/{child['id']}/photo", token=t)
    width, height, _ = size_of(square.body)
    assert width == height == 300
    assert server.request("GET", f"/api/v1/children/{child['id']}", token=t).json()["photoId"] == one["id"]
    assert call(server, "GET", f"/api/v1/children/{new_child(server, t)['id']}/photo", token=t).status == 404


def test_heic_from_an_iphone(server, folder):
    heic = image(folder, ".heic", 400, 300).read_bytes()
    photo = upload(server, server.kim, [("IMG_1234.HEIC", heic)]).json()["items"][0]
    assert photo["mimeType"] == "image/heic" and (photo["width"], photo["height"]) == (400, 300)
    assert server.request("GET", f"/api/v1/photos/{photo['id']}/original", token=server.kim).body == heic
    width, _, _ = size_of(server.request("GET", f"/api/v1/photos/{photo['id']}/thumbnail", token=server.kim).body)
    assert width == 320


@pytest.mark.parametrize("name, make, status, detail", [
    ("anim.gif", lambda f: b"GIF89a" + b"\x00" * 64, 415, "a GIF image"),
    ("notes.jpg", lambda f: "다음 주 병원 예약".encode(), 415, "text"),
    ("bomb.png", lambda f: png_declaring(f, 60000, 60000).read_bytes(), 413, "60000×60000"),
    ("cut.jpg", lambda f: (lambda data: data[: len(data) // 2])(image(f, ".jpg", 800, 600).read_bytes()), 422, "could not be read"),
])
def test_bad_files_are_refused_and_leave_nothing(server, folder, name, make, status, detail):
    good = image(folder, ".jpg").read_bytes()
    before = (files_in(server, "originals"), len(server.request("GET", "/api/v1/entries?limit=200", token=server.kim).json()["items"]))
    response = upload(server, server.kim, [("good.jpg", good), (name, make(folder))])
    assert response.status == status, response.body
    assert response.content_type == "application/problem+json" and detail in response.json()["detail"]
    assert files_in(server, "incoming") == [] and files_in(server, "originals") == before[0]
    assert server.request("GET", "/healthz").status == 200


def test_requests_that_are_not_photo_uploads(server):
    t = server.kim
    assert upload(server, t, [], fields={"title": "no file"}).status == 422
    response = server.request("POST", "/api/v1/photos", {"photo": "base64?"}, t)
    assert response.status == 415
    check("POST", "/api/v1/photos", response)
    assert server.request("POST", "/api/v1/photos", raw=b"--x\r\ngarbage", token=t,
                          headers={"Content-Type": "multipart/form-data; boundary=x"}).status in (400, 422)
    assert server.request("POST", "/api/v1/photos", raw=b"", token=server.kim,
                          headers={"Content-Type": "multipart/form-data"}).status == 415


def test_photos_of_another_family_are_not_found(server, folder):
    photo = upload(server, server.lee, [("lee.jpg", image(folder, ".jpg").read_bytes())]).json()["items"][0]
    for suffix in ["", "/original", "/thumbnail", "/thumbnail?size=large"]:
        assert server.request("GET", f"/api/v1/photos/{photo['id']}{suffix}", token=server.kim).status == 404
    entry = new_entry(server, server.kim, [new_child(server, server.kim)["id"]])
    refused = server.request("PUT", f"/api/v1/entries/{entry['id']}/photos", {"photoIds": [photo["id"]]}, server.kim)
    assert refused.status == 422 and refused.json()["field"] == "photoIds"
    assert server.request("GET", f"/api/v1/photos/{photo['id']}", token=server.lee).status == 200


def test_a_visit_keeps_its_prescription_photos(server, folder):
    t = server.kim
    child = new_child(server, t)
    # gaussnoise is the same noise each time: different sizes make different files.
    prescription, note = (upload(server, t, [(f"{w}.jpg", image(folder, ".jpg", w, 300).read_bytes())]).json()["items"][0] for w in (401, 402))
    visit = {"childId": child["id"], "kind": "hospital", "title": "감기 진료", "date": "2026-11-20", "photoIds": [prescription["id"], note["id"]]}
    made = call(server, "POST", "/api/v1/events", visit, t)
    assert made.status == 201 and made.json()["photoIds"] == [prescription["id"], note["id"]]
    path = f"/api/v1/events/{made.json()['id']}"
    # A replace without photoIds keeps them; with a list, it reorders and drops (the dropped file goes).
    kept = call(server, "PUT", path, {k: v for k, v in visit.items() if k != "photoIds"} | {"title": "감기 재진"}, t)
    assert kept.json()["photoIds"] == [prescription["id"], note["id"]]
    before = len(files_in(server, "originals"))
    assert call(server, "PUT", path, visit | {"photoIds": [note["id"]]}, t).json()["photoIds"] == [note["id"]]
    assert len(files_in(server, "originals")) == before - 1
    # Another family's photo cannot be kept with our visit.
    theirs = upload(server, server.lee, [("c.jpg", image(folder, ".jpg", 403, 300).read_bytes())]).json()["items"][0]
    refused = call(server, "PUT", path, visit | {"photoIds": [theirs["id"]]}, t)
    assert refused.status == 422 and call(server, "GET", path, token=t).json()["photoIds"] == [note["id"]]
    with_theirs = len(files_in(server, "originals"))
    deleted = call(server, "DELETE", path, token=t)
    assert deleted.status == 204
    # The visit waits in the trash with its photo (issue 36); purged, the photo's file goes.
    assert len(files_in(server, "originals")) == with_theirs
    assert call(server, "DELETE", f"/api/v1/trash/{deleted.headers['Trash-Item']}", token=t).status == 204
    assert len(files_in(server, "originals")) == with_theirs - 1


def test_a_capture_time_in_other_digits_is_no_time_not_a_500(server, folder):
    """Issue 17: DateTimeOriginal in Arabic-Indic digits passed a `\\d` check and the database's CHECK then refused the
    whole upload with a 500. Now such a photo is taken, without a capture time, and the batch with it."""
    from images import run
    odd = image(folder, ".jpg", 64, 48)
    run("exiftool", "-q", "-overwrite_original", "-DateTimeOriginal#=٢٠٢٤:٠٢:١٠ ٠٩:٣٠:١٥", "-OffsetTimeOriginal#=+٠٩:٠٠", str(odd))
    content_type, body = multipart([("odd.jpg", odd.read_bytes()), ("fine.jpg", jpeg_with_exif(folder).read_bytes())])
    response = server.request("POST", "/api/v1/photos", raw=body, token=server.kim, headers={"Content-Type": content_type})
    assert response.status == 201, response.body
    odd_photo, fine_photo = response.json()["items"]
    assert odd_photo.get("takenAt") is None and fine_photo["takenAt"].startswith("2024-02-10T09:30:15")
