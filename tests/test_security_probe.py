"""Regressions of the outside security probe (issue 17), each as the probe did it, through the real server."""
import pytest

from browser import Browser
from conftest import Server, make_family, new_child, new_entry, saessak
from test_api_contract import call

PASSWORD = "a long password"
PAYLOAD = "\u0600<meta http-equiv=refresh content=0;url=//127.0.0.1:18999/x\u0600>"


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    data = tmp_path_factory.mktemp("probe") / "data"
    owner = make_family(data, "mom", "우리집")
    make_family(data, "grandma", "할머니")
    saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "viewer", data=data)
    viewer = saessak("admin", "create-token", "--username", "grandma", "--family", "우리집", data=data).stdout.strip()
    running = Server(data).start()
    running.owner, running.viewer = owner, viewer
    yield running
    running.stop()


def test_markup_fused_with_a_prepended_mark_is_escaped_everywhere(home):
    child = new_child(home, home.owner, name=PAYLOAD[:90])
    entry = new_entry(home, home.owner, [child["id"]], title=PAYLOAD, body=PAYLOAD, tags=["x"])
    link = call(home, "POST", "/share-links", {"entryIds": [entry["id"]], "label": PAYLOAD}, home.owner).json()
    browser = Browser(home)
    assert browser.sign_in("mom", PASSWORD).status == 303
    pages = ["/timeline", f"/entries/{entry['id']}", "/", "/children", f"/timeline?q={PAYLOAD}", "/settings"]
    for path in pages:
        page = browser.request("GET", path)
        assert page.status == 200, path
        assert "<meta http-equiv" not in page.text, path
    shared = Browser(home).request("GET", "/" + link["url"].split("/", 3)[3])
    assert shared.status == 200 and "<meta http-equiv" not in shared.text
    reflected = Browser(home).request("GET", f"/login?next=/x{PAYLOAD}")
    assert "<meta http-equiv" not in reflected.text


@pytest.mark.parametrize("target", ["/%09/127.0.0.1:18999/x", "/%0a/127.0.0.1:18999/x", "/%0d%0a/evil", "//evil", "/\\evil",
                                    "https://evil", "/%20/evil"])
def test_next_never_leaves_the_site(home, target):
    browser = Browser(home)
    assert browser.sign_in("mom", PASSWORD).status == 303
    answer = browser.request("GET", f"/login?next={target}")
    assert answer.status == 303
    location = answer.getheader("Location")
    cleaned = "".join(c for c in location if c not in "\t\r\n ")
    assert cleaned.startswith("/") and not cleaned.startswith("//") and not cleaned.startswith("/\\"), location


def test_a_viewer_revokes_only_the_feeds_they_made(home):
    owners = call(home, "POST", "/feeds", {"label": "엄마 폰"}, home.owner).json()
    grandmas = call(home, "POST", "/feeds", {"label": "할머니 폰"}, home.viewer).json()
    assert call(home, "DELETE", f"/feeds/{owners['id']}", token=home.viewer).status == 404
    assert home.request("GET", "/" + owners["url"].split("/", 3)[3]).status == 200
    assert call(home, "DELETE", f"/feeds/{grandmas['id']}", token=home.viewer).status == 204
    again = call(home, "POST", "/feeds", {"label": "할머니 폰 2"}, home.viewer).json()
    assert call(home, "DELETE", f"/feeds/{again['id']}", token=home.owner).status == 204   # an owner may tidy up
    assert call(home, "DELETE", f"/feeds/{owners['id']}", token=home.owner).status == 204
