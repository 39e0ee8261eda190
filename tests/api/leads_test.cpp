// Leads: create / list / get-one / update / delete, with the exact response shapes, defaults,
// pipeline stages and rep assignment the contract describes.

#include <gtest/gtest.h>

#include <string>

#include "support/fixture.hpp"

namespace leadline_test {
namespace {

class LeadsTest : public ApiTest {};

const KeySet kCreateBase = {"id",        "visitor_name", "pipeline_stage",          "need_summary",
                            "tags",      "source",       "expected_billing_amount", "created_at",
                            "updated_at"};

const KeySet kLeadListItem = {"id",
                          "visitor_name",
                          "visitor_email",
                          "visitor_phone",
                          "visitor_company",
                          "pipeline_stage",
                          "need_summary",
                          "tags",
                          "source",
                          "expected_billing_amount",
                          "assigned_rep_id",
                          "rep_first_name",
                          "rep_last_name",
                          "rep_email",
                          "created_at",
                          "updated_at",
                          "lead_score"};

const std::vector<std::string> kStages = {"new",       "qualified", "assigned",
                                          "contacted", "converted", "lost"};

KeySet with(KeySet base, std::initializer_list<std::string> more) {
  base.insert(more.begin(), more.end());
  return base;
}

TEST_F(LeadsTest, CreateMinimalHasExactlyTheDocumentedFieldsAndDefaults) {
  HttpResponse r = post("/leads", json::object{{"visitor_name", "Ada"}});
  ASSERT_STATUS(r, 201u);
  ASSERT_TRUE(is_single_envelope(r));
  const auto& d = r.data().as_object();
  EXPECT_EQ(keys_of(d), kCreateBase) << r.describe();
  EXPECT_EQ(d.at("visitor_name"), "Ada");
  EXPECT_EQ(d.at("pipeline_stage"), "new");
  EXPECT_EQ(d.at("need_summary"), "");
  EXPECT_EQ(d.at("tags"), json::array());
  EXPECT_EQ(d.at("source"), "api");
  EXPECT_TRUE(d.at("expected_billing_amount").is_null());
  EXPECT_FALSE(d.contains("lead_score"));
  EXPECT_FALSE(d.contains("assigned_rep_id"));
  EXPECT_FALSE(d.contains("rep_first_name"));
}

TEST_F(LeadsTest, CreateEchoesOnlyTheOptionalVisitorFieldsThatWereSent) {
  json::object all = create_lead({{"visitor_name", "Ada"},
                                  {"visitor_email", "ada@example.com"},
                                  {"visitor_phone", "+44 1"},
                                  {"visitor_company", "Engines"}});
  EXPECT_EQ(keys_of(all), with(kCreateBase, {"visitor_email", "visitor_phone", "visitor_company"}));
  EXPECT_EQ(all.at("visitor_email"), "ada@example.com");
  EXPECT_EQ(all.at("visitor_phone"), "+44 1");
  EXPECT_EQ(all.at("visitor_company"), "Engines");

  json::object phone_only = create_lead({{"visitor_name", "Bob"}, {"visitor_phone", "123"}});
  EXPECT_EQ(keys_of(phone_only), with(kCreateBase, {"visitor_phone"}));

  json::object company_only = create_lead({{"visitor_name", "Cy"}, {"visitor_company", "C"}});
  EXPECT_EQ(keys_of(company_only), with(kCreateBase, {"visitor_company"}));
}

TEST_F(LeadsTest, CreateWithOptionalFieldsSentAsNullIsLikeNotSent) {
  json::object d = create_lead({{"visitor_name", "Ada"},
                                {"visitor_email", nullptr},
                                {"visitor_phone", nullptr},
                                {"visitor_company", nullptr},
                                {"need_summary", nullptr},
                                {"source", nullptr},
                                {"expected_billing_amount", nullptr}});
  EXPECT_EQ(keys_of(d), kCreateBase);
  EXPECT_EQ(d.at("need_summary"), "");
  EXPECT_EQ(d.at("source"), "api");
  EXPECT_TRUE(d.at("expected_billing_amount").is_null());
}

TEST_F(LeadsTest, CreateWithEveryFieldEchoesTheValues) {
  json::object d = create_lead({{"visitor_name", "Ada Lovelace"},
                                {"visitor_email", "ada@example.com"},
                                {"visitor_phone", "+44 20 0000"},
                                {"visitor_company", "Analytical Engines"},
                                {"pipeline_stage", "qualified"},
                                {"need_summary", "Needs a difference engine"},
                                {"tags", json::array{"vip", "b2b"}},
                                {"source", "web-form"},
                                {"expected_billing_amount", 1234.5}});
  EXPECT_EQ(d.at("visitor_name"), "Ada Lovelace");
  EXPECT_EQ(d.at("pipeline_stage"), "qualified");
  EXPECT_EQ(d.at("need_summary"), "Needs a difference engine");
  EXPECT_EQ(d.at("tags"), (json::array{"vip", "b2b"}));
  EXPECT_EQ(d.at("source"), "web-form");
  ASSERT_TRUE(d.at("expected_billing_amount").is_number());
  EXPECT_DOUBLE_EQ(d.at("expected_billing_amount").to_number<double>(), 1234.5);
}

TEST_F(LeadsTest, ListItemHasExactlyTheDocumentedFields) {
  create_lead({{"visitor_name", "Ada"}});
  HttpResponse r = get("/leads");
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_list_envelope(r));
  ASSERT_EQ(r.data().as_array().size(), 1u);
  const auto& item = r.data().as_array()[0].as_object();
  EXPECT_EQ(keys_of(item), kLeadListItem) << r.describe();
  EXPECT_TRUE(item.at("visitor_email").is_null());
  EXPECT_TRUE(item.at("visitor_phone").is_null());
  EXPECT_TRUE(item.at("visitor_company").is_null());
  EXPECT_TRUE(item.at("assigned_rep_id").is_null());
  EXPECT_TRUE(item.at("rep_first_name").is_null());
  EXPECT_TRUE(item.at("rep_last_name").is_null());
  EXPECT_TRUE(item.at("rep_email").is_null());
  EXPECT_TRUE(item.at("lead_score").is_null() || item.at("lead_score").is_number());
  EXPECT_EQ(item.at("source"), "api");
}

TEST_F(LeadsTest, GetOneReturnsTheListItem) {
  json::object created = create_lead({{"visitor_name", "Ada"}, {"tags", json::array{"x"}}});
  std::string id = str(created.at("id"));
  HttpResponse r = get("/leads?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), kLeadListItem);
  json::array all = list_all("leads");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(r.data(), all[0]);
  for (const char* field : {"id", "visitor_name", "pipeline_stage", "need_summary", "tags",
                            "source", "created_at", "updated_at"}) {
    EXPECT_EQ(r.data().as_object().at(field), created.at(field)) << field;
  }
}

TEST_F(LeadsTest, PatchReturnsTheFullUpdatedRecordInListItemShape) {
  std::string id = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  HttpResponse r = patch("/leads?id=" + id, json::object{{"pipeline_stage", "contacted"}});
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), kLeadListItem);
  EXPECT_EQ(r.data().as_object().at("pipeline_stage"), "contacted");
  EXPECT_EQ(r.data(), json::value(get_one("leads", id)));
}

TEST_F(LeadsTest, PatchChangesOnlyTheFieldsProvided) {
  std::string id = str(create_lead({{"visitor_name", "Ada"},
                                    {"visitor_email", "ada@example.com"},
                                    {"visitor_phone", "1"},
                                    {"visitor_company", "C"},
                                    {"pipeline_stage", "qualified"},
                                    {"need_summary", "n"},
                                    {"tags", json::array{"a"}},
                                    {"source", "s"},
                                    {"expected_billing_amount", 10}})
                           .at("id"));
  json::object before = get_one("leads", id);
  HttpResponse r = patch("/leads?id=" + id, json::object{{"need_summary", "changed"}});
  ASSERT_STATUS(r, 200u);
  json::object after = get_one("leads", id);
  for (const auto& kv : before) {
    std::string key(kv.key());
    if (key == "need_summary" || key == "updated_at") continue;
    EXPECT_EQ(after.at(key), kv.value()) << key;
  }
  EXPECT_EQ(after.at("need_summary"), "changed");
}

TEST_F(LeadsTest, PatchEveryUpdatableField) {
  std::string id = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  std::string rep = add_rep(ws_.id, "Rita", "Rep", "rita@example.com");
  HttpResponse r = patch("/leads?id=" + id, json::object{{"pipeline_stage", "assigned"},
                                                         {"assigned_rep_id", rep},
                                                         {"visitor_name", "Ada L"},
                                                         {"visitor_email", "a@b.io"},
                                                         {"visitor_phone", "+1"},
                                                         {"visitor_company", "AE"},
                                                         {"need_summary", "more"},
                                                         {"tags", json::array{"t1", "t2"}},
                                                         {"expected_billing_amount", 99}});
  ASSERT_STATUS(r, 200u);
  const auto& d = r.data().as_object();
  EXPECT_EQ(d.at("pipeline_stage"), "assigned");
  EXPECT_EQ(d.at("assigned_rep_id"), json::value(rep));
  EXPECT_EQ(d.at("visitor_name"), "Ada L");
  EXPECT_EQ(d.at("visitor_email"), "a@b.io");
  EXPECT_EQ(d.at("visitor_phone"), "+1");
  EXPECT_EQ(d.at("visitor_company"), "AE");
  EXPECT_EQ(d.at("need_summary"), "more");
  EXPECT_EQ(d.at("tags"), (json::array{"t1", "t2"}));
  EXPECT_DOUBLE_EQ(d.at("expected_billing_amount").to_number<double>(), 99.0);
  EXPECT_EQ(d.at("source"), "api");
}

TEST_F(LeadsTest, PatchTagsReplacesTheWholeArray) {
  std::string id =
      str(create_lead({{"visitor_name", "A"}, {"tags", json::array{"a", "b"}}}).at("id"));
  HttpResponse r = patch("/leads?id=" + id, json::object{{"tags", json::array{"c"}}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("tags"), (json::array{"c"}));
  r = patch("/leads?id=" + id, json::object{{"tags", json::array()}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("tags"), json::array());
}

TEST_F(LeadsTest, PatchNullClearsOptionalFields) {
  std::string id = str(create_lead({{"visitor_name", "Ada"},
                                    {"visitor_email", "ada@example.com"},
                                    {"visitor_phone", "1"},
                                    {"visitor_company", "C"},
                                    {"expected_billing_amount", 5}})
                           .at("id"));
  HttpResponse r = patch("/leads?id=" + id, json::object{{"visitor_email", nullptr},
                                                         {"visitor_phone", nullptr},
                                                         {"visitor_company", nullptr},
                                                         {"expected_billing_amount", nullptr}});
  ASSERT_STATUS(r, 200u);
  json::object after = get_one("leads", id);
  EXPECT_TRUE(after.at("visitor_email").is_null());
  EXPECT_TRUE(after.at("visitor_phone").is_null());
  EXPECT_TRUE(after.at("visitor_company").is_null());
  EXPECT_TRUE(after.at("expected_billing_amount").is_null());
}

TEST_F(LeadsTest, AssigningARepFillsRepFieldsAndNullUnassigns) {
  std::string rep = add_rep(ws_.id, "Rita", "Repper", "rita@example.com");
  std::string id = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  HttpResponse r = patch("/leads?id=" + id, json::object{{"assigned_rep_id", rep}});
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_object().at("assigned_rep_id"), json::value(rep));
  EXPECT_EQ(r.data().as_object().at("rep_first_name"), "Rita");
  EXPECT_EQ(r.data().as_object().at("rep_last_name"), "Repper");
  EXPECT_EQ(r.data().as_object().at("rep_email"), "rita@example.com");
  json::array items = list_all("leads");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].as_object().at("rep_first_name"), "Rita");
  EXPECT_EQ(items[0].as_object().at("rep_last_name"), "Repper");
  EXPECT_EQ(items[0].as_object().at("rep_email"), "rita@example.com");

  r = patch("/leads?id=" + id, json::object{{"assigned_rep_id", nullptr}});
  ASSERT_STATUS(r, 200u);
  json::object after = get_one("leads", id);
  EXPECT_TRUE(after.at("assigned_rep_id").is_null());
  EXPECT_TRUE(after.at("rep_first_name").is_null());
  EXPECT_TRUE(after.at("rep_last_name").is_null());
  EXPECT_TRUE(after.at("rep_email").is_null());
}

TEST_F(LeadsTest, AssignedRepMustBeARepOfTheSameWorkspace) {
  std::string id = str(create_lead({{"visitor_name", "Ada"}}).at("id"));
  WorkspaceKeys other = make_workspace("Other");
  std::string foreign_rep = add_rep(other.id, "F", "R", "f@example.com");
  std::string agent = add_agent(ws_.id, "Agent", "A", "agent@example.com");
  for (const json::value& bad :
       {json::value(foreign_rep), json::value(agent),
        json::value("01890a5d-ac96-774b-bcce-b302099a8057"), json::value("not-a-uuid"),
        json::value(12), json::value(json::array{})}) {
    SCOPED_TRACE(json::serialize(bad));
    EXPECT_TRUE(is_error(patch("/leads?id=" + id, json::object{{"assigned_rep_id", bad}}), 400,
                         "assigned_rep_id"));
  }
  EXPECT_TRUE(get_one("leads", id).at("assigned_rep_id").is_null());
}

TEST_F(LeadsTest, PipelineStageDefaultsToNewAndTakesEveryListedValue) {
  EXPECT_EQ(create_lead({{"visitor_name", "A"}}).at("pipeline_stage"), "new");
  for (const auto& stage : kStages) {
    SCOPED_TRACE(stage);
    json::object d = create_lead({{"visitor_name", "A"}, {"pipeline_stage", stage}});
    EXPECT_EQ(d.at("pipeline_stage"), json::value(stage));
  }
  std::string id = str(create_lead({{"visitor_name", "B"}}).at("id"));
  for (const auto& stage : kStages) {
    SCOPED_TRACE(stage);
    HttpResponse r = patch("/leads?id=" + id, json::object{{"pipeline_stage", stage}});
    ASSERT_STATUS(r, 200u);
    EXPECT_EQ(r.data().as_object().at("pipeline_stage"), json::value(stage));
  }
}

TEST_F(LeadsTest, DeleteReturnsDeletedAndIdAndRemovesTheLead) {
  std::string keep = str(create_lead({{"visitor_name", "Keep"}}).at("id"));
  std::string id = str(create_lead({{"visitor_name", "Gone"}}).at("id"));
  HttpResponse r = del("/leads?id=" + id);
  ASSERT_STATUS(r, 200u);
  ASSERT_TRUE(is_single_envelope(r));
  EXPECT_EQ(keys_of(r.data()), key_set({"deleted", "id"}));
  EXPECT_EQ(r.data().as_object().at("deleted"), true);
  EXPECT_EQ(r.data().as_object().at("id"), json::value(id));
  EXPECT_TRUE(is_error(get("/leads?id=" + id), 404));
  json::array remaining = list_all("leads");
  ASSERT_EQ(remaining.size(), 1u);
  EXPECT_EQ(remaining[0].as_object().at("id"), json::value(keep));
  EXPECT_EQ(total_count(get("/leads")), 1);
}

TEST_F(LeadsTest, ImportedLeadScoreIsVisibleInListGetOneAndPatch) {
  import_lines(ws_.id, {json::object{{"type", "lead"},
                                     {"visitor_name", "Scored"},
                                     {"lead_score", 42},
                                     {"created_at", timestamp_from_now(-60'000ms)}}});
  json::array items = list_all("leads");
  ASSERT_EQ(items.size(), 1u);
  const auto& item = items[0].as_object();
  EXPECT_EQ(keys_of(item), kLeadListItem);
  ASSERT_TRUE(item.at("lead_score").is_number());
  EXPECT_DOUBLE_EQ(item.at("lead_score").to_number<double>(), 42.0);
  std::string id = str(item.at("id"));
  EXPECT_DOUBLE_EQ(get_one("leads", id).at("lead_score").to_number<double>(), 42.0);
  HttpResponse r = patch("/leads?id=" + id, json::object{{"need_summary", "x"}});
  ASSERT_STATUS(r, 200u);
  EXPECT_DOUBLE_EQ(r.data().as_object().at("lead_score").to_number<double>(), 42.0);
}

TEST_F(LeadsTest, LeadScoreIsNotWritable) {
  EXPECT_TRUE(is_error(post("/leads", json::object{{"visitor_name", "A"}, {"lead_score", 5}}), 400,
                       "lead_score"));
  std::string id = str(create_lead({{"visitor_name", "A"}}).at("id"));
  EXPECT_TRUE(
      is_error(patch("/leads?id=" + id, json::object{{"lead_score", 5}}), 400, "lead_score"));
}

TEST_F(LeadsTest, VisitorEmailIsStoredTrimmedWithCaseKept) {
  json::object d = create_lead({{"visitor_name", "A"}, {"visitor_email", "  Ada@Example.IO \t"}});
  EXPECT_EQ(d.at("visitor_email"), "Ada@Example.IO");
  EXPECT_EQ(get_one("leads", str(d.at("id"))).at("visitor_email"), "Ada@Example.IO");
}

TEST_F(LeadsTest, LeadsAreScopedToTheKeysWorkspace) {
  create_lead({{"visitor_name", "Mine"}});
  WorkspaceKeys other = make_workspace("Other");
  HttpResponse r = get("/leads", other.rw.key);
  ASSERT_STATUS(r, 200u);
  EXPECT_EQ(r.data().as_array().size(), 0u);
  EXPECT_EQ(total_count(r), 0);
}

}  // namespace
}  // namespace leadline_test
