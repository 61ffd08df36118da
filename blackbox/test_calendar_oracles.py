"""The calendar against outside oracles, through the real CLI (`saessak lunar -`, `saessak solar -`).

korean-lunar-calendar (KASI-derived) for every day of the range, both ways, with 간지.
"""
import datetime
import json
import subprocess

import pytest
from korean_lunar_calendar import KoreanLunarCalendar

from conftest import BIN

FIRST, LAST = datetime.date(1391, 2, 5), datetime.date(2050, 12, 31)
# The oracle refuses these ten days (skipped by the 1582 reform in Julian-dated documents); Saessak counts
# proleptic Gregorian throughout and converts them like any other day (docs/calendar.md).
REFORM_GAP = {datetime.date(1582, 10, d) for d in range(5, 15)}


def batch(command, lines):
    result = subprocess.run([BIN, command, "-"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture(scope="module")
def every_day():
    days = [FIRST + datetime.timedelta(n) for n in range((LAST - FIRST).days + 1)]
    return days, batch("lunar", [d.isoformat() for d in days])


ORACLE = KoreanLunarCalendar()  # one instance: it caches day counts per year


def oracle_lunar(day):
    assert ORACLE.setSolarDate(day.year, day.month, day.day)
    return ORACLE


def test_solar_to_lunar_every_day(every_day):
    days, answers = every_day
    assert len(answers) == len(days) == 241_025
    mismatches = []
    for day, answer in zip(days, answers):
        assert answer["solar"] == day.isoformat()
        if day in REFORM_GAP:
            continue
        oracle = oracle_lunar(day)
        expected = {"year": oracle.lunarYear, "month": oracle.lunarMonth, "day": oracle.lunarDay, "isLeapMonth": oracle.isIntercalation}
        gapja = oracle.getGapJaString().split()
        ganji = [answer["ganji"][k] + unit for k, unit in (("year", "년"), ("month", "월"), ("day", "일"))]
        if answer["lunar"] != expected or ganji != gapja[:3]:
            mismatches.append((day.isoformat(), answer, expected, gapja))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


def test_lunar_to_solar_every_day(every_day):
    days, answers = every_day
    lines = [f"{a['lunar']['year']:04d}-{a['lunar']['month']:02d}-{a['lunar']['day']:02d}" + (" leap" if a["lunar"]["isLeapMonth"] else "")
             for a in answers]
    back = batch("solar", lines)
    assert [b["solar"] for b in back] == [d.isoformat() for d in days]
    mismatches = []
    for line, answer in zip(lines, back):  # and the oracle's own lunar→solar, every day
        year, month, day = map(int, line.split()[0].split("-"))
        if ORACLE.setLunarDate(year, month, day, line.endswith("leap")) and ORACLE.SolarIsoFormat() != answer["solar"]:
            mismatches.append((line, answer["solar"], ORACLE.SolarIsoFormat()))
    assert not mismatches, mismatches[:3]


def test_dates_that_do_not_exist_are_refused():
    result = subprocess.run([BIN, "solar", "-"], input="2024-02-01 leap\n2023-02-30 leap\n2050-11-19\n2024-01-01\n",
                            capture_output=True, text=True)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode != 0
    assert [("error" in line) for line in lines] == [True, True, True, False]
    assert "no leap month" in lines[0]["error"] and "29 days" in lines[1]["error"]


# Solar terms ------------------------------------------------------------------------------------------------
# The oracles compute in Terrestrial Time; comparing TT keeps ΔT (an empirical convention, and different between
# the oracles for future years) out of the accuracy figure. The UT instants use skyfield's ΔT table.

def terms_of(years):
    return {row["year"]: row["terms"] for row in batch("terms", [str(y) for y in years])}


def test_solar_terms_1900_2050_against_skyfield_de421(record_property):
    import numpy as np
    import skyfield_data
    from skyfield.api import Loader
    from skyfield.framelib import ecliptic_frame
    from zoneinfo import ZoneInfo

    load = Loader(skyfield_data.get_skyfield_data_path(), verbose=False)
    ts = load.timescale(builtin=True)
    planets = load("de421.bsp")
    terms = terms_of(range(1900, 2051))
    flat = [(year, term) for year in range(1900, 2051) for term in terms[year]]
    assert len(flat) == 151 * 24
    jde = np.array([term["julianEphemerisDay"] for _, term in flat])
    times = ts.tt_jd(jde)
    longitude = planets["earth"].at(times).observe(planets["sun"]).apparent().frame_latlon(ecliptic_frame)[1].degrees
    target = np.array([term["longitude"] for _, term in flat], dtype=float)
    offset = (longitude - target + 180) % 360 - 180            # degrees past the term at our instant
    error_seconds = offset / 0.9856 * 86400                     # the Sun moves about 0.9856° a day
    worst = float(np.max(np.abs(error_seconds)))
    record_property("max_error_seconds_skyfield", worst)
    print(f"solar terms 1900-2050: max |error| {worst:.1f} s against skyfield DE421 (TT)")
    assert worst <= 60

    # The same instants in UT, as a program reads them: our "instant" (UTC, to the second, rounded down) against
    # the oracle's instant of the true longitude in UT1. Civil time is UT (UT1); skyfield's "UTC" before 1972 is
    # TAI − 10 s, i.e. TT − 42.184 s, which is not the time of the day: compared with it, 1930 looks 18 s off and
    # 1905 (where ΔT was 4 s) 38 s off — what the outside probe of issue 16 measured, plus the 52 s that the old
    # "+08:27" offset dropped.
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    true_ut1 = ts.tt_jd(jde - error_seconds / 86400).ut1
    ours = np.array([(datetime.datetime.fromisoformat(term["instant"]) - epoch).total_seconds() for _, term in flat])
    ut_error = ours - (true_ut1 - 2440587.5) * 86400
    worst_ut = float(np.max(np.abs(ut_error)))
    record_property("max_error_seconds_skyfield_ut", worst_ut)
    print(f"solar terms 1900-2050: max |error| {worst_ut:.1f} s against skyfield DE421 (UT1)")
    assert worst_ut <= worst + 1.5 and worst_ut <= 60      # rounding down to the second adds at most 1 s

    # The wall time beside it is the same instant, whatever Seoul's offset was (LMT +08:27:52 before 1908).
    for _, term in flat:
        assert datetime.datetime.fromisoformat(term["seoul"] + term["utcOffset"]) == datetime.datetime.fromisoformat(term["instant"])

    # The right day in Seoul, always: the true instant (ours minus the error) falls on the day we print.
    seoul = ZoneInfo("Asia/Seoul")
    true_utc = [epoch + datetime.timedelta(days=float(ut1) - 2440587.5) for ut1 in true_ut1]
    wrong_days = [(term["name"], term["seoul"]) for (year, term), instant in zip(flat, true_utc)
                  if instant.astimezone(seoul).date().isoformat() != term["seoul"][:10]]
    assert not wrong_days, wrong_days


def test_equinoxes_and_solstices_2050_2100_against_pyephem(record_property):
    import datetime
    import ephem

    terms = terms_of(range(2050, 2101))
    finders = {"춘분": ephem.next_vernal_equinox, "하지": ephem.next_summer_solstice,
               "추분": ephem.next_autumnal_equinox, "동지": ephem.next_winter_solstice}
    worst = 0.0
    for year in range(2050, 2101):
        for term in terms[year]:
            if term["name"] not in finders:
                continue
            ut = finders[term["name"]](ephem.Date(f"{year}/1/1"))
            tt_jd = ephem.julian_date(ut) + ephem.delta_t(ut) / 86400   # PyEphem's TT
            worst = max(worst, abs(tt_jd - term["julianEphemerisDay"]) * 86400)
    record_property("max_error_seconds_pyephem", worst)
    print(f"equinoxes and solstices 2050-2100: max |error| {worst:.1f} s against PyEphem (TT)")
    assert worst <= 60


def test_kasi_reference_instants_in_seoul():
    # ../shared/spec/korean-calendar.md §2, KASI to the nearest minute.
    for year, name, minute in [(2021, "입춘", "2021-02-03T23:59"), (2022, "소한", "2022-01-05T18:14"), (2026, "입춘", "2026-02-04T05:02")]:
        instant = next(t["seoul"] for t in terms_of([year])[year] if t["name"] == name)
        hours, minutes, seconds = map(int, instant[11:19].split(":"))
        total = hours * 60 + minutes + (1 if seconds >= 30 else 0)
        assert f"{instant[:10]}T{total // 60:02d}:{total % 60:02d}" == minute, instant


# Public holidays -------------------------------------------------------------------------------------------
# Every difference from holidays.KR (vacanza) is a deliberate choice, listed here and in docs/calendar.md.
DELIBERATE = {
    # Future election days: holidays.KR predicts them; Saessak lists an election once its date is fixed
    # (by statute or announcement), so it never shows a red day that may move.
    "future elections": {
        "2030-04-03", "2030-06-12", "2032-04-14", "2034-06-14", "2035-04-04", "2036-04-09", "2038-06-02",
        "2040-04-04", "2040-04-11", "2042-06-04", "2044-04-13", "2045-04-05", "2046-06-13", "2048-04-08",
        "2050-04-06", "2050-06-01",
    },
}


def test_holidays_1990_2050_against_holidays_kr():
    import holidays as oracle_package

    ours = {row["year"]: row["holidays"] for row in batch("holidays", [str(y) for y in range(1990, 2051)])}
    oracle = oracle_package.KR(years=range(1990, 2051), language="ko")
    allowed = set().union(*DELIBERATE.values())
    unexplained = []
    for year in range(1990, 2051):
        mine = {h["date"] for h in ours[year]}
        theirs = {d.isoformat() for d in oracle if d.year == year}
        for date in sorted(mine ^ theirs):
            if date not in allowed:
                side = "only Saessak" if date in mine else "only holidays.KR"
                unexplained.append((date, side, oracle.get(date), [h["name"] for h in ours[year] if h["date"] == date]))
    assert not unexplained, unexplained
    # Each deliberate difference is still a difference (so this list cannot rot).
    oracle_dates = {d.isoformat() for d in oracle}
    our_dates = {h["date"] for year in ours.values() for h in year}
    assert all((date in oracle_dates) != (date in our_dates) for date in allowed)
    # Substitute holidays are marked as such.
    assert all(h["substitute"] == h["name"].startswith("대체공휴일") for year in ours.values() for h in year)
