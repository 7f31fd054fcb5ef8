"""Settings conformance: string values by key, the last write wins, no graph change."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_data import texts

from groundgraph.store import ChangeLog, Settings

REQUIRES = (Settings,)


def test_a_setting_round_trips_and_the_last_write_wins(store):
    assert store.settings.get_setting("language") is None
    store.settings.set_setting("language", "english")
    store.settings.set_setting("other", "")
    assert store.settings.get_setting("language") == "english"
    store.settings.set_setting("language", "français")
    assert store.settings.get_setting("language") == "français"
    assert store.settings.get_setting("other") == ""


def test_a_setting_is_not_a_graph_change(store):
    store.settings.set_setting("language", "english")
    if isinstance(store, ChangeLog):
        assert store.changes.generation() == 0 and store.changes.changed_documents(0) == []


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["k1", "k2", "ключ"]), texts), max_size=8))
def test_settings_keep_the_last_value_of_each_key(new_store, writes):
    store = new_store()
    for key, value in writes:
        store.settings.set_setting(key, value)
    for key, value in dict(writes).items():
        assert store.settings.get_setting(key) == value
