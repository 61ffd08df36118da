"""Today's notices through the API: milestones, birthdays solar and lunar, anniversaries, vaccinations, holidays —
lunar dates checked against korean-lunar-calendar, holidays against holidays.KR."""
from datetime import date

import holidays
from korean_lunar_calendar import KoreanLunarCalendar

from conftest import Server, make_family
from test_api_contract import call
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def solar_of_lunar(year, month, day):
    calendar = KoreanLunarCalendar()
    calendar.setLunarDate(year, month, day, False)
    return calendar.SolarIsoFormat()


def notices(server, token, day, days=7):
    answer = call(server, "GET", f"/today?date={day}&days={days}", token=token)
    assert answer.status == 200, answer.body
    return answer.json()["items"]


def test_notices_of_a_family(tmp_path):
    data = tmp_path / "data"
    t = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        sun = call(server, "POST", "/children", {"name": "해", "birthDate": "2025-03-01", "sex": "female"}, t).json()
        moon = call(server, "POST", "/children", {"name": "달", "birthDate": "2020-01-15", "birthCalendar": "lunar", "sex": "male"}, t).json()
        call(server, "POST", "/anniversaries", {"name": "할머니 제사", "calendar": "lunar", "month": 9, "day": 9}, t)
        call(server, "POST", "/anniversaries", {"name": "결혼기념일", "calendar": "solar", "month": 2, "day": 29}, t)

        # 백일 (day 100 counting the birth day): 2025-06-08, three days ahead of 2025-06-05.
        items = notices(server, t, "2025-06-05")
        baegil = next(i for i in items if i.get("milestone") == "baegil")
        assert baegil["date"] == "2025-06-08" and baegil["daysUntil"] == 3 and baegil["childId"] == sun["id"]
        # 삼칠일 on day 21 itself.
        assert any(i.get("milestone") == "samchil" and i["daysUntil"] == 0 for i in notices(server, t, "2025-03-21", 0))
        # Vaccinations due at two months (DTaP 1 and friends) show up once their window is open.
        due = {(i["vaccine"], i["number"]) for i in notices(server, t, "2025-05-02", 0) if i["kind"] == "vaccination" and i["childId"] == sun["id"]}
        assert ("dtap", 1) in due and ("pcv", 1) in due
        # The lunar-born child's birthday, converted for 2026 (lunar 1/15), with the age turned.
        lunar_birthday = solar_of_lunar(2026, 1, 15)
        items = notices(server, t, lunar_birthday, 0)
        moon_birthday = next(i for i in items if i["kind"] == "lunarBirthday")
        assert moon_birthday["childId"] == moon["id"] and moon_birthday["age"] == 6
        assert not any(i["kind"] == "birthday" and i.get("childId") == moon["id"] for i in items)
        # The solar-born child's second birthday.
        second = next(i for i in notices(server, t, "2027-03-01", 0) if i["kind"] == "birthday")
        assert second["age"] == 2 and second["childId"] == sun["id"]
        # Lunar anniversary (9/9) and a 29 February anniversary in a common year (28 February).
        jesa = solar_of_lunar(2026, 9, 9)
        assert any(i["title"] == "할머니 제사" for i in notices(server, t, jesa, 0))
        assert any(i["title"] == "결혼기념일" and i["date"] == "2026-02-28" for i in notices(server, t, "2026-02-27", 3))
        # Public holidays, as holidays.KR has them (삼일절 on a Sunday in 2026 and its substitute day).
        names = {i["date"] for i in notices(server, t, "2026-02-28", 3) if i["kind"] == "holiday"}
        expected = {d.isoformat() for d in holidays.KR(years=2026) if date(2026, 2, 28) <= d <= date(2026, 3, 3)}
        assert names == expected and "2026-03-02" in names
        # Sorted by date, and never another family's.
        items = notices(server, t, "2025-05-01", 60)
        assert [i["date"] for i in items] == sorted(i["date"] for i in items)
        other = make_family(data, "lee", "이씨네")
        assert not any(i.get("childId") for i in notices(server, other, "2025-05-01", 60))
        for bad, field in [("/today?days=61", "days"), ("/today?date=2025-13-01", "date"), ("/today?days=x", "days")]:
            refused = call(server, "GET", bad, token=t)
            assert refused.status == 400 and refused.json()["field"] == field
        assert call(server, "GET", "/today", token=t).status == 200
    finally:
        server.stop()


def test_the_home_page_lists_this_day_of_the_years_before(tmp_path):
    """"예전 오늘" on the home page: each entry of today's month and day (Seoul) in an earlier year, with its year and
    title, linking to it; an entry of another day is not there."""
    from datetime import datetime, timedelta, timezone
    import html
    data = tmp_path / "data"
    t = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        child = call(server, "POST", "/children", {"name": "해", "birthDate": "2015-03-01"}, t).json()
        today = datetime.now(timezone(timedelta(hours=9))).date()
        written = {}
        for back, title in ((1, "작년 오늘 <첫 걸음>"), (3, "삼 년 전 오늘")):
            try:
                day = today.replace(year=today.year - back)
            except ValueError:  # 29 February
                continue
            entry = call(server, "POST", "/entries", {"title": title, "body": "", "date": f"{day.isoformat()}T08:00",
                                                      "childIds": [child["id"]]}, t).json()
            written[entry["id"]] = (day.year, title)
        other = (today - timedelta(days=2)).replace(year=today.year - 2)
        call(server, "POST", "/entries", {"title": "다른 날", "body": "", "date": f"{other.isoformat()}T08:00",
                                          "childIds": [child["id"]]}, t)
        page = server.request("GET", "/", token=t)
        assert page.status == 200
        earlier = page.body.decode().split('id="earlier-title"', 1)[1].split("</section>", 1)[0]
        for id, (year, title) in written.items():
            assert f'<a href="/entries/{id}"><strong>{year} · {html.escape(title, quote=False)}</strong></a>' in earlier.replace("&#39;", "'")
        assert "다른 날" not in earlier
    finally:
        server.stop()
