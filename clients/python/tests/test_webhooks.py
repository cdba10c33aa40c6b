"""Webhook endpoints through both clients, and the signature check against real deliveries: Parley
POSTs to a receiver in this process and ``verify_webhook`` checks what arrived."""

from __future__ import annotations

import json
import time
from typing import Iterator

import pytest

from both import close, collect, done
from conftest import MakeClient, run
from parley import WebhookVerificationError, verify_webhook
from parley.webhooks import sign
from webhook_receiver import Delivery, WebhookReceiver


@pytest.fixture()
def receiver() -> Iterator[WebhookReceiver]:
    endpoint = WebhookReceiver()
    yield endpoint
    endpoint.close()


def _refused(delivery: Delivery, secret: str, **changes: object) -> None:
    body = changes.pop("body", delivery.body)
    headers = {**delivery.headers, **changes}
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, headers, secret)  # type: ignore[arg-type]


def test_webhooks_and_their_signatures(make_client: MakeClient, receiver: WebhookReceiver) -> None:
    async def scenario() -> None:
        client = make_client()
        hook = await done(client.webhooks.create(url=receiver.url, types=["message.*"], description="tests"))
        secret = hook["secret"]
        assert secret.startswith("whsec_")
        assert [h["id"] for h in await collect(client.webhooks.list())] == [hook["id"]]
        assert (await done(client.webhooks.get(hook["id"])))["description"] == "tests"
        updated = await done(client.webhooks.update(hook["id"], types=["message.created"], namespace=None))
        assert updated["types"] == ["message.created"] and updated["namespace"] is None

        pending = await done(client.webhooks.test(hook["id"]))
        assert pending["type"] == "webhook.test" and pending["status"] == "pending"
        tested = receiver.next()
        assert verify_webhook(tested.body, tested.headers, secret)["type"] == "webhook.test"

        dialogue = await done(client.dialogues.create())
        message = await done(
            client.messages.create(dialogue_id=dialogue["id"], role="user", content={"n": 2**63, "a": 1})
        )
        delivered = receiver.next()
        event = verify_webhook(delivered.body, delivered.headers, secret)
        assert event["type"] == "message.created" and event["objectId"] == message["id"]

        # What an attacker or a stale replay could send is refused.
        _refused(delivered, secret, body=delivered.body.replace(b'"a":1', b'"a":2'))
        _refused(delivered, "whsec_" + "A" * 32)
        _refused(delivered, secret, **{"webhook-id": "msg_forged"})
        timestamp = int(delivered.headers["webhook-timestamp"])
        with pytest.raises(WebhookVerificationError):
            verify_webhook(delivered.body, delivered.headers, secret, now=timestamp + 301)
        assert verify_webhook(delivered.body, delivered.headers, secret, now=timestamp + 299)["seq"] == event["seq"]
        missing = {k: v for k, v in delivered.headers.items() if k.lower() != "webhook-signature"}
        with pytest.raises(WebhookVerificationError):
            verify_webhook(delivered.body, missing, secret)

        rotated = await done(client.webhooks.rotate_secret(hook["id"]))
        assert rotated["secret"] != secret
        await done(client.webhooks.test(hook["id"]))
        after_rotation = receiver.next()
        for accepted in (rotated["secret"], secret, [secret, rotated["secret"]]):
            assert verify_webhook(after_rotation.body, after_rotation.headers, accepted)["type"] == "webhook.test"

        replay = await done(client.webhooks.replay(hook["id"], after=event["seq"] - 1))
        assert replay["queued"] >= 1
        replayed = receiver.next()
        assert replayed.headers["webhook-id"] == delivered.headers["webhook-id"]
        assert json.loads(replayed.body) == event
        verify_webhook(replayed.body, replayed.headers, rotated["secret"])

        log = await collect(client.webhooks.deliveries(hook["id"], page_size=2))
        assert {"webhook.test", "message.created"} <= {d["type"] for d in log}
        assert (await done(client.webhooks.delete(hook["id"]))) == {"success": True, "id": hook["id"]}
        await close(client)

    run(scenario)


def test_sign_matches_the_standard_webhooks_reference_vector() -> None:
    # The example of the Standard Webhooks specification and its libraries' tests.
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = '{"test": 2432232314}'
    assert sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body) == (
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    )
    headers = {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    }
    assert verify_webhook(body, headers, secret, now=1614265330) == {"test": 2432232314}
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, headers, secret, now=time.time())
