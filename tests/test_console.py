"""The review console on the real database: in headless Chromium (Debian's, driven by Playwright),
a pair accepted with the keyboard, one rejected with the mouse and a mention split from the entity
view, the database checked after each step; over plain HTTP, the token, cross-site refusals,
repeated submits and a change made meanwhile."""

from __future__ import annotations

import os
import re
import shutil
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from kgres import console, ingest
from kgres.curate.review import decide
from kgres.resolve import resolve
from kgres.retrieve import Retriever
from kgres.retrieve.serve import Server, create_app
from tests.graphs import assert_aggregates_current, assert_one_refers_to_per_mention, free_port

SAMPLE = Path(__file__).resolve().parent.parent / "sample" / "holmes.jsonl"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture
def sample(db):
    """The bundled sample resolved by the default model: it leaves pairs in review."""
    ingest.ingest(db, "jsonl", SAMPLE)
    resolve(db)
    assert len(console.queue(db).items) >= 2, "the sample should leave at least two pairs in review"
    return db


def pair_state(db, a: str, b: str) -> dict:
    return db.run("MATCH (x {id: $a}), (y {id: $b}) "
                  "RETURN labels(x) AS la, labels(y) AS lb, x.merged_into AS xa, y.merged_into AS yb, "
                  "EXISTS { (x)-[:NOT_SAME_AS]-(y) } AS apart", a=a, b=b)[0]


def test_priority_prefers_the_threshold_and_pairs_that_settle_others():
    assert console.priority(0.88, 0.9, 0) > console.priority(0.5, 0.9, 0) > console.priority(0.1, 0.9, 0)
    assert console.priority(0.6, 0.9, 5) > console.priority(0.6, 0.9, 0)
    assert console.priority(0.9, 0.9, 0) == 1.0


def test_passages_highlight_the_span_else_the_name():
    p = console.passage("Mr. Holmes played the violin.", "c1", "Holmes", 4, 10)
    assert (p.before, p.mark, p.after, p.located) == ("Mr. ", "Holmes", " played the violin.", "span")
    p = console.passage("Mr. Holmes played the violin.", "c1", "holmes", 40, 50)   # a span past the text
    assert (p.mark, p.located) == ("Holmes", "name")
    assert console.passage("No one here.", "c1", "Holmes", None, None).located == "none"
    assert console.passage(None, None, "Holmes", None, None) is None


def test_decide_unsure_defers_the_pair_without_teaching_the_model(sample):
    first = console.queue(sample).items[0]
    d = decide(sample, "unsure", first.a_id, first.b_id, reason="need the book", decided_by="human:t")
    assert d.decision == "unsure" and d.run_id is None
    q = console.queue(sample)
    assert q.items[-1].key == first.key and q.items[-1].deferred_by == "human:t"   # at the back, still queued
    assert sample.run("MATCH (l:PairLabel) RETURN count(l) AS n")[0]["n"] == 0
    assert sample.run("MATCH (:Entity {id: $a})-[c:CANDIDATE]-(:Entity {id: $b}) RETURN c.deferred_reason AS r",
                      a=first.a_id, b=first.b_id)[0]["r"] == "need the book"


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed ('make test' installs it)")
def test_console_in_a_browser_accept_by_keyboard_reject_by_mouse_split_from_the_entity(sample, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the dev extra installs playwright")
    shots = Path(os.environ.get("KGRES_SCREENSHOTS") or tmp_path)
    first, second = console.queue(sample).items[:2]
    with Server(create_app(sample, Retriever(sample)), port=free_port()) as server, \
            sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url + "/console")
        rows = page.locator("table.queue tr[data-href]")
        assert rows.count() >= 2 and first.a_name in rows.nth(0).inner_text()
        page.screenshot(path=str(shots / "console-queue.png"), full_page=True)

        page.keyboard.press("Enter")                         # the first row is selected: open it
        page.wait_for_selector("form#decide")
        assert page.locator("input[name=a]").input_value() == first.a_id
        assert page.locator("table.waterfall tr").count() >= 3 and page.locator("mark").count() >= 2
        page.screenshot(path=str(shots / "console-pair.png"), full_page=True)
        page.keyboard.press("a")                              # accept with the keyboard
        page.wait_for_url(re.compile(r"/console/pair\?.*flash="))
        assert "accepted" in page.locator(".flash").inner_text()
        st = pair_state(sample, first.a_id, first.b_id)
        assert st["xa"] == first.b_id or st["yb"] == first.a_id   # one entity now
        run = sample.run("MATCH (r:ResolutionRun) WHERE r.id STARTS WITH 'decision' RETURN r.id AS id")
        assert len(run) == 1
        assert sample.run("MATCH (l:PairLabel) RETURN l.label AS label, l.decided_by AS by")[0] == \
            {"label": True, "by": "human:console"}

        assert page.locator("input[name=a]").input_value() in (second.a_id, second.b_id)
        page.click("#reject")                                 # reject with the mouse
        page.wait_for_url(re.compile(r"flash="))
        assert pair_state(sample, second.a_id, second.b_id)["apart"]
        left = console.queue(sample)
        assert not {first.key, second.key} & {i.key for i in left.items}
        if left.total:                                        # the next pair in the queue is open
            assert page.locator("input[name=a]").input_value() in (left.items[0].a_id, left.items[0].b_id)
        else:
            assert "Queue empty" in page.content()

        keep = st["xa"] or st["yb"]                           # the entity the other was merged into
        page.goto(f"{server.url}/console/entity/{urllib.parse.quote(keep)}")
        moved = sample.run("MATCH (m:Mention)-[r:REFERS_TO {run_id: $run}]->(:Entity) RETURN m.id AS id, "
                           "r.previous_entity_id AS previous ORDER BY id LIMIT 1", run=run[0]["id"])[0]
        page.click(f"tr[id='m-{moved['id']}'] a.split")
        assert "NOT_SAME_AS" in page.locator("ul.changes").inner_text()
        page.click("#confirm")
        page.wait_for_url(re.compile(r"/console/entity/.*flash="))
        back = sample.run("MATCH (:Mention {id: $m})-[:REFERS_TO]->(e:Entity) RETURN e.id AS id", m=moved["id"])
        assert back == [{"id": moved["previous"]}]
        assert pair_state(sample, keep, moved["previous"])["apart"]
        browser.close()
    assert_one_refers_to_per_mention(sample)
    assert_aggregates_current(sample)


class Client:
    """A browser without a browser: keeps the cookie, does not follow redirects."""

    def __init__(self, base: str) -> None:
        self.base, self.cookie = base, ""

    def request(self, method: str, path: str, form: dict | None = None,
                headers: dict | None = None) -> tuple[int, str, dict]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        if self.cookie:
            req.add_header("Cookie", self.cookie)
        if data is not None:
            req.add_header("Content-Type", "application/x-www-form-urlencoded")
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(req, timeout=60) as r:
                status, body, hdrs = r.status, r.read().decode(), r.headers
        except urllib.error.HTTPError as e:
            status, body, hdrs = e.code, e.read().decode(), e.headers
        hdrs = {k.lower(): v for k, v in hdrs.items()}
        if "set-cookie" in hdrs:
            self.cookie = hdrs["set-cookie"].split(";")[0]
        return status, body, hdrs


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)


def test_console_token_cross_site_repeats_and_concurrent_changes(sample):
    first, second = console.queue(sample).items[:2]
    with Server(create_app(sample, Retriever(sample), token="s3cret"), port=free_port()) as server:
        c = Client(server.url)
        status, _, h = c.request("GET", "/console")
        assert status == 303 and h["location"] == "/console/login"          # a browser is sent to sign in
        assert c.request("GET", "/console/login")[0] == 200
        assert c.request("POST", "/console/decide", {"a": first.a_id})[0] == 401
        status, _, h = c.request("POST", "/console/login", {"token": "wrong"})
        assert status == 303 and "failed" in h["location"] and not c.cookie
        status, _, h = c.request("POST", "/console/login", {"token": "s3cret"})
        assert status == 303 and c.cookie.startswith("kgres_token=")          # kept for later requests
        assert {"httponly", "samesite=strict"} <= {p.strip().lower() for p in h["set-cookie"].split(";")}
        status, html, h = c.request("GET", "/console/pair?" + urllib.parse.urlencode({"a": first.a_id, "b": first.b_id}))
        assert status == 200 and "frame-ancestors 'none'" in h["content-security-policy"]
        form = {k: hidden(html, k) for k in ("form_token", "a", "b", "stamp")} | {"decision": "accept"}

        before = sample.run("MATCH (l:PairLabel) RETURN count(l) AS n")[0]["n"]
        assert c.request("POST", "/console/decide", {**form, "form_token": "forged"})[0] == 403
        assert c.request("POST", "/console/decide", form, {"Origin": "http://evil.example"})[0] == 403
        assert c.request("POST", "/console/decide", form, {"Sec-Fetch-Site": "cross-site"})[0] == 403
        assert sample.run("MATCH (l:PairLabel) RETURN count(l) AS n")[0]["n"] == before    # nothing recorded

        status, _, h = c.request("POST", "/console/decide", form, {"Origin": server.url})
        assert status == 303 and "accepted" in urllib.parse.unquote_plus(h["location"])
        status, _, h = c.request("POST", "/console/decide", form)          # the same submit again
        assert status == 303 and "already accepted" in urllib.parse.unquote_plus(h["location"])
        assert sample.run("MATCH (r:ResolutionRun) WHERE r.id STARTS WITH 'decision' RETURN count(r) AS n")[0]["n"] == 1

        status, html, _ = c.request("GET", "/console/pair?" + urllib.parse.urlencode({"a": second.a_id, "b": second.b_id}))
        form = {k: hidden(html, k) for k in ("form_token", "a", "b", "stamp")} | {"decision": "accept"}
        decide(sample, "unsure", second.a_id, second.b_id, decided_by="human:other")   # someone else, meanwhile
        status, body, _ = c.request("POST", "/console/decide", form)
        assert status == 409 and "changed since" in body
        assert not pair_state(sample, second.a_id, second.b_id)["apart"]
        assert sample.run("MATCH (r:ResolutionRun) WHERE r.id STARTS WITH 'decision' RETURN count(r) AS n")[0]["n"] == 1

        assert c.request("POST", "/console/decide", {**form, "decision": "merge-everything"})[0] == 400
        assert c.request("GET", "/console/pair?a=nope&b=nada")[0] == 404
        assert c.request("GET", "/console/entity/nope")[0] == 404
        assert c.request("GET", "/console/split?mention=nope")[0] == 404
        assert c.request("GET", "/console/rollback?run=nope")[0] == 404
        status, html, _ = c.request("GET", "/console/search?q=" + urllib.parse.quote('holm "(['))
        assert status == 200
        status, html, _ = c.request("GET", "/console/search?q=holm")
        assert status == 200 and "Sherlock Holmes" in html


def test_rollback_from_the_console_says_what_changes_and_is_idempotent(sample):
    run = sample.run("MATCH (r:ResolutionRun) WHERE r.parent IS NULL RETURN r.id AS id")[0]["id"]
    moved = console.run_effect(sample, run)["moved"]
    assert moved > 0
    with Server(create_app(sample, Retriever(sample)), port=free_port()) as server:
        c = Client(server.url)
        status, html, _ = c.request("GET", "/console/rollback?run=" + urllib.parse.quote(run))
        assert status == 200 and f"{moved:,} mention(s) move back" in html
        form = {k: hidden(html, k) for k in ("form_token", "run", "stamp")}
        status, _, h = c.request("POST", "/console/rollback", form)
        assert status == 303 and "rolled back" in urllib.parse.unquote_plus(h["location"])
        assert sample.run("MATCH (r:ResolutionRun {id: $id}) RETURN r.status AS s", id=run)[0]["s"] == "rolled_back"
        status, _, h = c.request("POST", "/console/rollback", form)
        assert status == 303 and "already rolled back" in urllib.parse.unquote_plus(h["location"])
    assert sample.run("MATCH (:Mention)-[r:REFERS_TO]->() WHERE r.run_id STARTS WITH $run RETURN count(r) AS n",
                      run=run)[0]["n"] == 0
    assert_one_refers_to_per_mention(sample)
