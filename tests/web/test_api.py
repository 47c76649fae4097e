"""The bidding table's JSON API: every endpoint, and every bad request answered 4xx with a
reason and nothing stored changed. Expected calls come from the Python API directly, so the
web app is checked against the library it must agree with, not against itself."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import bidbox
from bidbox.api import parse_deal
from bidbox.evaluate import evaluate_hand
from bidbox.sim.deals import deal_boards, write_pbn_boards
from bidbox.sim.double_dummy import full_tables
from bidbox.web.app import create_app

from .conftest import DEAL

SBU = bidbox.load_system("sbu-level1")


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    body = {"deal": DEAL, "dealer": "N", "vul": "none", "seat": "S", **body}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def call(client: TestClient, table: dict[str, Any], text: str) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table['id']}/calls", json={"call": text})
    assert response.status_code == 200, response.text
    return response.json()


def robot_calls(deal: str, calls: list[str], dealer: str = "N") -> list[str]:
    """What the library bids for every seat but South, the person playing `calls` there."""
    hands = parse_deal(deal)
    auction = bidbox.Auction.parse("", bidbox.Seat.parse(dealer))
    mine = iter(calls)
    while not auction.is_ended:
        seat = auction.next_seat
        if seat is bidbox.Seat.S:
            nxt = next(mine, None)
            if nxt is None:
                break
            auction = auction.add(nxt)
        else:
            auction = auction.add(SBU.bid(hands[seat], auction).call)
    return [str(c) for c in auction.calls]


# --- systems and a new table ------------------------------------------------------------
def test_systems_lists_the_shipped_systems_with_options(client: TestClient) -> None:
    systems = {s["name"]: s for s in client.get("/api/systems").json()}
    assert {"sbu-level1", "tosr"} <= set(systems)
    assert "weak-twos" in {o["name"] for o in systems["sbu-level1"]["options"]}


def test_new_table_robots_bid_to_the_persons_turn(client: TestClient) -> None:
    table = new(client)
    assert [c["call"] for c in table["calls"]] == robot_calls(DEAL, [])
    assert table["your_turn"] and table["next_seat"] == "S"
    assert table["hand"] == "AQ53.AK63.T7.J54"
    assert table["hands"] is None  # the other hands stay hidden until the end
    assert table["legal_calls"][0] == "P" and "2C" in table["legal_calls"]
    assert "1NT" not in table["legal_calls"]  # insufficient after 1NT
    opening = table["calls"][0]
    assert opening["by"] == "robot" and opening["source"] == "system"
    assert opening["meaning"] == SBU.bid(parse_deal(DEAL)[bidbox.Seat.N], "").meaning
    assert "sbu-level1.bbx" in opening["reason"]


def test_a_call_is_explained_and_answered_by_the_robots(client: TestClient) -> None:
    table = call(client, new(client), "2C")
    assert [c["call"] for c in table["calls"]] == robot_calls(DEAL, ["2C"])
    stayman = table["calls"][2]
    expected = SBU.explain("1NT P 2C")[2]
    assert stayman["by"] == "you"
    assert (stayman["meaning"], stayman["alert"], stayman["alert_rule"]) == (
        expected.meaning, True, expected.alert_rule)
    assert stayman["forcing"] == "f1"
    # the state read back is the same as the answer to the call
    assert client.get(f"/api/tables/{table['id']}").json() == table


def test_preview_shows_alert_and_stop_card_before_the_call(client: TestClient) -> None:
    table = new(client)
    stayman = client.get(f"/api/tables/{table['id']}/preview", params={"call": "2C"}).json()
    assert stayman["alert"] is True and stayman["stop_card"] is False
    jump = client.get(f"/api/tables/{table['id']}/preview", params={"call": "3NT"}).json()
    assert jump["stop_card"] is True
    # a preview changes nothing
    assert client.get(f"/api/tables/{table['id']}").json()["calls"] == table["calls"]


# --- bad requests: 4xx with a reason, nothing stored changed ---------------------------
def assert_unchanged(client: TestClient, table: dict[str, Any]) -> None:
    assert client.get(f"/api/tables/{table['id']}").json() == table


def test_an_illegal_call_is_refused_with_the_reason(client: TestClient) -> None:
    table = new(client)
    response = client.post(f"/api/tables/{table['id']}/calls", json={"call": "1C"})
    assert response.status_code == 400
    assert "insufficient" in response.json()["detail"]
    response = client.post(f"/api/tables/{table['id']}/calls", json={"call": "XX"})
    assert response.status_code == 400 and "XX" in response.json()["detail"]
    response = client.post(f"/api/tables/{table['id']}/calls", json={"call": "8C"})
    assert response.status_code == 400 and "8C" in response.json()["detail"]
    assert_unchanged(client, table)


def test_a_call_out_of_turn_is_refused(client: TestClient) -> None:
    table = new(client)
    response = client.post(f"/api/tables/{table['id']}/calls", json={"call": "P", "seat": "W"})
    assert response.status_code == 409
    assert "out of turn" in response.json()["detail"] and "S" in response.json()["detail"]
    assert_unchanged(client, table)


def test_no_call_after_the_auction_has_ended(client: TestClient) -> None:
    table = call(client, new(client), "3NT")
    assert table["ended"] and table["contract"] == "3NT" and table["declarer"] == "N"
    assert table["hands"]["N"] == "KJ4.Q74.AJ62.K83"
    response = client.post(f"/api/tables/{table['id']}/calls", json={"call": "P"})
    assert response.status_code == 409 and "ended" in response.json()["detail"]
    assert_unchanged(client, table)


@pytest.mark.parametrize(("body", "words"), [
    ({"system": "sbu-levl1"}, ["unknown system", "sbu-level1"]),
    ({"opponents": "nosuch"}, ["unknown system"]),
    ({"system": "/etc/passwd.bbx"}, ["only shipped systems"]),
    ({"options": ["no-such-option"]}, ["no-such-option"]),
    ({"seat": "Q"}, ["seat"]),
    ({"vul": "sideways"}, ["sideways"]),
    ({"deal": "N:AKQ.J54.T9.8765 - - -"}, ["deal"]),
    ({"deal": None, "constraint": "hcp 15-17,, balanced"}, ["constraint"]),
    ({"deal": None, "constraint": "opener"}, ["opener", "not a measure"]),
    ({"deal": None, "reach": "1NT 1C"}, ["reach", "insufficient"]),
    ({"deal": None, "pbn": "this is not a PBN file"}, ["pbn"]),
])
def test_bad_new_tables_are_refused_and_nothing_is_stored(
        client: TestClient, body: dict[str, Any], words: list[str]) -> None:
    response = client.post("/api/tables", json={"deal": DEAL, **body})
    assert response.status_code == 400, response.text
    detail = response.json()["detail"]
    for word in words:
        assert word in detail
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize("payload", ["{not json", '{"call": 3}', '{"call": "P", "x": 1}', "[]"])
def test_malformed_bodies_are_422(client: TestClient, payload: str) -> None:
    table = new(client)
    response = client.post(f"/api/tables/{table['id']}/calls", content=payload,
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"]
    assert_unchanged(client, table)


def test_an_unknown_table_and_another_sessions_table_are_404(db_path: Path) -> None:
    app = create_app(db_path)
    with TestClient(app) as alice, TestClient(app) as bob:
        table = new(alice)
        assert alice.get(f"/api/tables/{table['id']}").status_code == 200
        for path in ("", "/review", "/pbn", "/lin", "/knowledge", "/preview?call=P"):
            response = bob.get(f"/api/tables/{table['id']}{path}")
            assert response.status_code == 404, path
            assert "no table" in response.json()["detail"]
        assert bob.post(f"/api/tables/{table['id']}/calls", json={"call": "P"}).status_code == 404
        assert bob.post(f"/api/tables/{table['id']}/undo").status_code == 404
        assert bob.get("/api/tables").json() == []
        assert bob.get("/api/history.pbn").status_code == 404
        assert bob.get("/api/history.lin").status_code == 404
        assert alice.get("/api/tables/nosuchtable").status_code == 404
        assert_unchanged(alice, table)


# --- undo, review, export, resume ----------------------------------------------------
def test_undo_takes_back_the_persons_call_and_the_replies(client: TestClient) -> None:
    start = new(client)
    response = client.post(f"/api/tables/{start['id']}/undo")
    assert response.status_code == 409 and "nothing to undo" in response.json()["detail"]
    after = call(client, start, "2C")
    assert len(after["calls"]) > len(start["calls"])
    undone = client.post(f"/api/tables/{start['id']}/undo").json()
    assert undone["calls"] == start["calls"] and undone["your_turn"]


def test_review_compares_with_the_system_and_the_robots_table(client: TestClient) -> None:
    table = new(client)
    response = client.get(f"/api/tables/{table['id']}/review")
    assert response.status_code == 409 and "ended" in response.json()["detail"]
    table = call(client, call(client, table, "2C"), "2NT")  # the system: 3NT (14 HCP)
    while not table["ended"]:
        table = call(client, table, "P")
    review = client.get(f"/api/tables/{table['id']}/review").json()
    [tricks], pars = full_tables([DEAL], [bidbox.Seat.N], [bidbox.Vulnerability.NONE])
    strains = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}
    for strain, seats in review["double_dummy"].items():
        for seat, won in seats.items():
            assert won == tricks[strains[strain], "NESW".index(seat)]
    assert review["par"]["score"] == pars[0].ns_score  # South is North-South
    contract = review["table"]
    assert contract["contract"] == table["contract"]
    assert contract["tricks"] == tricks[strains[contract["contract"][1:]],
                                        "NESW".index(contract["declarer"])]
    [robots] = SBU.bid_deals([DEAL], "N", "none")
    assert review["robot_table"]["auction"] == str(robots)
    expected_imps = bidbox_imps(contract["score"] - review["robot_table"]["score"])
    assert review["imps"] == expected_imps
    mine = {c["call"]: c for c in review["your_calls"]}
    assert mine["2C"]["agrees"]
    wrong = mine["2NT"]
    assert not wrong["agrees"] and wrong["system_call"] == "3NT"
    assert wrong["hand_fits"] is False
    assert evaluate_hand(bidbox.Hand.parse(table["hand"]))["hcp"] == 14
    assert "does not hold" in wrong["why"] and "3NT" in wrong["why"]


def bidbox_imps(difference: int) -> int:
    from bidbox.sim.scoring import imps

    return imps(difference)


def test_pbn_export_reads_back_with_alert_notes(client: TestClient) -> None:
    from endplay.parsers import pbn

    table = call(client, call(client, new(client), "2C"), "3NT")
    client.get(f"/api/tables/{table['id']}/review")
    text = client.get(f"/api/tables/{table['id']}/pbn").text
    [board] = pbn.load(StringIO(text))
    assert board.deal.to_pbn() == DEAL
    assert [str(b) for b in board.auction] == [str(b) for b in pbn.loads(
        text)[0].auction]
    calls = table["auction"].split()
    assert len(board.auction) == len(calls)
    stayman = board.auction[2]
    assert stayman.alertable and "Stayman" in stayman.announcement
    assert '[Contract "3NT"]' in text and '[South "you"]' in text
    second = new(client)
    session = pbn.load(StringIO(client.get("/api/history.pbn").text))
    assert len(session) == 2 and second["id"] != table["id"]


def test_history_lists_the_sessions_tables_to_resume(client: TestClient) -> None:
    first = call(client, new(client), "2C")
    second = new(client, seat="N", dealer="E")
    rows = client.get("/api/tables").json()
    assert [r["id"] for r in rows] == [second["id"], first["id"]]
    assert rows[1]["auction"] == first["auction"] and not rows[1]["ended"]
    assert client.get(f"/api/tables/{first['id']}").json() == first


def test_resume_after_a_restart(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as before:
        table = call(before, new(before), "2C")
        cookie = before.cookies.get("bidbox_session")
    with TestClient(create_app(db_path), cookies={"bidbox_session": cookie}) as after:
        assert after.get(f"/api/tables/{table['id']}").json() == table
        assert call(after, table, "3NT")["ended"]


# --- deals ------------------------------------------------------------------------------
def test_a_random_deal_follows_the_board_cycle(client: TestClient) -> None:
    first = client.post("/api/tables", json={"seed": 7}).json()
    second = client.post("/api/tables", json={"seed": 7}).json()
    assert (first["board"], first["dealer"], first["vul"]) == (1, "N", "none")
    assert (second["board"], second["dealer"], second["vul"]) == (2, "E", "ns")
    hands = bidbox.deal_batch(1, 7)
    assert first["hand"] in {hands.hand(0, s).pbn() for s in bidbox.Seat}


def test_a_constraint_deals_the_person_a_fitting_hand(client: TestClient) -> None:
    for seed in (1, 2, 3):
        table = client.post("/api/tables", json={"seed": seed, "seat": "E",
                                                 "constraint": "hcp 15-17, balanced"}).json()
        measures = evaluate_hand(bidbox.Hand.parse(table["hand"]))
        assert 15 <= measures["hcp"] <= 17 and measures["balanced"]
        assert "hcp 15-17, balanced" in table["origin"]


def test_reach_deals_a_board_whose_auction_begins_there(client: TestClient) -> None:
    table = client.post("/api/tables", json={"seed": 4, "dealer": "N", "reach": "1NT P",
                                             "constraint": "hcp 11+, 4+H"}).json()
    assert table["auction"].startswith("1NT P")
    assert evaluate_hand(bidbox.Hand.parse(table["hand"]))["hcp"] >= 11


def test_a_board_from_a_pbn_file_keeps_its_dealer_and_vulnerability(
        client: TestClient, tmp_path: Path) -> None:
    path = tmp_path / "boards.pbn"
    boards = deal_boards(3, 11)
    write_pbn_boards(boards, path)
    table = client.post("/api/tables", json={"pbn": path.read_text(), "board": 2,
                                             "seat": "W"}).json()
    assert (table["board"], table["dealer"], table["vul"]) == (2, "E", "ns")
    assert table["hand"] == boards.deals().hand(1, bidbox.Seat.W).pbn()
    response = client.post("/api/tables", json={"pbn": path.read_text(), "board": 9})
    assert response.status_code == 400 and "no board 9" in response.json()["detail"]


def test_a_board_from_a_vugraph_lin_file(client: TestClient, tmp_path: Path) -> None:
    """A vugraph record (both rooms of a match) is a board file too: its deal, dealer and
    vulnerability, as a PBN file of the same boards gives them."""
    path = tmp_path / "boards.pbn"
    boards = deal_boards(3, 11)
    write_pbn_boards(boards, path)
    lines = ["vg|t,1,I,1,3,A,0,B,0|", "pn|a,b,c,d,e,f,g,h|"]
    for i in range(3):
        hands = {s: boards.deals().hand(i, s) for s in bidbox.Seat}
        md = ",".join("".join(f"{suit}{cards}" for suit, cards in zip(
            "SHDC", hands[s].pbn().split("."), strict=True))
            for s in (bidbox.Seat.S, bidbox.Seat.W, bidbox.Seat.N, bidbox.Seat.E))
        digit = "3412"[int(boards.dealers[i])]
        vul = {"none": "o", "ns": "n", "ew": "e", "both": "b"}[boards.vul(i).value]
        for room in "oc":
            lines.append(f"qx|{room}{i + 1}|md|{digit}{md}|sv|{vul}|mb|p|pg||")
    for board in (2, 3):  # vulnerable north-south, east-west
        from_pbn = client.post("/api/tables", json={"pbn": path.read_text(), "board": board,
                                                    "seat": "W"}).json()
        from_lin = client.post("/api/tables", json={"pbn": "\n".join(lines), "board": board,
                                                    "seat": "W"}).json()
        assert (from_lin["board"], from_lin["dealer"], from_lin["vul"], from_lin["hand"]) == (
            from_pbn["board"], from_pbn["dealer"], from_pbn["vul"], from_pbn["hand"])


def test_the_page_has_the_bidding_box_and_its_script(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="box"' in page.text and "table.js" in page.text
    assert '<option value="sbu-level1"' in page.text
    assert client.get("/static/table.js").status_code == 200
    assert "/api/tables" in client.get("/openapi.json").json()["paths"]


def test_knowledge_is_what_explain_measures(client: TestClient) -> None:
    table = call(client, new(client), "2C")
    known = client.get(f"/api/tables/{table['id']}/knowledge").json()
    expected = SBU.explain(table["auction"]).to_json()["knowledge"]
    assert known["auction"] == table["auction"] and known["knowledge"] == expected
    assert known["knowledge"]["N"]["hcp"] == [12, 14]
    assert client.get("/api/tables/nosuch/knowledge").status_code == 404


# --- the system browser and the reports -------------------------------------------------
def test_the_tree_shows_each_node_with_meanings_alerts_and_sample_hands(
        client: TestClient) -> None:
    root = client.get("/api/systems/sbu-level1/tree").json()
    assert root["path"] == "" and root["up"] is None
    opening = {c["call"]: c for c in root["calls"]}["1NT"]
    assert opening["meaning"] == SBU.bid(parse_deal(DEAL)[bidbox.Seat.N], "").meaning
    assert opening["path"] == "1NT" and opening["continues"]
    node = client.get("/api/systems/sbu-level1/tree", params={"path": "1NT"}).json()
    assert node["up"] == "" and node["auction"] == "1NT P"
    stayman = {c["call"]: c for c in node["calls"]}["2C"]
    assert stayman["seat"] == "S" and stayman["alert"] is True
    assert stayman["practise"] == {"reach": "1NT P 2C", "seat": "S", "dealer": "N"}
    # the sample hand is one the system bids 2C with after 1NT P
    assert str(SBU.bid(stayman["sample_hand"], "1NT P").call) == "2C"
    answers = client.get("/api/systems/sbu-level1/tree", params={"path": "1NT 2C"}).json()
    for row in answers["calls"]:
        if row["sample_hand"] and row["call"] != "P":
            hand = bidbox.Hand.parse(row["sample_hand"])
            assert 12 <= evaluate_hand(hand)["hcp"] <= 14  # opener's 1NT still holds
    interference = {o["call"] for o in node["opponents"]}
    assert {"X", "2C", "2H"} <= interference  # wildcards come as the calls they stand for
    their = {o["call"]: o for o in root["opponents"]}["1H"]
    overcalls = client.get("/api/systems/sbu-level1/tree", params={"path": their["path"]})
    assert overcalls.json()["calls"][0]["seat"] == "E"


@pytest.mark.parametrize(("url", "words"), [
    ("/api/systems/sbu-level1/tree?path=1NT%209C", ["not a node", "1NT"]),
    ("/api/systems/sbu-levl1/tree", ["unknown system"]),
    ("/api/systems/sbu-level1/tree?option=nosuch", ["nosuch"]),
    ("/api/systems/sbu-level1/check?option=nosuch", ["nosuch"]),
])
def test_bad_tree_requests_are_400(client: TestClient, url: str, words: list[str]) -> None:
    response = client.get(url)
    assert response.status_code == 400
    for word in words:
        assert word in response.json()["detail"]


def test_the_reports_are_what_check_and_lint_say(client: TestClient) -> None:
    report = client.get("/api/systems/sbu-level1/check").json()
    assert report["verdict"] == SBU.check().verdict == 1
    weak = client.get("/api/systems/sbu-level1/check", params={"option": "weak-twos"}).json()
    assert weak["verdict"] == 2
    lint = client.get("/api/systems/sbu-level1/lint").json()
    assert len(lint["findings"]) == len(SBU.lint())


def test_lin_export_reads_back(client: TestClient) -> None:
    from endplay.parsers import lin

    table = call(client, call(client, new(client), "2C"), "3NT")
    [board] = lin.loads(client.get(f"/api/tables/{table['id']}/lin").text)
    assert board.deal.to_pbn() == DEAL
    assert len(board.auction) == len(table["auction"].split())
    assert board.auction[2].alertable and "Stayman" in board.auction[2].announcement
    new(client)
    assert len(lin.loads(client.get("/api/history.lin").text)) == 2


def test_a_warmed_server_answers_as_a_cold_one(db_path: Path, tmp_path: Path) -> None:
    """``serve`` warms its caches at start-up (``table.warm_up``, issue 11: the first
    table of a new process waited about 1.5 s for them); warming changes no answer."""
    from bidbox.web import table as tables

    body = {"system": "tosr", "deal": DEAL, "dealer": "N", "seat": "S"}
    with TestClient(create_app(db_path)) as cold:
        want = cold.post("/api/tables", json=body).json()
        want = call(cold, want, "P")
    started: list[tuple[str, ...]] = []
    real = tables.warm_up

    def spy(names: tuple[str, ...]) -> None:
        started.append(tuple(names))
        real(names)

    import bidbox.web.app as app_module

    app_module.warm_up = spy  # type: ignore[assignment]
    try:
        with TestClient(create_app(tmp_path / "warm.sqlite", warm=True)) as warm:
            assert started == [app_module.WARM_SYSTEMS]  # it ran before the first request
            got = warm.post("/api/tables", json=body).json()
            got = call(warm, got, "P")
    finally:
        app_module.warm_up = real
    assert {**got, "id": None} == {**want, "id": None}
