// The event feed (GET /events): one event per change of a lead, contact or conversation, made
// through the API or `leadline import`, with its data, previous_attributes on updates, oldest
// first, filtered by type and resumed with `after`; one event by id; workspace isolation.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

#include "support/webhook_fixture.hpp"

namespace leadline_test {
namespace {

class EventsTest : public WebhookApiTest {
 protected:
  // The conversation's list item (what conversation events carry as data).
  json::object conversation_item(const std::string& id) {
    for (const auto& c : list_all("conversations")) {
      if (c.as_object().at("id") == json::value(id)) return c.as_object();
    }
    throw std::runtime_error("no conversation " + id + " in the list");
  }

  std::vector<std::string> types_of(const json::array& events) {
    std::vector<std::string> out;
    for (const auto& e : events) out.push_back(str(e.as_object().at("type")));
    return out;
  }
};

const KeySet kEventKeys = {"id", "type", "timestamp", "data"};
const KeySet kUpdateEventKeys = {"id", "type", "timestamp", "data", "previous_attributes"};

// The common shape of an event of this type with this data, made just now.
void expect_event(const json::value& event, const std::string& type, const json::value& data) {
  SCOPED_TRACE(json::serialize(event));
  ASSERT_TRUE(event.is_object());
  const auto& e = event.as_object();
  EXPECT_EQ(keys_of(e), type.ends_with(".updated") ? kUpdateEventKeys : kEventKeys);
  EXPECT_TRUE(is_uuid_v7(str(e.at("id"))));
  EXPECT_EQ(e.at("type"), json::value(type));
  ASSERT_TRUE(is_timestamp(str(e.at("timestamp"))));
  EXPECT_NEAR(static_cast<double>(timestamp_millis(str(e.at("timestamp")))),
              static_cast<double>(now_millis()), 60'000.0);
  EXPECT_EQ(e.at("data"), data);
}

TEST_F(EventsTest, LeadCreateUpdateDeleteEachRecordOneEventWithTheRecordAsData) {
  json::object created = create_lead({{"visitor_name", "Ada"}, {"tags", json::array{"a"}}});
  std::string id = str(created.at("id"));
  json::object as_created = get_one("leads", id);

  ASSERT_STATUS(patch("/leads?id=" + id,
                      json::object{{"pipeline_stage", "qualified"}, {"tags", json::array{"b"}}}),
                200u);
  json::object as_updated = get_one("leads", id);
  ASSERT_STATUS(del("/leads?id=" + id), 200u);

  json::array all = wait_events(3);
  ASSERT_EQ(all.size(), 3u) << json::serialize(all);
  expect_event(all[0], "lead.created", as_created);
  expect_event(all[1], "lead.updated", as_updated);
  expect_event(all[2], "lead.deleted", as_updated);  // as it was just before deletion
  EXPECT_EQ(all[1].as_object().at("previous_attributes"),
            (json::object{{"pipeline_stage", "new"}, {"tags", json::array{"a"}}}));
}

TEST_F(EventsTest, ContactCreateUpdateDeleteEachRecordOneEventWithTheRecordAsData) {
  json::object created = create_contact({{"first_name", "Grace"},
                                         {"last_name", "Hopper"},
                                         {"email", "grace@navy.mil"},
                                         {"company_name", "Navy"}});
  std::string id = str(created.at("id"));
  json::object as_created = get_one("contacts", id);
  ASSERT_STATUS(patch("/contacts?id=" + id,
                      json::object{{"last_name", "Murray Hopper"}, {"phone", "+1 555"}}),
                200u);
  json::object as_updated = get_one("contacts", id);
  ASSERT_STATUS(del("/contacts?id=" + id), 200u);

  json::array all = wait_events(3);
  ASSERT_EQ(all.size(), 3u) << json::serialize(all);
  expect_event(all[0], "contact.created", as_created);
  expect_event(all[1], "contact.updated", as_updated);
  expect_event(all[2], "contact.deleted", as_updated);
  // The phone was unset (null in GET-one) before the PATCH.
  EXPECT_EQ(all[1].as_object().at("previous_attributes"),
            (json::object{{"last_name", "Hopper"}, {"phone", as_created.at("phone")}}));
}

TEST_F(EventsTest, PreviousAttributesHoldOnlyTheFieldsThePatchChanged) {
  std::string id = str(
      create_lead(
          {{"visitor_name", "Ada"}, {"need_summary", "engines"}, {"pipeline_stage", "qualified"}})
          .at("id"));
  // visitor_name and pipeline_stage are sent with their current values: not changes.
  ASSERT_STATUS(patch("/leads?id=" + id, json::object{{"visitor_name", "Ada"},
                                                      {"pipeline_stage", "qualified"},
                                                      {"need_summary", "looms"}}),
                200u);
  json::object updated = last_event("lead.updated");
  EXPECT_EQ(updated.at("previous_attributes"), (json::object{{"need_summary", "engines"}}));
  EXPECT_EQ(updated.at("data").as_object().at("need_summary"), "looms");
}

TEST_F(EventsTest, APatchThatChangesNothingEmitsNoEvent) {
  std::string lead =
      str(create_lead({{"visitor_name", "Ada"}, {"tags", json::array{"x", "y"}}}).at("id"));
  std::string contact = str(create_contact({{"first_name", "Grace"}}).at("id"));
  ASSERT_STATUS(patch("/leads?id=" + lead, json::object{{"visitor_name", "Ada"},
                                                        {"tags", json::array{"x", "y"}},
                                                        {"pipeline_stage", "new"}}),
                200u);
  ASSERT_STATUS(patch("/leads?id=" + lead, json::object{}), 200u);
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"first_name", "Grace"}}), 200u);
  // A later change: once its event is in the feed, every earlier one is too.
  create_lead({{"visitor_name", "Marker"}});
  json::array all = wait_events(3);
  EXPECT_EQ(types_of(all),
            (std::vector<std::string>{"lead.created", "contact.created", "lead.created"}))
      << json::serialize(all);
}

TEST_F(EventsTest, RefusedAndFailedWritesRecordNoEvent) {
  create_contact({{"first_name", "Grace"}, {"email", "grace@navy.mil"}});
  EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", ""}}), 400));
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "G"}, {"email", "GRACE@navy.mil"}}),
                409u);
  EXPECT_TRUE(is_error(patch("/leads?id=" + kAbsentId, json::object{{"need_summary", "x"}}), 404));
  EXPECT_TRUE(is_error(del("/contacts?id=" + kAbsentId), 404));
  EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}}, ws_ro().key), 403));
  create_lead({{"visitor_name", "Marker"}});
  json::array all = wait_events(2);
  EXPECT_EQ(types_of(all), (std::vector<std::string>{"contact.created", "lead.created"}))
      << json::serialize(all);
}

TEST_F(EventsTest, ImportRecordsCreatedEventsForEveryRecordAndMessage) {
  std::string t0 = timestamp_from_now(-3'600'000ms);
  json::object counts = import_lines(
      ws_.id,
      {json::object{{"type", "lead"}, {"visitor_name", "Imported Lead"}},
       json::object{{"type", "contact"}, {"first_name", "Imported"}, {"email", "imp@example.com"}},
       conversation_line({{"first_name", "Ada"}, {"email", "ada@example.com"}},
                         {message_line("Hi", timestamp_from_now(-3'599'000ms), "visitor", "Ada"),
                          message_line("Hello Ada", timestamp_from_now(-3'598'000ms), "bot")},
                         t0)});
  ASSERT_EQ(counts.at("conversations"), 1);
  std::string conv = conversation_ids().at(0);

  json::array all = wait_events(6);
  ASSERT_EQ(all.size(), 6u) << json::serialize(all);
  std::multiset<std::string> types;
  for (const auto& e : all) types.insert(str(e.as_object().at("type")));
  EXPECT_EQ(types, (std::multiset<std::string>{"lead.created", "contact.created", "contact.created",
                                               "conversation.created", "message.created",
                                               "message.created"}))
      << json::serialize(all);

  json::array leads = wait_events(1, "type=lead.created");
  ASSERT_EQ(leads.size(), 1u);
  json::array lead_items = list_all("leads");
  ASSERT_EQ(lead_items.size(), 1u);
  expect_event(leads[0], "lead.created", lead_items[0]);

  // Both contacts, the imported one and the conversation's visitor, as they were created: the
  // visitor's conversation is linked after its creation, a derived change with no event of its
  // own, so its counts and last_activity may have moved since.
  json::array contacts = wait_events(2, "type=contact.created");
  ASSERT_EQ(contacts.size(), 2u);
  std::set<std::string> emails;
  for (const auto& e : contacts) {
    const auto& data = e.as_object().at("data").as_object();
    json::object now = get_one("contacts", str(data.at("id")));
    if (data.at("email") != "imp@example.com") {
      for (const char* derived : {"conversation_count", "last_conversation_at", "last_activity"}) {
        now[derived] = data.contains(derived) ? data.at(derived) : json::value("(missing)");
      }
    }
    expect_event(e, "contact.created", now);
    emails.insert(str(data.at("email")));
  }
  EXPECT_EQ(emails, (std::set<std::string>{"imp@example.com", "ada@example.com"}));

  json::array conversations = wait_events(1, "type=conversation.created");
  ASSERT_EQ(conversations.size(), 1u);
  expect_event(conversations[0], "conversation.created", conversation_item(conv));

  json::object one = get_one("conversations", conv);
  const auto& messages = one.at("messages").as_array();
  ASSERT_EQ(messages.size(), 2u);
  json::array message_events = wait_events(2, "type=message.created");
  ASSERT_EQ(message_events.size(), 2u);
  std::set<std::string> seen;
  for (const auto& e : message_events) {
    const auto& data = e.as_object().at("data").as_object();
    EXPECT_EQ(keys_of(data), (KeySet{"conversation_id", "message"})) << json::serialize(e);
    EXPECT_EQ(data.at("conversation_id"), json::value(conv));
    const json::value& m = data.at("message");
    EXPECT_TRUE(m == messages[0] || m == messages[1]) << json::serialize(e);
    expect_event(e, "message.created", data);
    seen.insert(str(m.as_object().at("id")));
  }
  EXPECT_EQ(seen.size(), 2u);
}

TEST_F(EventsTest, ConversationPatchRecordsConversationUpdatedWithTheListItem) {
  import_lines(ws_.id,
               {conversation_line({{"first_name", "Ada"}}, {}, timestamp_from_now(-3'600'000ms),
                                  "open", json::array{"vip"})});
  std::string conv = conversation_ids().at(0);
  wait_events(2);  // contact.created, conversation.created
  // Sent unchanged: not in previous_attributes.
  ASSERT_STATUS(patch("/conversations?id=" + conv,
                      json::object{{"status", "archived"}, {"tags", json::array{"vip"}}}),
                200u);
  json::object item = conversation_item(conv);
  json::object updated = last_event("conversation.updated");
  expect_event(updated, "conversation.updated", item);
  EXPECT_EQ(updated.at("previous_attributes"), (json::object{{"status", "open"}}));

  // Nothing changed: no second event.
  ASSERT_STATUS(patch("/conversations?id=" + conv, json::object{{"status", "archived"}}), 200u);
  create_lead({{"visitor_name", "Marker"}});
  json::array all = wait_events(4);
  EXPECT_EQ(types_of(all).back(), "lead.created");
  EXPECT_EQ(wait_events(1, "type=conversation.updated").size(), 1u) << json::serialize(all);
}

TEST_F(EventsTest, DerivedChangesRecordNoEventsOfTheirOwn) {
  import_lines(ws_.id, {conversation_line({{"first_name", "Ada"}, {"email", "ada@example.com"}},
                                          {message_line("Hi", timestamp_from_now(-5000ms))},
                                          timestamp_from_now(-6000ms))});
  json::array before = wait_events(3);  // contact, conversation, message
  ASSERT_EQ(before.size(), 3u) << json::serialize(before);
  json::array contacts = list_all("contacts");
  ASSERT_EQ(contacts.size(), 1u);
  std::string contact = str(contacts[0].as_object().at("id"));
  json::object as_was = get_one("contacts", contact);
  // The conversation's visitor fields follow the contact, without a conversation event.
  ASSERT_STATUS(patch("/contacts?id=" + contact, json::object{{"first_name", "Augusta"}}), 200u);
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  json::array all = wait_events(5);
  ASSERT_EQ(all.size(), 5u) << json::serialize(all);
  EXPECT_EQ(types_of(all)[3], "contact.updated");
  EXPECT_EQ(types_of(all)[4], "contact.deleted");
  EXPECT_EQ(all[3].as_object().at("previous_attributes"), (json::object{{"first_name", "Ada"}}));
  EXPECT_EQ(all[4].as_object().at("data").as_object().at("first_name"), "Augusta");
  EXPECT_EQ(all[4].as_object().at("data").as_object().at("email"), as_was.at("email"));
}

TEST_F(EventsTest, TheFeedListsOldestFirstInTheListEnvelope) {
  for (const char* name : {"One", "Two", "Three", "Four", "Five"}) {
    create_lead({{"visitor_name", name}});
  }
  wait_events(5);
  HttpResponse r = get("/events");
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_list_envelope(r));
  EXPECT_TRUE(has_json_content_type(r));
  EXPECT_EQ(total_count(r), 5);
  const auto& items = r.data().as_array();
  ASSERT_EQ(items.size(), 5u);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < items.size(); ++i) {
    names.push_back(str(items[i].as_object().at("data").as_object().at("visitor_name")));
    // Not by id: UUIDv7s made within one millisecond need not ascend.
    if (i > 0) {
      EXPECT_LE(str(items[i - 1].as_object().at("timestamp")),
                str(items[i].as_object().at("timestamp")));
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"One", "Two", "Three", "Four", "Five"}));
}

TEST_F(EventsTest, PagesWithLimitCursorAndPage) {
  for (int i = 0; i < 5; ++i) create_lead({{"visitor_name", "L" + std::to_string(i)}});
  json::array all = wait_events(5);
  ASSERT_EQ(all.size(), 5u);

  HttpResponse first = get("/events?limit=2");
  ASSERT_STATUS(first, 200u);
  ASSERT_TRUE(is_list_envelope(first));
  EXPECT_EQ(first.data(), (json::array{all[0], all[1]}));
  const auto& p = first.object().at("pagination").as_object();
  EXPECT_EQ(p.at("has_more"), true);
  EXPECT_EQ(p.at("limit"), 2);
  EXPECT_EQ(p.at("total_count"), 5);
  HttpResponse second = get("/events?limit=2&cursor=" + url_encode(str(p.at("next_cursor"))));
  ASSERT_STATUS(second, 200u);
  EXPECT_EQ(second.data(), (json::array{all[2], all[3]}));

  HttpResponse page3 = get("/events?limit=2&page=3");
  ASSERT_STATUS(page3, 200u);
  ASSERT_TRUE(is_list_envelope(page3));
  EXPECT_EQ(page3.data(), (json::array{all[4]}));
  EXPECT_EQ(page3.object().at("pagination").as_object().at("has_more"), false);

  // The cursor is bound to its filters.
  EXPECT_TRUE(is_error(
      get("/events?limit=2&type=lead.*&cursor=" + url_encode(str(p.at("next_cursor")))), 400));
  EXPECT_TRUE(is_error(get("/events?limit=0"), 400));
  EXPECT_TRUE(is_error(get("/events?page=0"), 400));
}

TEST_F(EventsTest, TypeFiltersByOneTypeOrOneFamily) {
  std::string lead = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  ASSERT_STATUS(patch("/leads?id=" + lead, json::object{{"need_summary", "x"}}), 200u);
  std::string contact = str(create_contact({{"first_name", "Grace"}}).at("id"));
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  ASSERT_STATUS(del("/leads?id=" + lead), 200u);
  wait_events(5);

  EXPECT_EQ(types_of(wait_events(1, "type=lead.updated")),
            (std::vector<std::string>{"lead.updated"}));
  EXPECT_EQ(types_of(wait_events(3, "type=lead.*")),
            (std::vector<std::string>{"lead.created", "lead.updated", "lead.deleted"}));
  EXPECT_EQ(types_of(wait_events(2, "type=contact.*")),
            (std::vector<std::string>{"contact.created", "contact.deleted"}));
  EXPECT_EQ(types_of(wait_events(1, "type=" + url_encode("contact.deleted"))),
            (std::vector<std::string>{"contact.deleted"}));
  EXPECT_TRUE(events("type=conversation.*").empty());
  EXPECT_TRUE(events("type=message.*").empty());
  EXPECT_TRUE(events("type=conversation.updated").empty());
  EXPECT_EQ(total_count(get("/events?type=lead.*")), 3);

  for (const char* bad : {"lead", "lead.", "*", "lead.bogus", "bogus.*", "webhook.*",
                          "Lead.created", "lead.created,lead.deleted", "*.created", ""}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(is_error(get("/events?type=" + url_encode(bad)), 400, "type"));
  }
}

TEST_F(EventsTest, AfterResumesBehindAnEventOfThisWorkspace) {
  for (int i = 0; i < 4; ++i) create_lead({{"visitor_name", "L" + std::to_string(i)}});
  std::string contact = str(create_contact({{"first_name", "Grace"}}).at("id"));
  json::array all = wait_events(5);
  ASSERT_EQ(all.size(), 5u);
  // The feed may hold an event back while an earlier one can still appear (integrations.md, the
  // feed guarantee), so every query that expects events polls for them.
  auto id_at = [&](std::size_t i) { return str(all[i].as_object().at("id")); };

  EXPECT_EQ(wait_events(3, "after=" + id_at(1)), (json::array{all[2], all[3], all[4]}));
  EXPECT_EQ(events("after=" + id_at(4)), json::array());
  EXPECT_EQ(wait_events(1, "after=" + id_at(0) + "&type=contact.*"), (json::array{all[4]}));
  wait_events(4, "after=" + id_at(0));
  // Polled like the others: a transaction of the server's own (a usage flush) may be in flight.
  HttpResponse paged = get("/events?after=" + id_at(0) + "&limit=2");
  for (int i = 0; i < 100 && paged.status == 200u && total_count(paged) != 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    paged = get("/events?after=" + id_at(0) + "&limit=2");
  }
  ASSERT_STATUS(paged, 200u);
  EXPECT_EQ(paged.data(), (json::array{all[1], all[2]}));
  EXPECT_EQ(total_count(paged), 4);  // `after` filters: all[1] to all[4]

  // Following the feed picks up later events exactly once.
  ASSERT_STATUS(del("/contacts?id=" + contact), 200u);
  json::array later = wait_events(1, "after=" + id_at(4));
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].as_object().at("type"), "contact.deleted");

  const std::string kMessage = "after names no retained event of this workspace";
  EXPECT_TRUE(is_error(get("/events?after=" + kAbsentId), 400, kMessage));
  // An id of another kind of record, and another workspace's event, are no events of this one.
  EXPECT_TRUE(is_error(get("/events?after=" + contact), 400, kMessage));
  WorkspaceKeys b = make_workspace("B");
  create_lead({{"visitor_name", "B's"}}, b.rw.key);
  json::array theirs = wait_events(1, "", b.rw.key);
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_TRUE(is_error(get("/events?after=" + str(theirs[0].as_object().at("id"))), 400, kMessage));
  EXPECT_TRUE(is_error(get("/events?after=not-a-uuid"), 400, "after"));
  EXPECT_TRUE(is_error(get("/events?after="), 400, "after"));
}

TEST_F(EventsTest, IdReturnsOneEventAndTakesNoOtherParameter) {
  create_lead({{"visitor_name", "Ada"}});
  json::array all = wait_events(1);
  ASSERT_EQ(all.size(), 1u);
  std::string id = str(all[0].as_object().at("id"));
  HttpResponse r = get("/events?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(r.data(), all[0]);

  for (const std::string& extra : {std::string("type=lead.created"), "after=" + id,
                                   std::string("limit=10"), std::string("page=1")}) {
    SCOPED_TRACE(extra);
    EXPECT_TRUE(is_error(get("/events?id=" + id + "&" + extra), 400));
  }
  EXPECT_TRUE(is_error(get("/events?id=" + kAbsentId), 404));
  EXPECT_TRUE(is_error(get("/events?id=not-a-uuid"), 400));
  EXPECT_TRUE(is_error(get("/events?id="), 400));
}

TEST_F(EventsTest, UnknownParametersSortAndSearchAre400) {
  create_lead({{"visitor_name", "Ada"}});
  EXPECT_TRUE(is_error(get("/events?sort=timestamp"), 400, "sort"));
  EXPECT_TRUE(is_error(get("/events?sort=created_at:desc"), 400, "sort"));
  EXPECT_TRUE(is_error(get("/events?search=Ada"), 400, "search"));
  EXPECT_TRUE(is_error(get("/events?bogus=1"), 400, "bogus"));
  EXPECT_TRUE(is_error(get("/events?status=pending"), 400, "status"));
}

TEST_F(EventsTest, ReadScopeIsNeededAndWorkspacesSeeOnlyTheirOwnEvents) {
  create_lead({{"visitor_name", "Ada"}});
  json::array mine = wait_events(1);
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_STATUS(get("/events", ws_ro().key), 200u);
  EXPECT_TRUE(is_error(get("/events", ws_wo().key), 403));
  EXPECT_TRUE(is_error(get("/events", ""), 401));
  EXPECT_TRUE(is_error(send("POST", "/events", std::string("{}")), 405));

  WorkspaceKeys b = make_workspace("B");
  HttpResponse theirs = get("/events", b.rw.key);
  ASSERT_STATUS(theirs, 200u);
  EXPECT_EQ(theirs.data(), json::array());
  EXPECT_TRUE(is_error(get("/events?id=" + str(mine[0].as_object().at("id")), b.rw.key), 404));
  create_contact({{"first_name", "Bea"}}, b.rw.key);
  json::array bs = wait_events(1, "", b.rw.key);
  ASSERT_EQ(bs.size(), 1u);
  EXPECT_EQ(bs[0].as_object().at("type"), "contact.created");
  EXPECT_EQ(wait_events(1), mine);
}

}  // namespace
}  // namespace leadline_test

namespace leadline_test {
namespace {

// --event-retention: the purge takes events past it, with their deliveries, and a position
// that named one is then refused.
class EventRetentionTest : public WebhookApiTest {
 public:
  static void SetUpTestSuite() {
    auto args = webhook_serve_args();
    args.insert(args.end(), {"--event-retention", "2s"});
    start_webhook_suite_server(args);
  }
};

TEST_F(EventRetentionTest, ExpiredEventsGoWithTheirDeliveries) {
  WebhookReceiver receiver;
  create_webhook_to(receiver.url(hook_path()));
  create_lead({{"visitor_name", "Short-lived"}});
  const json::array kept = wait_events(1);
  ASSERT_EQ(kept.size(), 1u);
  const std::string id = str(kept[0].as_object().at("id"));
  ASSERT_TRUE(receiver.wait_for(1, kDeliveryWait));
  ASSERT_EQ(deliveries().size(), 1u);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!events().empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(events().empty());
  EXPECT_TRUE(deliveries().empty());
  EXPECT_TRUE(
      is_error(get("/events?after=" + id), 400, "after names no retained event of this workspace"));
}

}  // namespace
}  // namespace leadline_test
