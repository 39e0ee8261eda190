// Contacts: create / list / get-one / update / delete with the exact response shapes, the
// create-only metadata, defaults of fields not set through the interface, and scoping.

#include <gtest/gtest.h>

#include <string>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class ContactsTest : public ApiTest {};

const KeySet kCreate = {"id",           "first_name", "last_name",     "email",     "phone",
                        "company_name", "tags",       "profile_notes", "created_at"};

const KeySet kContactListItem = {"id",
                          "first_name",
                          "last_name",
                          "email",
                          "phone",
                          "company_name",
                          "avatar_url",
                          "tags",
                          "profile_notes",
                          "interest_summary",
                          "last_activity",
                          "created_at",
                          "conversation_count",
                          "last_conversation_at"};

TEST_F(ContactsTest, CreateResponseHasExactlyTheDocumentedFields) {
  HttpResponse r = post("/contacts", json::object{{"first_name", "Ada"},
                                                  {"last_name", "Lovelace"},
                                                  {"email", "ada@example.com"},
                                                  {"phone", "+44 1"},
                                                  {"company_name", "Engines"},
                                                  {"tags", json::array{"vip"}},
                                                  {"profile_notes", "notes"},
                                                  {"metadata", json::object{{"k", "v"}}}});
  ASSERT_STATUS(r, 201u);
  ASSERT_TRUE(is_single_envelope(r));
  const auto& d = r.data().as_object();
  EXPECT_EQ(keys_of(d), kCreate) << r.describe();
  EXPECT_FALSE(d.contains("metadata"));
  EXPECT_EQ(d.at("first_name"), "Ada");
  EXPECT_EQ(d.at("last_name"), "Lovelace");
  EXPECT_EQ(d.at("email"), "ada@example.com");
  EXPECT_EQ(d.at("phone"), "+44 1");
  EXPECT_EQ(d.at("company_name"), "Engines");
  EXPECT_EQ(d.at("tags"), (json::array{"vip"}));
  EXPECT_EQ(d.at("profile_notes"), "notes");
}

TEST_F(ContactsTest, CreateMinimalStillHasTheDocumentedFields) {
  HttpResponse r = post("/contacts", json::object{{"first_name", "Ada"}});
  ASSERT_STATUS(r, 201u);
  const auto& d = r.data().as_object();
  EXPECT_EQ(keys_of(d), kCreate) << r.describe();
  EXPECT_EQ(d.at("tags"), json::array());
}

TEST_F(ContactsTest, MetadataAcceptsAnyObjectOnCreateButNotOtherTypes) {
  json::object nested{{"a", json::array{1, 2, json::object{{"b", nullptr}}}}, {"c", true}};
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "A"}, {"metadata", nested}}), 201u);
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "B"}, {"metadata", json::object{}}}),
                201u);
  for (const json::value& bad :
       {json::value("text"), json::value(json::array{1}), json::value(3), json::value(true)}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(is_error(post("/contacts", json::object{{"first_name", "C"}, {"metadata", bad}}),
                         400, "metadata"));
  }
}

TEST_F(ContactsTest, OptionalFieldsSentAsNullOnCreateAreLikeNotSent) {
  HttpResponse r = post("/contacts", json::object{{"first_name", "Ada"},
                                                  {"last_name", nullptr},
                                                  {"email", nullptr},
                                                  {"phone", nullptr},
                                                  {"company_name", nullptr},
                                                  {"profile_notes", nullptr},
                                                  {"metadata", nullptr}});
  ASSERT_STATUS(r, 201u);
  EXPECT_EQ(keys_of(r.data()), kCreate);
  EXPECT_TRUE(r.data().as_object().at("email").is_null());
  EXPECT_TRUE(r.data().as_object().at("last_name").is_null());
}

TEST_F(ContactsTest, MetadataIsRejectedOnPatch) {
  std::string id = str(create_contact({{"first_name", "Ada"}}).at("id"));
  EXPECT_TRUE(is_error(patch("/contacts?id=" + id, json::object{{"metadata", json::object{}}}), 400,
                       "metadata"));
  EXPECT_TRUE(
      is_error(patch("/contacts?id=" + id, json::object{{"metadata", nullptr}}), 400, "metadata"));
}

TEST_F(ContactsTest, ListItemHasExactlyTheDocumentedFieldsAndDefaults) {
  json::object created = create_contact({{"first_name", "Ada"}, {"email", "ada@example.com"}});
  HttpResponse r = get("/contacts");
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_list_envelope(r));
  ASSERT_EQ(r.data().as_array().size(), 1u);
  const auto& item = r.data().as_array()[0].as_object();
  EXPECT_EQ(keys_of(item), kContactListItem) << r.describe();
  EXPECT_TRUE(item.at("avatar_url").is_null());
  EXPECT_EQ(item.at("interest_summary"), "");
  EXPECT_EQ(item.at("conversation_count"), 0);
  EXPECT_TRUE(item.at("last_conversation_at").is_null());
  EXPECT_EQ(item.at("last_activity"), created.at("created_at"));
  EXPECT_EQ(item.at("created_at"), created.at("created_at"));
  EXPECT_EQ(item.at("id"), created.at("id"));
}

TEST_F(ContactsTest, GetOneReturnsTheListItem) {
  std::string id =
      str(create_contact({{"first_name", "Ada"}, {"tags", json::array{"x"}}}).at("id"));
  HttpResponse r = get("/contacts?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), kContactListItem);
  json::array all = list_all("contacts");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(r.data(), all[0]);
}

TEST_F(ContactsTest, PatchReturnsTheFullRecordAndChangesOnlyProvidedFields) {
  std::string id = str(create_contact({{"first_name", "Ada"},
                                       {"last_name", "L"},
                                       {"email", "ada@example.com"},
                                       {"phone", "1"},
                                       {"company_name", "C"},
                                       {"tags", json::array{"a"}},
                                       {"profile_notes", "p"}})
                           .at("id"));
  json::object before = get_one("contacts", id);
  HttpResponse r = patch("/contacts?id=" + id, json::object{{"company_name", "New Co"}});
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), kContactListItem);
  const auto& d = r.data().as_object();
  EXPECT_EQ(d.at("company_name"), "New Co");
  for (const auto& kv : before) {
    std::string key(kv.key());
    if (key == "company_name" || key == "last_activity") continue;
    EXPECT_EQ(d.at(key), kv.value()) << key;
  }
  EXPECT_EQ(r.data(), json::value(get_one("contacts", id)));
}

TEST_F(ContactsTest, PatchEveryUpdatableField) {
  std::string id = str(create_contact({{"first_name", "Ada"}}).at("id"));
  HttpResponse r = patch("/contacts?id=" + id, json::object{{"first_name", "Grace"},
                                                            {"last_name", "Hopper"},
                                                            {"email", "grace@navy.mil"},
                                                            {"phone", "+1 555"},
                                                            {"company_name", "Navy"},
                                                            {"tags", json::array{"cobol", "a"}},
                                                            {"profile_notes", "Admiral"}});
  ASSERT_STATUS(r, 200u);
  const auto& d = r.data().as_object();
  EXPECT_EQ(d.at("first_name"), "Grace");
  EXPECT_EQ(d.at("last_name"), "Hopper");
  EXPECT_EQ(d.at("email"), "grace@navy.mil");
  EXPECT_EQ(d.at("phone"), "+1 555");
  EXPECT_EQ(d.at("company_name"), "Navy");
  EXPECT_EQ(d.at("tags"), (json::array{"cobol", "a"}));
  EXPECT_EQ(d.at("profile_notes"), "Admiral");
}

TEST_F(ContactsTest, PatchTagsReplacesTheArray) {
  std::string id =
      str(create_contact({{"first_name", "A"}, {"tags", json::array{"a", "b"}}}).at("id"));
  HttpResponse r = patch("/contacts?id=" + id, json::object{{"tags", json::array{"z"}}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("tags"), (json::array{"z"}));
}

TEST_F(ContactsTest, PatchNullClearsOptionalStrings) {
  std::string id = str(create_contact({{"first_name", "Ada"},
                                       {"last_name", "L"},
                                       {"email", "ada@example.com"},
                                       {"phone", "1"},
                                       {"company_name", "C"}})
                           .at("id"));
  HttpResponse r = patch("/contacts?id=" + id, json::object{{"last_name", nullptr},
                                                            {"email", nullptr},
                                                            {"phone", nullptr},
                                                            {"company_name", nullptr}});
  ASSERT_STATUS(r, 200u);
  json::object after = get_one("contacts", id);
  EXPECT_TRUE(after.at("last_name").is_null());
  EXPECT_TRUE(after.at("email").is_null());
  EXPECT_TRUE(after.at("phone").is_null());
  EXPECT_TRUE(after.at("company_name").is_null());
  // The cleared address no longer blocks a new contact with it.
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "B"}, {"email", "ada@example.com"}}),
                201u);
}

TEST_F(ContactsTest, DeleteReturnsDeletedAndIdAndRemovesTheContact) {
  std::string keep = str(create_contact({{"first_name", "Keep"}}).at("id"));
  std::string id = str(create_contact({{"first_name", "Gone"}}).at("id"));
  HttpResponse r = del("/contacts?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), key_set({"deleted", "id"}));
  EXPECT_EQ(r.data().as_object().at("deleted"), true);
  EXPECT_EQ(r.data().as_object().at("id"), json::value(id));
  EXPECT_TRUE(is_error(get("/contacts?id=" + id), 404));
  json::array remaining = list_all("contacts");
  ASSERT_EQ(remaining.size(), 1u);
  EXPECT_EQ(remaining[0].as_object().at("id"), json::value(keep));
}

TEST_F(ContactsTest, EmailIsStoredTrimmedWithCaseKept) {
  json::object d = create_contact({{"first_name", "A"}, {"email", " \tAda@Example.IO  "}});
  EXPECT_EQ(d.at("email"), "Ada@Example.IO");
  EXPECT_EQ(get_one("contacts", str(d.at("id"))).at("email"), "Ada@Example.IO");
  std::string id = str(d.at("id"));
  HttpResponse r = patch("/contacts?id=" + id, json::object{{"email", "  Grace@Navy.MIL "}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("email"), "Grace@Navy.MIL");
}

TEST_F(ContactsTest, ContactsWithoutEmailNeverConflict) {
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "A"}}), 201u);
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "A"}}), 201u);
  EXPECT_STATUS(post("/contacts", json::object{{"first_name", "A"}, {"email", nullptr}}), 201u);
  EXPECT_EQ(total_count(get("/contacts")), 3);
}

TEST_F(ContactsTest, ContactsAreScopedToTheKeysWorkspace) {
  create_contact({{"first_name", "Mine"}});
  WorkspaceKeys other = make_workspace("Other");
  HttpResponse r = get("/contacts", other.rw.key);
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_array().size(), 0u);
  EXPECT_EQ(total_count(r), 0);
}

}  // namespace
}  // namespace leadline_test
