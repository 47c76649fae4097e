"""The bidding table says what ``bidbox explain`` says (issue 11): each call's meaning,
one forcing word, its denials as what the hand lacks, and each seat's knowledge as a
player states it. Expected texts come from the library, so the table cannot drift from
the CLI; the checks on the words themselves make sure the library's are the new ones."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

import bidbox
from bidbox.cli.main import format_explanation
from bidbox.engine.wording import constraint_words
from bidbox.rules.meaning import DEFAULT_CONTEXT
from bidbox.web.table import TableRequest, new_table

from .test_api import SBU, call, new

RANKS = "AKQJT98765432"


def deal_of(north: str, south: str) -> str:
    """A deal with these North and South hands; East and West share the rest by turns."""
    used = ["".join(pair) for pair in zip(north.split("."), south.split("."), strict=True)]
    rest = [(i, r) for i, suit in enumerate(used) for r in RANKS if r not in suit]
    east: list[list[str]] = [[], [], [], []]
    west: list[list[str]] = [[], [], [], []]
    for k, (i, r) in enumerate(rest):
        (east if k % 2 == 0 else west)[i].append(r)
    return " ".join(["N:" + north, ".".join(map("".join, east)), south,
                     ".".join(map("".join, west))])


# North opens 1S (14 HCP, five spades); South, the person, has a four-card raise.
ONE_SPADE = deal_of("AKJ52.K4.Q8.J732", "Q843.J752.K4.965")


def test_each_call_reads_as_explain_prints_it(client: TestClient) -> None:
    table = call(client, new(client, deal=ONE_SPADE), "2S")
    expected = SBU.explain(table["auction"])
    assert [c["call"] for c in table["calls"]][:3] == ["1S", "P", "2S"]
    printed = format_explanation(expected)
    for row, want in zip(table["calls"], expected, strict=True):
        assert row["meaning"] == want.meaning
        assert row["denies_text"] == list(want.denial_words)
        for said in want.denial_words:  # the CLI prints the same words (wrapped)
            assert said.split()[-1] in printed
    opening = table["calls"][0]
    # what the opening lacks, in words; never the calls it denies, never a count of them
    assert opening["denies_text"][0] == "denies 12-14 HCP, balanced"
    assert not any(re.search(r"\b(1NT|2NT|2C|more calls?)\b", d)
                   for d in opening["denies_text"])
    # one forcing word: the column explain prints, empty when the meaning says it
    assert opening["forcing_text"] == "non-forcing"
    assert table["calls"][2]["forcing_text"] == "non-forcing"


def test_forcing_is_not_said_twice(client: TestClient) -> None:
    # 1NT P 2NT: "11-12 balanced, invitational" already says it
    hands = deal_of("KJ4.Q74.AJ62.K83", "Q53.K63.KQ7.J542")  # 1NT, and 11 HCP opposite
    table = call(client, new(client, deal=hands), "2NT")
    invite = table["calls"][2]
    assert invite["forcing"] == "inv"
    assert ("invitational" in invite["meaning"]) == (invite["forcing_text"] == "")


def test_knowledge_is_stated_as_explain_states_it(client: TestClient) -> None:
    table = call(client, new(client, deal=ONE_SPADE), "2S")
    known = client.get(f"/api/tables/{table['id']}/knowledge").json()
    expected = SBU.explain(table["auction"])
    for seat, facts in known["knowledge"].items():
        assert facts["text"] == expected.knowledge[bidbox.Seat.parse(seat)].summary()
    assert known["partnerships"] == {str(s): t for s, t in expected.partnerships.items()}
    assert "8+ spades" in known["partnerships"]["NS"]
    assert known["knowledge"]["S"]["text"].startswith("6-9 HCP")
    # no sampled maximum, no "0-37" for a silent seat
    assert not any("0-37" in f["text"] for f in known["knowledge"].values())


def test_preview_and_review_say_it_in_words(client: TestClient) -> None:
    table = new(client, deal=ONE_SPADE)
    preview = client.get(f"/api/tables/{table['id']}/preview", params={"call": "2S"}).json()
    expected = SBU.explain("1S P 2S")[2]
    assert preview["denies_text"] == list(expected.denial_words)
    assert preview["forcing_text"] == "non-forcing"
    # a call the system would not make: the review says what it shows in words (read
    # from the table itself: the review's double dummy is not what is tested here)
    played = new_table(TableRequest(deal=ONE_SPADE, dealer="N", vul="none", seat="S"))
    played.make_call("4S")
    [mine] = played._your_calls(played.auction())
    assert not mine["agrees"] and mine["shows_text"]
    assert "hcp" not in mine["shows_text"] and mine["shows_text"] in mine["why"]


def test_the_tree_gives_the_meaning_a_player_reads(client: TestClient) -> None:
    node = client.get("/api/systems/sbu-level1/tree", params={"path": ""}).json()
    one_spade = next(c for c in node["calls"] if c["call"] == "1S")
    entry = next(e for e in SBU.compiled.root.ordered() if str(e.call) == "1S")
    assert one_spade["shows_text"] == constraint_words(entry.shown, DEFAULT_CONTEXT)
    assert "4+ spades" in one_spade["shows_text"]  # words, not the system language
    assert one_spade["meaning"] == SBU.explain("1S")[0].meaning
