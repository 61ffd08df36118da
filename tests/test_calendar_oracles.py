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
