"""Vaccinations through the API and the CLI: the plan's dates and statuses, recording shots (combinations count for
each component), alternatives, skipped doses, and bad input."""
import json

from conftest import saessak
from test_api_contract import call
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def doses(plan):
    return {(d["vaccine"], d["number"]): d for d in plan["doses"]}


def test_plan_records_choices_and_skips(server):
    t = server.kim
    child = call(server, "POST", "/children", {"name": "접종이", "birthDate": "2025-03-15", "sex": "female"}, t).json()
    base = f"/children/{child['id']}/vaccinations"
    plan = call(server, "GET", base + "?date=2025-06-20", token=t).json()
    assert plan["schedule"]["version"] == "KR-2023-03-06" and plan["date"] == "2025-06-20"
    by = doses(plan)
    assert (by[("bcg", 1)]["start"], by[("bcg", 1)]["end"]) == ("2025-03-15", "2025-04-12")
    assert (by[("dtap", 4)]["start"], by[("dtap", 4)]["end"]) == ("2026-06-15", "2026-10-14")
    assert by[("dtap", 1)]["status"] == "overdue" and by[("dtap", 2)]["status"] == "upcoming"
    assert by[("rv1", 1)]["pendingChoice"] == "rotavirus"

    shot = call(server, "POST", base, {"product": "dtapIpvHib", "date": "2025-05-20", "place": "소아과", "lot": "A12"}, t)
    assert shot.status == 201 and shot.json()["vaccines"] == ["dtap", "ipv", "hib"]
    assert call(server, "PUT", base + "/choices", {"choice": "rotavirus", "vaccine": "rv5"}, t).status == 204
    assert call(server, "PUT", base + "/skips", {"vaccine": "pcv", "number": 1, "skipped": True}, t).status == 204
    by = doses(call(server, "GET", base + "?date=2025-06-20", token=t).json())
    assert all(by[(v, 1)]["status"] == "given" and by[(v, 1)]["givenOn"] == "2025-05-20" for v in ("dtap", "ipv", "hib"))
    assert by[("pcv", 1)]["status"] == "skipped"
    assert ("rv1", 1) not in by and by[("rv5", 3)]["status"] == "upcoming"

    # Influenza: a shot counts for its season; the first season has two doses.
    assert call(server, "POST", base, {"product": "influenza", "date": "2025-10-15"}, t).status == 201
    flu = [d for d in call(server, "GET", base + "?date=2025-11-20", token=t).json()["doses"] if d["vaccine"] == "influenza"]
    assert flu[0]["season"] == 2025 and flu[0]["status"] == "given" and flu[1]["start"] == "2025-11-12" and flu[1]["status"] == "due"

    # Viewers read, do not write; other families see nothing.
    assert call(server, "GET", base, token=server.lee).status == 404
    assert call(server, "POST", base, {"product": "bcg", "date": "2025-03-20"}, server.lee).status == 404
    # Deleting a shot puts the doses back.
    assert call(server, "DELETE", f"{base}/{shot.json()['id']}", token=server.lee).status == 404
    assert call(server, "DELETE", f"{base}/{shot.json()['id']}", token=t).status == 204
    assert doses(call(server, "GET", base + "?date=2025-06-20", token=t).json())[("hib", 1)]["status"] == "overdue"


def test_bad_vaccination_input_names_the_field(server):
    t = server.kim
    child = call(server, "POST", "/children", {"name": "접종둘", "birthDate": "2025-03-15"}, t).json()
    base = f"/children/{child['id']}/vaccinations"
    assert call(server, "POST", base, {"product": "flu", "date": "2025-05-01"}, t).status == 422
    bad_date = call(server, "POST", base, {"product": "bcg", "date": "2025-02-30"}, t)
    assert bad_date.status == 422 and bad_date.json()["field"] == "date"
    assert call(server, "PUT", base + "/choices", {"choice": "rotavirus", "vaccine": "ijev"}, t).status == 422
    assert call(server, "PUT", base + "/skips", {"vaccine": "bcg", "number": 2, "skipped": True}, t).status == 422
    assert call(server, "GET", base + "?date=yesterday", token=t).status == 400
    assert call(server, "GET", "/children/00000000-0000-4000-8000-000000000000/vaccinations", token=t).status == 404


def test_vaccines_command(tmp_path):
    from conftest import Server, make_family
    data = tmp_path / "data"
    token = make_family(data, "mina")
    running = Server(data).start()
    try:
        child = running.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-03-15", "sex": "male"}, token).json()
        assert running.request("POST", f"/api/v1/children/{child['id']}/vaccinations", {"product": "bcg", "date": "2025-03-20"}, token).status == 201
    finally:
        running.stop()
    text = saessak("vaccines", "하늘", "--date", "2025-06-20", data=data).stdout
    assert "하늘 — 2025-06-20 기준" in text and "BCG(결핵) 1차" in text and "완료 2025-03-20" in text and "지남" in text
    plan = json.loads(saessak("vaccines", child["id"], "--date", "2025-06-20", "--json", data=data).stdout)
    assert doses(plan)[("bcg", 1)]["status"] == "given"
    missing = saessak("vaccines", "바다", data=data, check=False)
    assert missing.returncode != 0 and "바다" in missing.stderr
    bad = saessak("vaccines", "하늘", "--date", "2025-13-01", data=data, check=False)
    assert bad.returncode != 0 and "--date" in bad.stderr
