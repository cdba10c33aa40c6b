"""What the clients do beyond one call: paging, retries, idempotency, the live stream, exact
content, errors and configuration; each with Parley and with AsyncParley."""

from __future__ import annotations

import re
from typing import Iterator

import pytest

import parley
from both import close, collect, done, next_of
from conftest import MakeClient, Project, Server, run
from tcp_proxy import TcpProxy


@pytest.fixture()
def proxy(server: Server) -> Iterator[TcpProxy]:
    front = TcpProxy(server.base_url)
    yield front
    front.close()


def test_list_follows_next_across_three_pages(make_client: MakeClient, proxy: TcpProxy) -> None:
    async def scenario() -> None:
        client = make_client(base_url=proxy.base_url)
        dialogue = await done(client.dialogues.create())
        sent = [{"role": "user", "content": f"message {n}"} for n in range(5)]
        await done(client.messages.create_many(dialogue_id=dialogue["id"], messages=sent))

        listed = await collect(client.messages.list(dialogue_id=dialogue["id"], page_size=2))
        assert [m["content"] for m in listed] == [m["content"] for m in sent]
        pages = [r for r in proxy.requests() if r.startswith("GET /api/v1/messages?")]
        assert len(pages) == 3
        assert "next=" not in pages[0].split("\r\n")[0]
        assert all("next=" in page.split("\r\n")[0] for page in pages[1:])
        await close(client)

    run(scenario)


def test_429_is_retried_after_retry_after(mode: str, admin: parley.Parley, server: Server, proxy: TcpProxy) -> None:
    limited = admin.admin.create_project(
        name="rate-limited", settings={"rateLimit": {"max": 1, "windowSeconds": 1}}
    )

    async def scenario() -> None:
        options = {"base_url": proxy.base_url, "api_key": limited["apiKey"]}
        client = parley.Parley(**options) if mode == "sync" else parley.AsyncParley(**options)
        for _ in range(3):
            assert await collect(client.dialogues.list()) == []
        assert 429 in proxy.statuses, "the server never refused: the limit was not reached"
        assert proxy.statuses.count(200) == 3

        impatient = (
            parley.Parley(max_retries=0, **options)
            if mode == "sync"
            else parley.AsyncParley(max_retries=0, **options)
        )
        with pytest.raises(parley.ParleyError) as refused:
            for _ in range(3):
                await collect(impatient.dialogues.list())
        assert refused.value.status == 429 and refused.value.code == "RATE_LIMIT_EXCEEDED"
        assert refused.value.type == "rate_limit_exceeded"
        await close(client)
        await close(impatient)

    run(scenario)


def test_a_create_whose_answer_is_lost_is_retried_and_stored_once(make_client: MakeClient, proxy: TcpProxy) -> None:
    async def scenario() -> None:
        client = make_client(base_url=proxy.base_url)
        dialogue = await done(client.dialogues.create())
        proxy.drop_next_answer()
        message = await done(client.messages.create(dialogue_id=dialogue["id"], role="user", content="once"))
        assert proxy.dropped == 1

        creates = [r for r in proxy.requests() if r.startswith("POST /api/v1/message ")]
        keys = [re.search(r"(?im)^idempotency-key: (.+)\r$", r) for r in creates]
        assert len(creates) == 2 and keys[0] and keys[1] and keys[0].group(1) == keys[1].group(1)
        stored = await collect(client.messages.list(dialogue_id=dialogue["id"]))
        assert [m["id"] for m in stored] == [message["id"]]
        await close(client)

    run(scenario)


def test_a_busy_answer_is_retried_with_the_same_idempotency_key(make_client: MakeClient, proxy: TcpProxy) -> None:
    async def scenario() -> None:
        client = make_client(base_url=proxy.base_url)
        proxy.refuse_next_request(503, "Service Unavailable", "0")
        memory = await done(client.memories.create(value="kept once", label="busy"))
        creates = [r for r in proxy.requests() if r.startswith("POST /api/v1/memory ")]
        keys = {re.search(r"(?im)^idempotency-key: (.+)\r$", r).group(1) for r in creates}  # type: ignore[union-attr]
        assert len(creates) == 2 and len(keys) == 1
        stored = await collect(client.memories.list(label="busy"))
        assert [m["id"] for m in stored] == [memory["id"]]
        await close(client)

    run(scenario)


def test_the_stream_resumes_after_a_dropped_connection(make_client: MakeClient, proxy: TcpProxy) -> None:
    async def scenario() -> None:
        direct = make_client()
        through_proxy = make_client(base_url=proxy.base_url)
        dialogue = await done(direct.dialogues.create())
        start = (await collect(direct.events.list(dialogue_id=dialogue["id"])))[-1]["seq"]
        stream = through_proxy.events.stream(after=start, dialogue_id=dialogue["id"], type="message.created")

        first = await done(direct.messages.create(dialogue_id=dialogue["id"], role="user", content="before"))
        received = [await next_of(stream)]
        proxy.cut()
        later = [
            await done(direct.messages.create(dialogue_id=dialogue["id"], role="user", content=text))
            for text in ("after 1", "after 2")
        ]
        received += [await next_of(stream), await next_of(stream)]
        await close(stream)

        assert [e["objectId"] for e in received] == [first["id"], *(m["id"] for m in later)]
        streams = [r for r in proxy.requests() if r.startswith("GET /api/v1/events/stream")]
        assert len(streams) == 2
        assert re.search(rf"(?im)^last-event-id: {received[0]['seq']}\r$", streams[1])
        await close(direct)
        await close(through_proxy)

    run(scenario)


def test_content_round_trips_exactly(make_client: MakeClient) -> None:
    content = {"z": 2**63, "a": [-(2**64), 1.5, 0], "10": {"b": None, "a": "é\u2028"}, "": True, "1": 1}

    async def scenario() -> None:
        client = make_client()
        dialogue = await done(client.dialogues.create())
        created = await done(client.messages.create(dialogue_id=dialogue["id"], role="tool", content=content))
        got = await done(client.messages.get(created["id"], dialogue_id=dialogue["id"]))
        listed = await collect(client.messages.list(dialogue_id=dialogue["id"]))
        for returned in (created["content"], got["content"], listed[0]["content"]):
            assert returned == content
            assert list(returned) == ["z", "a", "10", "", "1"]
            assert list(returned["10"]) == ["b", "a"]
            assert type(returned["z"]) is int and type(returned["a"][0]) is int
        await close(client)

    run(scenario)


def test_errors_carry_the_envelope(make_client: MakeClient) -> None:
    async def scenario() -> None:
        client = make_client()
        with pytest.raises(parley.ParleyError) as missing:
            await done(client.dialogues.get("dlg_missing"))
        error = missing.value
        assert (error.status, error.code, error.type) == (404, "DIALOGUE_NOT_FOUND", "not_found")
        assert error.request_id and error.request_id.startswith("req_")
        assert error.envelope is not None and error.envelope["error"]["requestId"] == error.request_id

        with pytest.raises(parley.ParleyError) as invalid:
            await done(client.search("ab"))
        assert invalid.value.status == 400 and invalid.value.details
        assert {"field", "code", "message"} <= set(invalid.value.details[0])

        unauthorized = make_client(api_key="prly_not-a-key", max_retries=0)
        with pytest.raises(parley.ParleyError) as refused:
            await collect(unauthorized.dialogues.list())
        assert refused.value.status == 401 and refused.value.type == "authentication_error"
        with pytest.raises(parley.ParleyError) as stream_refused:
            await next_of(unauthorized.events.stream())
        assert stream_refused.value.status == 401
        await close(client)
        await close(unauthorized)

    run(scenario)


def test_settings_come_from_the_environment(
    mode: str, server: Server, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLEY_BASE_URL", server.base_url + "/")
    monkeypatch.setenv("PARLEY_API_KEY", project.api_key)

    async def scenario() -> None:
        if mode == "sync":
            with parley.Parley() as client:
                created = client.dialogues.create(tags=["from-env"])
        else:
            async with parley.AsyncParley() as async_client:
                created = await async_client.dialogues.create(tags=["from-env"])
        assert created["projectId"] == project.id

    run(scenario)
