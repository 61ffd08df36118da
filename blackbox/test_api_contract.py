"""Every API operation, answered by the real server, matches the committed OpenAPI 3.1 document."""
from openapi_spec_validator import validate

from conftest import new_child, new_entry
from openapi_contract import DOCUMENT, call
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def test_document_is_valid_openapi_31():
    validate(DOCUMENT)
    assert DOCUMENT["openapi"].startswith("3.1")


def test_served_document_is_the_committed_one(server):
    response = server.request("GET", "/api/v1/openapi.json")
    assert response.status == 200
    assert response.json() == DOCUMENT


def test_children_round_trip(server):
    t = server.kim
    child = call(server, "POST", "/children", {
        "name": "김하늘", "nickname": "콩이", "birthDate": "2024-02-29", "birthTime": "04:30", "sex": "female",
        "birthplace": "서울", "hospital": "서울대병원", "residentNumber": "240229-4123456"}, t).json()
    assert child["residentNumber"] == "240229-4******"
    assert child["derived"]["starSign"] == "pisces" and child["derived"]["birthstone"] == "amethyst"
    lunar = call(server, "POST", "/children", {"name": "달", "birthDate": "2023-02-10", "birthCalendar": "lunar", "isLeapMonth": True}, t).json()
    assert lunar["derived"]["lunarBirthDate"] == {"year": 2023, "month": 2, "day": 10, "isLeapMonth": True}
    assert lunar["derived"]["zodiacAnimal"] == "rabbit"
    assert call(server, "GET", f"/children/{child['id']}", token=t).json() == child
    # Sending back the masked number keeps the stored one; a rename changes nothing else.
    replaced = call(server, "PUT", f"/children/{child['id']}", {**{k: child[k] for k in ("birthDate", "sex", "residentNumber")}, "name": "김하늘별"}, t).json()
    assert replaced["name"] == "김하늘별" and replaced["residentNumber"] == "240229-4******" and replaced["id"] == child["id"]
    cleared = call(server, "PUT", f"/children/{child['id']}", {"name": "김하늘별", "birthDate": "2024-02-29", "residentNumber": None}, t).json()
    assert "residentNumber" not in cleared
    listing = call(server, "GET", "/children?limit=1", token=t).json()
    assert len(listing["items"]) == 1 and listing["next"]
    rest = call(server, "GET", f"/children?limit=200&cursor={listing['next']}", token=t).json()
    assert rest["next"] is None
    assert call(server, "DELETE", f"/children/{lunar['id']}", token=t).status == 204
    assert call(server, "GET", f"/children/{lunar['id']}", token=t).status == 404


def test_entries_and_timeline(server):
    t = server.kim
    child = new_child(server, t)
    entry = call(server, "POST", "/entries", {
        "title": "첫 걸음", "body": "아기가 **걸었어요**", "date": "2026-11-22T09:30", "childIds": [child["id"]],
        "tags": ["걸음마", "#첫"], "place": {"name": "집", "latitude": 37.5665, "longitude": 126.978}, "weather": "맑음"}, t).json()
    assert entry["tags"] == ["걸음마", "첫"] and entry["timeZone"] == "Asia/Seoul"
    call(server, "POST", "/entries", {"title": "가을", "date": "2026-10-03T12:00", "childIds": [child["id"]], "timeZone": "Europe/Paris"}, t)
    call(server, "GET", f"/entries/{entry['id']}", token=t)
    call(server, "PUT", f"/entries/{entry['id']}", {"title": "첫 걸음!", "date": "2026-11-22T09:31", "childIds": [child["id"]]}, t)
    by_tag = call(server, "GET", "/entries?tag=가을", token=t).json()
    assert by_tag["items"] == []
    by_month = call(server, "GET", f"/entries?month=2026-10&child={child['id']}", token=t).json()
    assert [e["title"] for e in by_month["items"]] == ["가을"]
    timeline = call(server, "GET", f"/timeline?child={child['id']}", token=t).json()
    assert [s["month"] for s in timeline["sections"]] == ["2026-11", "2026-10"]
    call(server, "GET", "/entries?year=2026&limit=5", token=t)
    assert call(server, "DELETE", f"/entries/{entry['id']}", token=t).status == 204


def test_memos_events_anniversaries(server):
    t = server.kim
    child = new_child(server, t)
    memo = call(server, "POST", "/memos", {"title": "장보기", "body": "기저귀"}, t).json()
    call(server, "PUT", f"/memos/{memo['id']}", {"title": "장보기", "body": "기저귀, 물티슈"}, t)
    call(server, "GET", f"/memos/{memo['id']}", token=t)
    call(server, "GET", "/memos", token=t)
    call(server, "DELETE", f"/memos/{memo['id']}", token=t)

    event = call(server, "POST", "/events", {"childId": child["id"], "kind": "hospital", "title": "영유아 검진", "date": "2026-11-20",
                                             "time": "10:00", "hospital": "소아과", "doctor": "박의사", "diagnosis": "정상"}, t).json()
    call(server, "PUT", f"/events/{event['id']}", {"childId": child["id"], "title": "영유아 검진 2차", "date": "2026-11-21"}, t)
    call(server, "GET", f"/events/{event['id']}", token=t)
    assert len(call(server, "GET", f"/events?child={child['id']}", token=t).json()["items"]) == 1
    call(server, "DELETE", f"/events/{event['id']}", token=t)

    anniversary = call(server, "POST", "/anniversaries", {"name": "할머니 생신", "calendar": "lunar", "month": 3, "day": 30, "isHoliday": True}, t).json()
    call(server, "POST", "/anniversaries", {"name": "결혼기념일", "month": 5, "day": 20, "childId": child["id"]}, t)
    call(server, "PUT", f"/anniversaries/{anniversary['id']}", {"name": "할머니 생신", "calendar": "lunar", "month": 2, "day": 30, "isLeapMonth": True}, t)
    call(server, "GET", f"/anniversaries/{anniversary['id']}", token=t)
    names = [a["name"] for a in call(server, "GET", "/anniversaries", token=t).json()["items"]]
    assert names.index("할머니 생신") < names.index("결혼기념일")
    call(server, "DELETE", f"/anniversaries/{anniversary['id']}", token=t)


def test_error_responses_match_the_document(server):
    t = server.kim
    child = new_child(server, t)
    call(server, "GET", "/children")                                              # 401
    call(server, "GET", "/children?limit=0", token=t)                              # 400
    call(server, "GET", "/entries?cursor=!!", token=t)                             # 400
    call(server, "POST", "/children", {"name": "x", "birthDate": "2024-13-01"}, t)  # 422
    call(server, "POST", "/children", raw=b"name=x", token=t, headers={"Content-Type": "application/x-www-form-urlencoded"})  # 415
    call(server, "POST", "/memos", raw=b'{"title": "' + b"x" * (2 * 1024 * 1024) + b'"}', token=t)  # 413
    call(server, "PUT", "/memos/8d6a2c1e-52d5-4a4e-9a0f-3f0b3f7c1b11", {"title": "없음"}, t)  # 404
    call(server, "DELETE", f"/children/{child['id']}x", token=t)                   # 404


def test_calculator_is_stateless_and_exact(server):
    state, display = None, None
    for key in ["0", ".", "1", "+", "0", ".", "2", "=", "=", "÷", "0", "="]:
        answer = call(server, "POST", "/calculator", {"state": state, "key": key}, server.kim).json()
        state, display = answer["state"], answer["display"]
        if key == "=" and display != "Error":
            assert display in ("0.3", "0.5")
    assert display == "Error"
    assert call(server, "POST", "/calculator", {"state": state, "key": "C"}, server.kim).json()["display"] == "0"
    bad = call(server, "POST", "/calculator", {"state": None, "key": "^"}, server.kim)
    assert bad.status == 422 and bad.json()["field"] == "key"
    assert call(server, "POST", "/calculator", {"key": "1"}).status == 401


def test_entries_carry_each_childs_age_on_their_day(server, tmp_path):
    """Wherever an entry is given — one, the list, the timeline, on this day, the CLI — each tagged child born by
    its day has an age as the pages write it: day 100 is 백일, a lunar birthday's 돌 falls on the lunar day."""
    t = server.kim
    sun = new_child(server, t, name="해", birthDate="2025-08-14")
    moon = new_child(server, t, name="달", birthDate="2024-01-01", birthCalendar="lunar")  # solar 2024-02-10
    both = [sun["id"], moon["id"]]
    baegil = call(server, "POST", "/entries", {"title": "해 백일", "date": "2025-11-21T12:00", "childIds": both}, t).json()
    assert baegil["ages"] == [{"childId": sun["id"], "korean": "백일", "english": "100th day"},
                              {"childId": moon["id"], "korean": "21개월", "english": "21 months"}]
    # The lunar first birthday: 2025-01-29 (설날), not the solar 2025-02-10; 해 was not born yet — no negative age.
    dol = call(server, "POST", "/entries", {"title": "달 돌", "date": "2025-01-29T18:00", "childIds": both}, t).json()
    assert dol["ages"] == [{"childId": moon["id"], "korean": "돌", "english": "first birthday"}]
    before = call(server, "POST", "/entries", {"title": "태어나기 전", "date": "2024-01-05T09:00", "childIds": both}, t).json()
    assert "ages" not in before
    assert call(server, "GET", f"/entries/{dol['id']}", token=t).json()["ages"] == dol["ages"]
    listed = {e["id"]: e.get("ages") for e in call(server, "GET", f"/entries?child={moon['id']}&limit=100", token=t).json()["items"]}
    assert listed[baegil["id"]] == baegil["ages"] and listed[before["id"]] is None
    sections = call(server, "GET", f"/timeline?child={moon['id']}&limit=100", token=t).json()["sections"]
    assert any(e.get("ages") == dol["ages"] for section in sections for e in section["items"])
    on_day = call(server, "GET", "/on-this-day?date=2026-11-21", token=t).json()["items"]
    assert [e["ages"] for e in on_day if e["id"] == baegil["id"]] == [baegil["ages"]]
    edited = call(server, "PUT", f"/entries/{baegil['id']}", {"title": "해 백일", "date": "2025-11-22T12:00", "childIds": [sun["id"]]}, t).json()
    assert edited["ages"] == [{"childId": sun["id"], "korean": "3개월", "english": "3 months"}]


def test_on_this_day(server):
    t = server.kim
    child = new_child(server, t)
    call(server, "POST", "/entries", {"title": "작년 이날", "date": "2025-03-05T10:00", "childIds": [child["id"]]}, t)
    titles = [e["title"] for e in call(server, "GET", "/on-this-day?date=2026-03-05", token=t).json()["items"]]
    assert "작년 이날" in titles
    assert call(server, "GET", "/on-this-day?date=2026-03-05&lunar=true", token=t).status == 200
    assert call(server, "GET", "/on-this-day", token=t).status == 200
    assert call(server, "GET", "/on-this-day?date=2026-02-30", token=t).status == 400
