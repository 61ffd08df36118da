"""Issue 33: every text field of every write route, with generated strings — NUL and every other control character,
lone surrogates (as JSON escapes), combining marks by the dozen, characters outside the BMP, right-to-left marks,
white space of every kind. Each string is either refused with a 422 that names the field (a 400 when the JSON cannot
carry it: a lone surrogate), or read back exactly as the server keeps it: as sent, or — for one-line fields and tags —
without the white space at its ends. A NUL used to be accepted, echoed whole and stored cut (SQLite). Runs on both
engines."""
import json

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import make_family, new_child, new_entry, server  # noqa: F401  (the module's server)

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]

# Unicode's White_Space property: what the server trims from the ends of one-line fields.
WHITE_SPACE = set("\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200b)}

ODD = ["\u0000", "\u0001", "\u0007", "\u0008", "\u000b", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f", "\u00ad", "\u200b",
       "\u200d", "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\u2028", "\ufeff", "\ufffe", "\uffff", "\ud800",
       "\udfff", "\u0301", "\u0308", "\u20e3", "\ufe0f", "\u3164", "\u115f", "\U0001f468", "\U0001f3fd", "\U0001f1f0", "\U00010000",
       "\U0010ffff", "\u05d0", "\u0627", "\u0e31", "\u0939", "\u094d", "가", "\u1100", "\u1161", "\u11a8", "#", ",", " ", "\t", "\n",
       "\r", "\u3000", "<", "&", '"', "\\", "'", "%", "a", "Z", "9"]

texts = st.one_of(
    st.text(alphabet=st.sampled_from(ODD), max_size=40),
    st.text(max_size=40),
    st.builds(lambda base, marks, n: base + marks * n, st.sampled_from(["a", "가", "e"]), st.sampled_from(["\u0301", "\u0308\u0301"]),
              st.integers(0, 40)),
)


def trimmed(text):
    start, end = 0, len(text)
    while start < end and text[start] in WHITE_SPACE:
        start += 1
    while end > start and text[end - 1] in WHITE_SPACE:
        end -= 1
    return text[start:end]


def as_tag(text):
    tag = trimmed(text)
    return trimmed(tag[1:]) if tag.startswith("#") else tag


@pytest.fixture(scope="module")
def family(server):  # noqa: F811
    t = server.kim
    child = new_child(server, t)
    entry = new_entry(server, t, [child["id"]])
    memo = server.request("POST", "/api/v1/memos", {"title": "메모", "body": ""}, t).json()
    event = server.request("POST", "/api/v1/events", {"childId": child["id"], "kind": "hospital", "title": "검진", "date": "2026-11-22"}, t).json()
    anniversary = server.request("POST", "/api/v1/anniversaries", {"name": "결혼기념일", "calendar": "solar", "month": 5, "day": 5}, t).json()
    comment = server.request("POST", f"/api/v1/entries/{entry['id']}/comments", {"text": "좋아요"}, t).json()
    return {"child": child["id"], "entry": entry["id"], "memo": memo["id"], "event": event["id"], "anniversary": anniversary["id"],
            "comment": comment["id"]}


def by_id(kind):
    return lambda server, token, family, answer: server.request("GET", f"/api/v1/{kind}/{answer['id']}", None, token).json()


def in_list(path):
    """The object with the answer's id anywhere in what a GET of `path` gives (a list, or a child's vaccination plan)."""
    def find(server, token, family, answer):
        def search(value):
            if isinstance(value, dict):
                if value.get("id") == answer["id"]:
                    return value
                value = list(value.values())
            if isinstance(value, list):
                return next((found for item in value if (found := search(item)) is not None), None)
            return None
        found = search(server.request("GET", "/api/v1" + path.format(**family), None, token).json())
        assert found is not None, (path, answer)
        return found
    return find


def entry_body(f, **fields):
    return {"title": "t", "date": "2026-11-22T09:00", "childIds": [f["child"]], **fields}


def event_body(f, **fields):
    return {"childId": f["child"], "kind": "hospital", "title": "검진", "date": "2026-11-22", **fields}


VACCINATIONS = in_list("/children/{child}/vaccinations")

# (name, method, path, body with the text, field as the API names it, how the server keeps it, how to read it again)
FIELDS = [
    ("child name", "POST", "/children", lambda f, s: {"name": s, "birthDate": "2025-03-01"}, "name", trimmed, by_id("children")),
    ("child nickname", "PUT", "/children/{child}", lambda f, s: {"name": "하늘", "nickname": s, "birthDate": "2025-03-01"}, "nickname", trimmed,
     by_id("children")),
    ("child birthplace", "POST", "/children", lambda f, s: {"name": "하늘", "birthplace": s, "birthDate": "2025-03-01"}, "birthplace", trimmed,
     by_id("children")),
    ("child hospital", "POST", "/children", lambda f, s: {"name": "하늘", "hospital": s, "birthDate": "2025-03-01"}, "hospital", trimmed,
     by_id("children")),
    ("entry title", "POST", "/entries", lambda f, s: entry_body(f, title=s), "title", trimmed, by_id("entries")),
    ("entry body", "POST", "/entries", lambda f, s: entry_body(f, body=s), "body", str, by_id("entries")),
    ("entry body (edit)", "PUT", "/entries/{entry}", lambda f, s: entry_body(f, body=s), "body", str, by_id("entries")),
    ("entry tag", "POST", "/entries", lambda f, s: entry_body(f, tags=[s]), "tags", as_tag, by_id("entries")),
    ("entry place", "POST", "/entries", lambda f, s: entry_body(f, place={"name": s}), "place.name", trimmed, by_id("entries")),
    ("entry weather", "POST", "/entries", lambda f, s: entry_body(f, weather=s), "weather", trimmed, by_id("entries")),
    ("memo title", "POST", "/memos", lambda f, s: {"title": s, "body": ""}, "title", trimmed, by_id("memos")),
    ("memo body", "PUT", "/memos/{memo}", lambda f, s: {"title": "메모", "body": s}, "body", str, by_id("memos")),
    ("event title", "POST", "/events", lambda f, s: event_body(f, title=s), "title", trimmed, by_id("events")),
    ("event notes", "PUT", "/events/{event}", lambda f, s: event_body(f, notes=s), "notes", trimmed, by_id("events")),
    ("event hospital", "POST", "/events", lambda f, s: event_body(f, hospital=s), "hospital", trimmed, by_id("events")),
    ("event doctor", "POST", "/events", lambda f, s: event_body(f, doctor=s), "doctor", trimmed, by_id("events")),
    ("event diagnosis", "POST", "/events", lambda f, s: event_body(f, diagnosis=s), "diagnosis", trimmed, by_id("events")),
    ("anniversary", "PUT", "/anniversaries/{anniversary}", lambda f, s: {"name": s, "calendar": "solar", "month": 5, "day": 5}, "name", trimmed,
     by_id("anniversaries")),
    ("entry comment", "POST", "/entries/{entry}/comments", lambda f, s: {"text": s}, "text", trimmed, by_id("comments")),
    ("comment edit", "PUT", "/comments/{comment}", lambda f, s: {"text": s}, "text", trimmed, by_id("comments")),
    ("vaccination place", "POST", "/children/{child}/vaccinations", lambda f, s: {"product": "bcg", "date": "2025-03-02", "place": s}, "place",
     trimmed, VACCINATIONS),
    ("vaccination lot", "POST", "/children/{child}/vaccinations", lambda f, s: {"product": "bcg", "date": "2025-03-02", "lot": s}, "lot", trimmed,
     VACCINATIONS),
    ("vaccination product", "POST", "/children/{child}/vaccinations", lambda f, s: {"product": "bcg", "date": "2025-03-02", "productName": s},
     "productName", trimmed, VACCINATIONS),
    ("token name", "POST", "/tokens", lambda f, s: {"name": s}, "name", trimmed, in_list("/tokens")),
    ("share label", "POST", "/share-links", lambda f, s: {"entryIds": [f["entry"]], "label": s}, "label", trimmed, in_list("/share-links")),
    ("feed label", "POST", "/feeds", lambda f, s: {"label": s}, "label", trimmed, in_list("/feeds")),
]


def field_of(resource, field):
    value = resource
    for part in field.split("."):
        value = (value or {}).get(part)
    return value[0] if field == "tags" and value else value


@pytest.mark.parametrize("name, method, path, body, field, kept, read", FIELDS, ids=[f[0] for f in FIELDS])
def test_a_text_field_keeps_what_it_takes_or_says_why_not(server, family, name, method, path, body, field, kept, read):  # noqa: F811
    t = server.kim
    target = "/api/v1" + path.format(**family)

    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(texts)
    @example("#\u200d")  # found here: `#` and a joiner are one Swift character, and the tag kept its `#`
    def check(text):
        payload = json.dumps(body(family, text)).encode()
        answer = server.request(method, target, raw=payload, token=t, headers={"Content-Type": "application/json"})
        # JSON writes each surrogate as an escape; a high one before a low one is one character to the server.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        lone = any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        assert answer.status < 500, (name, repr(text), answer.status, answer.body[:300])
        if answer.status == 400:
            assert lone, (name, repr(text), answer.body[:300])
            return
        if answer.status == 422:
            assert answer.json().get("field") in (field, field.split(".")[0]), (name, repr(text), answer.json())
            return
        assert answer.status in (200, 201), (name, repr(text), answer.status, answer.body[:300])
        assert "\u0000" not in text and not lone, (name, repr(text), "taken")
        expected = kept(text)
        got = field_of(read(server, t, family, answer.json()), field)
        # An optional field left blank is absent (null); a tag takes the spelling the family first gave it (a tag is
        # one whatever its letter case).
        same = got == expected or (expected == "" and got is None) or (field == "tags" and got.lower() == expected.lower())
        assert same, (name, repr(text), got)

    check()
