"""Every method of every resource, once with Parley and once with AsyncParley."""

from __future__ import annotations

import parley
from both import close, collect, done
from conftest import MakeClient, Project, Server, run


def test_dialogues(make_client: MakeClient) -> None:
    async def scenario() -> None:
        client = make_client()
        created = await done(
            client.dialogues.create(
                namespace="user-1",
                tags=["support"],
                metadata={"channel": "web"},
                state={"step": 1},
                messages=[{"role": "system", "content": "Be brief."}],
                message={"role": "user", "content": "My order never arrived"},
            )
        )
        id = created["id"]
        assert [m["content"] for m in created["messages"]] == ["Be brief.", "My order never arrived"]
        assert created["namespace"] == "user-1" and created["tags"] == ["support"]

        got = await done(client.dialogues.get(id, namespace="user-1", messages="first"))
        assert got["totalMessages"] == 2 and got["metadata"] == {"channel": "web"}

        updated = await done(
            client.dialogues.update(
                id,
                namespace="user-1",
                label="Lost order",
                tags=["support", "shipping"],
                state={"order": 1234},
                message={"role": "assistant", "content": [{"type": "text", "text": "Checking."}]},
            )
        )
        assert updated["label"] == "Lost order" and updated["state"] == {"step": 1, "order": 1234}
        assert updated["messages"][0]["content"] == [{"type": "text", "text": "Checking."}]
        cleared = await done(client.dialogues.update(id, namespace="user-1", label=None))
        assert cleared["label"] is None

        listed = await collect(client.dialogues.list(namespace="user-1", tag="shipping"))
        assert [d["id"] for d in listed] == [id]
        assert await collect(client.dialogues.list(namespace="someone-else")) == []

        context = await done(client.dialogues.context(id, namespace="user-1", format="messages", max_tokens=500))
        assert context["format"] == "messages" and context["messages"] is not None
        assert [m["content"] for m in context["messages"]][:2] == ["Be brief.", "My order never arrived"]

        compacted = await done(client.dialogues.compact(id, namespace="user-1"))
        assert compacted["summary"] is not None and compacted["summary"]["messageCount"] == 3

        ended = await done(client.dialogues.end(id, namespace="user-1"))
        assert ended["status"] == "ended"
        stated = await done(client.dialogues.set_state(id, {"step": None, "done": True}, namespace="user-1"))
        assert stated["state"] == {"order": 1234, "done": True}

        continued = await done(client.dialogues.continue_(id, namespace="user-1"))
        assert continued["id"] != id and continued["status"] == "active"

        deleted = await done(client.dialogues.delete(id, namespace="user-1"))
        assert deleted == {"success": True, "id": id}
        await close(client)

    run(scenario)


def test_messages(make_client: MakeClient) -> None:
    async def scenario() -> None:
        client = make_client()
        dialogue = await done(client.dialogues.create())
        first = await done(
            client.messages.create(
                dialogue_id=dialogue["id"],
                role="user",
                content="Hello",
                name="Ada",
                metadata={"lang": "en"},
                tags=["greeting"],
            )
        )
        assert first["name"] == "Ada" and first["contentLength"] == 5
        batch = await done(
            client.messages.create_many(
                dialogue_id=dialogue["id"],
                messages=[{"role": "assistant", "content": "Hi"}, {"role": "user", "content": {"ok": True}}],
            )
        )
        assert batch["totalMessages"] == 3 and [m["content"] for m in batch["items"]] == ["Hi", {"ok": True}]

        listed = await collect(client.messages.list(dialogue_id=dialogue["id"], order="desc"))
        assert [m["content"] for m in listed] == [{"ok": True}, "Hi", "Hello"]

        got = await done(client.messages.get(first["id"], dialogue_id=dialogue["id"]))
        assert got == {**first, "modified": got["modified"]}
        tagged = await done(client.messages.update(first["id"], dialogue_id=dialogue["id"], tags=["a", "b"]))
        assert tagged["tags"] == ["a", "b"] and tagged["content"] == "Hello"

        deleted = await done(client.messages.delete(first["id"], dialogue_id=dialogue["id"]))
        assert deleted == {"success": True, "id": first["id"], "dialogueId": dialogue["id"]}
        after = await done(client.dialogues.get(dialogue["id"]))
        assert after["totalMessages"] == 2
        await close(client)

    run(scenario)


def test_memories(make_client: MakeClient) -> None:
    async def scenario() -> None:
        client = make_client()
        memory = await done(
            client.memories.create(
                value={"likes": ["tea"], "since": 2**63},
                label="preferences",
                description="What the user likes",
                namespace="user-2",
                tags=["profile"],
                metadata={"source": "chat"},
            )
        )
        assert memory["value"] == {"likes": ["tea"], "since": 2**63}
        listed = await collect(client.memories.list(namespace="user-2", label="preferences", tag=["profile"]))
        assert [m["id"] for m in listed] == [memory["id"]]
        got = await done(client.memories.get(memory["id"], namespace="user-2"))
        assert got["description"] == "What the user likes"
        updated = await done(
            client.memories.update(memory["id"], namespace="user-2", tags=["x"], value="tea", description=None)
        )
        assert updated["value"] == "tea" and updated["tags"] == ["x"] and updated["description"] is None
        deleted = await done(client.memories.delete(memory["id"], namespace="user-2"))
        assert deleted == {"success": True, "id": memory["id"]}
        await close(client)

    run(scenario)


def test_summaries_and_search(make_client: MakeClient) -> None:
    async def scenario() -> None:
        client = make_client()
        dialogue = await done(
            client.dialogues.create(
                messages=[
                    {"role": "user", "content": "The parcel with the blue teapot was lost in transit"},
                    {"role": "assistant", "content": "We will send another teapot tomorrow"},
                ]
            )
        )
        summary = await done(client.summaries.create(dialogue_id=dialogue["id"], tags=["nightly"]))
        assert summary["dialogueId"] == dialogue["id"] and summary["tags"] == ["nightly"]
        listed = await collect(client.summaries.list(dialogue_id=dialogue["id"]))
        assert [s["id"] for s in listed] == [summary["id"]]
        got = await done(client.summaries.get(summary["id"]))
        assert got["id"] == summary["id"]

        found = await done(client.search("teapot", object="message", dialogue_id=dialogue["id"], limit=5))
        contents = [r["item"]["content"] for r in found["results"]]
        assert "We will send another teapot tomorrow" in contents
        assert all(r["object"] == "message" for r in found["results"])
        await close(client)

    run(scenario)


def test_event_feed(make_client: MakeClient) -> None:
    async def scenario() -> None:
        client = make_client()
        dialogue = await done(client.dialogues.create(message={"role": "user", "content": "one"}))
        await done(client.messages.create(dialogue_id=dialogue["id"], role="user", content="two"))
        events = await collect(client.events.list(dialogue_id=dialogue["id"], page_size=1))
        assert [e["type"] for e in events] == ["dialogue.created", "message.created", "message.created"]
        assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
        only = await collect(client.events.list(type="dialogue.*", after=0))
        assert [e["objectId"] for e in only] == [dialogue["id"]]
        await close(client)

    run(scenario)


def test_admin(mode: str, server: Server, project: Project) -> None:
    async def scenario() -> None:
        options = {"base_url": server.base_url, "admin_token": server.admin_token}
        client = parley.Parley(**options) if mode == "sync" else parley.AsyncParley(**options)
        created = await done(
            client.admin.create_project(name="admin-scenario", settings={"immutableDialogues": False})
        )
        id = created["project"]["id"]
        assert created["apiKey"].startswith("prly_")
        assert id in [p["id"] for p in await collect(client.admin.list_projects())]
        assert (await done(client.admin.get_project(id)))["name"] == "admin-scenario"
        renamed = await done(client.admin.update_project(id, name="renamed", settings={"monthlyWriteQuota": 1000}))
        assert renamed["name"] == "renamed" and renamed["settings"]["monthlyWriteQuota"] == 1000

        key = await done(client.admin.create_key(id))
        keys = await collect(client.admin.list_keys(id))
        assert {k["id"] for k in keys} == {created["keyId"], key["id"]}
        assert (await done(client.admin.revoke_key(id, key["id"]))) == {"success": True, "id": key["id"]}
        revoked = await done(client.admin.revoke_key_by_value(created["apiKey"]))
        assert revoked == {"success": True, "id": created["keyId"], "projectId": id}
        usage = await done(client.admin.usage(id))
        assert usage["projectId"] == id and usage["monthlyWriteQuota"] == 1000

        erased = await done(client.admin.erase_project(id))
        assert erased["success"] is True and erased["id"] == id
        assert erased["erasure"]["status"] == "completed"
        assert (await done(client.admin.get_project_erasure(erased["erasure"]["id"]))) == erased["erasure"]
        await close(client)

    run(scenario)
