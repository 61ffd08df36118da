"""The iCalendar feed, parsed by an independent parser (icalendar): lunar birthdays on the right solar dates for
2025–2035 (leap-month and day-30 births), stable UIDs, folding and escaping of Korean text, revocation."""
import re
from datetime import date

import icalendar
from korean_lunar_calendar import KoreanLunarCalendar

from conftest import Server, make_family
from test_api_contract import call
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def lunar_to_solar(year, month, day, leap=False):
    calendar = KoreanLunarCalendar()
    assert calendar.setLunarDate(year, month, day, leap)
    return date.fromisoformat(calendar.SolarIsoFormat())


def lunar_month_length(year, month):
    calendar = KoreanLunarCalendar()
    return 30 if calendar.setLunarDate(year, month, 30, False) else 29


def fetch(server, path):
    response = server.request("GET", path)
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/calendar"), response.status
    return response.body


def events(body):
    return {str(e["UID"]): e for e in icalendar.Calendar.from_ical(body).walk("VEVENT")}


def test_feed_of_a_family(tmp_path):
    data = tmp_path / "data"
    t = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        # Born on lunar 2023 윤2월 10일 (a leap month), and on lunar 2020-04-30 (day 30, missing in some years).
        leap = call(server, "POST", "/children", {"name": "윤달이", "birthDate": "2023-02-10", "birthCalendar": "lunar", "isLeapMonth": True, "sex": "female"}, t).json()
        thirty = call(server, "POST", "/children", {"name": "그믐이, \"세미콜론;\" 그리고 아주 긴 이름을 가진 아이입니다", "birthDate": "2020-04-30", "birthCalendar": "lunar", "sex": "male"}, t).json()
        call(server, "POST", "/anniversaries", {"name": "결혼기념일", "calendar": "solar", "month": 5, "day": 5}, t)
        made = call(server, "POST", "/feeds", {"label": "우리 가족 달력", "holidays": True}, t)
        assert made.status == 201
        feed = made.json()
        path = re.sub(r"^http://[^/]+", "", feed["url"])
        assert path.startswith("/feeds/ssk_") and path.endswith(".ics")
        first = fetch(server, path)
        assert b"\r\n" in first and all(len(line) <= 75 for line in first.split(b"\r\n"))
        parsed = events(first)
        calendar = icalendar.Calendar.from_ical(first)
        assert str(calendar["X-WR-CALNAME"]) == "우리 가족 달력"

        for child, (month, day) in ((leap, (2, 10)), (thirty, (4, 30))):
            for year in range(2025, 2036):
                uid = f"birthday-{child['id']}-{year}@saessak"
                if uid not in parsed:
                    continue  # outside the window (last year to ten years ahead of today)
                # A leap-month birth celebrates in the ordinary month; day 30 becomes 29 when the month is short.
                expected = lunar_to_solar(year, month, min(day, lunar_month_length(year, month)))
                assert parsed[uid]["DTSTART"].dt == expected, (child["id"], year)
                assert isinstance(parsed[uid]["DTSTART"].dt, date)
        thirty_years = [y for y in range(2025, 2036) if f"birthday-{thirty['id']}-{y}@saessak" in parsed]
        assert len(thirty_years) >= 9 and any(lunar_month_length(y, 4) == 29 for y in thirty_years)
        # Korean text with commas and semicolons comes back as it was written.
        summaries = {str(e["SUMMARY"]) for e in parsed.values()}
        assert any(s.startswith("그믐이, \"세미콜론;\" 그리고 아주 긴 이름을 가진 아이입니다 음력 생일") for s in summaries)
        assert any(str(e["SUMMARY"]) == "추석" for e in parsed.values())
        assert any(uid.startswith("vaccination-") for uid in parsed)
        assert any(uid.startswith("milestone-") for uid in parsed)

        # Regenerating gives the same UIDs; the one-off download has the same events (without holidays).
        assert set(events(fetch(server, path))) == set(parsed)
        download = call(server, "GET", "/calendar.ics", token=t)
        assert download.status == 200 and "attachment" in download.headers["Content-Disposition"]
        assert {u for u in events(download.body) if not u.startswith("holiday-")} == {u for u in parsed if not u.startswith("holiday-")}

        assert feed["id"] in [f["id"] for f in call(server, "GET", "/feeds", token=t).json()["items"]]
        other = make_family(data, "lee", "이씨네")
        assert call(server, "DELETE", f"/feeds/{feed['id']}", token=other).status == 404
        assert call(server, "DELETE", f"/feeds/{feed['id']}", token=t).status == 204
        assert server.request("GET", path).status == 404
        assert server.request("GET", "/feeds/ssk_not-a-feed.ics").status == 404
        assert call(server, "GET", "/calendar.ics").status == 401
    finally:
        server.stop()
