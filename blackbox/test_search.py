"""Korean full-text search through the real server: particles, spacing, one syllable, English, emoji, memos,
filters, paging, escaping, other families, and `saessak admin reindex`."""
import pytest

from conftest import Server, make_family, saessak
from test_api_contract import call

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]

CORPUS = [
    # title, body, date, tags, place
    ("웃음", "아기가 처음으로 소리 내어 웃었다", "2025-04-01T09:00", [], None),
    ("목욕", "아기를 목욕시키고 재웠다", "2025-05-01T20:00", [], None),
    ("산책", "아기랑 공원에서 산책했다", "2025-06-01T10:00", ["산책"], "올림픽공원"),
    ("백일", "오늘 백일잔치를 했다. 할머니가 오셨다.", "2025-06-08T12:00", ["백일"], None),
    ("띄어쓰기", "바다의 백일 잔치 준비", "2025-06-20T12:00", [], None),
    ("돌잔치", "드디어 돌잔치! 돌잡이는 연필", "2026-03-01T12:00", ["첫돌"], "서울"),
    ("바닷가", "We went to the BEACH <b>with</b> Grandma", "2025-08-15T15:00", [], "제주도"),
    ("생일", "생일 축하해 🎂 Happy birthday", "2026-03-01T19:00", [], None),
]


@pytest.fixture(scope="module")
def diary(server):
    t = server.kim
    sky = call(server, "POST", "/children", {"name": "하늘", "birthDate": "2025-01-01"}, t).json()
    sea = call(server, "POST", "/children", {"name": "바다", "birthDate": "2025-01-01"}, t).json()
    ids = {}
    for index, (title, body, date, tags, place) in enumerate(CORPUS):
        body_json = {"title": title, "body": body, "date": date, "tags": tags,
                     "childIds": [sky["id"] if index % 2 == 0 else sea["id"]]}
        if place:
            body_json["place"] = {"name": place}
        ids[title] = call(server, "POST", "/entries", body_json, t).json()["id"]
    memo = call(server, "POST", "/memos", {"title": "장보기", "body": "기저귀, 아기 로션"}, t).json()
    ids["장보기"] = memo["id"]
    return {"sky": sky["id"], "sea": sea["id"], "ids": ids}


def search(server, query, token=None, **params):
    from urllib.parse import urlencode
    response = call(server, "GET", "/search?" + urlencode({"q": query, **params}), token=token or server.kim)
    assert response.status == 200, response.body
    return response.json()


@pytest.mark.parametrize("query, titles", [
    ("아기", {"웃음", "목욕", "산책", "장보기"}),
    ("백일", {"백일", "띄어쓰기"}),
    ("백일잔치", {"백일", "띄어쓰기"}),
    ("돌", {"돌잔치"}),
    ("첫", {"돌잔치"}),
    ("beach", {"바닷가"}),
    ("Gran", {"바닷가"}),
    ("HAPPY 생일", {"생일"}),
    ("🎂", {"생일"}),
    ("제주", {"바닷가"}),
    ("없는말", set()),
])
def test_finds_korean_english_and_emoji(server, diary, query, titles):
    assert {item["title"] for item in search(server, query)["items"]} == titles


def test_hits_name_their_kind_and_mark_escaped_snippets(server, diary):
    items = search(server, "아기")["items"]
    kinds = {item["title"]: item["kind"] for item in items}
    assert kinds["장보기"] == "memo" and kinds["웃음"] == "entry"
    assert {item["id"] for item in items} == {diary["ids"][t] for t in ("웃음", "목욕", "산책", "장보기")}
    beach = search(server, "beach")["items"][0]
    assert beach["snippet"] == "We went to the <mark>BEACH</mark> &lt;b&gt;with&lt;/b&gt; Grandma"
    spaced = next(item for item in search(server, "백일잔치")["items"] if item["title"] == "띄어쓰기")
    assert spaced["snippet"] == "바다의 <mark>백일 잔치</mark> 준비"


def test_filters_and_paging(server, diary):
    assert {i["title"] for i in search(server, "아기", child=diary["sky"])["items"]} == {"웃음", "산책"}
    assert {i["title"] for i in search(server, "아기", **{"from": "2025-05-01", "to": "2025-06-01"})["items"]} == {"목욕", "산책"}
    seen, cursor = [], None
    while True:
        page = search(server, "아기", limit=1, **({"cursor": cursor} if cursor else {}))
        seen += [item["id"] for item in page["items"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert len(seen) == 4 and len(set(seen)) == 4


def test_another_family_finds_nothing_of_ours(server, diary):
    assert search(server, "아기", token=server.lee)["items"] == []


@pytest.mark.parametrize("path, field", [
    ("/search", "q"),
    ("/search?q=", "q"),
    ("/search?q=%20%21%3F", "q"),
    ("/search?q=" + "가" * 201, "q"),
    ("/search?q=아기&from=2025-02-30", "from"),
    ("/search?q=아기&from=2025-06-02&to=2025-06-01", "to"),
    ("/search?q=아기&child=nope", "child"),
    ("/search?q=아기&cursor=xyz", "cursor"),
    ("/search?q=아기&limit=0", "limit"),
])
def test_bad_queries_are_400_naming_the_parameter(server, path, field):
    response = call(server, "GET", path, token=server.kim)
    assert response.status == 400, response.body
    assert response.json()["field"] == field


def test_search_needs_a_token(server):
    assert call(server, "GET", "/search?q=아기").status == 401


def test_reindex_from_the_command_line(tmp_path):
    data = tmp_path / "data"
    token = make_family(data, "mina")
    running = Server(data).start()
    try:
        for title in ("아기 첫 웃음", "아기 목욕"):
            assert running.request("POST", "/api/v1/memos", {"title": title}, token).status == 201
        # Safe while the server runs: one transaction.
        out = saessak("admin", "reindex", data=data)
        assert out.stdout.strip() == "search index rebuilt: 0 entries, 2 memos"
        items = running.request("GET", "/api/v1/search?q=%EC%95%84%EA%B8%B0", token=token).json()["items"]
        assert sorted(item["title"] for item in items) == ["아기 목욕", "아기 첫 웃음"]
    finally:
        running.stop()
    missing = saessak("admin", "reindex", data=tmp_path / "nothing", check=False)
    assert missing.returncode != 0 and "no Saessak data" in missing.stderr
