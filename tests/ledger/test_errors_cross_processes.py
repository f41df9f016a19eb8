"""An error a worker process hands back (import's and verify's workers) reads as it did in the worker."""

from __future__ import annotations

import pickle

from chronicle.ledger.store.mapper import AGGREGATE, UnknownTopic


def test_an_unknown_topic_from_a_worker_names_the_topic_once():
    raised = UnknownTopic("chronicle.domain.adnd2e.events:Nothing", AGGREGATE)
    received = pickle.loads(pickle.dumps(raised))
    assert str(received) == str(raised)
    assert str(received).count("the ledger holds") == 1
    assert (received.topic, received.kind, received.code) == (raised.topic, AGGREGATE, "unknown_event")
