// /conversations: list (status, search, tag, sort, paging), get one with messages, update.
// Conversations are created only through the operator's import.
#include <array>

#include "api/record_bodies.hpp"
#include "api/record_json.hpp"
#include "api/resource_context.hpp"
#include "api/resource_support.hpp"

namespace leadline::api {

namespace {

using store::ConversationSortField;

constexpr std::array<std::pair<std::string_view, ConversationSortField>, 2> kConversationSorts{{
    {"created_at", ConversationSortField::kCreatedAt},
    {"updated_at", ConversationSortField::kUpdatedAt},
}};

void list_conversations(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown(
          {"status", "search", "tag", "sort", "limit", "cursor", "page"})) {
    return respond_error(ctx.response, 400, e->message);
  }
  auto common = take_or_answer(ctx, decode_common_list_params(ctx.query));
  if (!common) return;
  auto sort = take_or_answer(
      ctx, decode_sort(ctx.query, kConversationSorts, ConversationSortField::kCreatedAt));
  if (!sort) return;
  auto status_text = take_or_answer(ctx, non_empty_param(ctx.query, "status"));
  if (!status_text) return;
  auto tag = take_or_answer(ctx, non_empty_param(ctx.query, "tag"));
  if (!tag) return;

  store::ConversationListQuery q;
  if (*status_text && **status_text != "all") {
    q.status = domain::parse_conversation_status(**status_text);
    if (!q.status) {
      return respond_error(
          ctx.response, 400,
          "status must be one of: " + std::string(domain::kConversationStatusList) + ", all");
    }
  }
  if (*tag) q.tag = std::string(**tag);
  q.search_folded = common->search_folded;
  q.sort = *sort;
  const std::string binding =
      cursor_binding(ctx, "conversations",
                     {sort_field_name(kConversationSorts, sort->field),
                      sort->direction == store::SortDirection::kAsc ? "asc" : "desc",
                      q.status ? domain::to_string(*q.status) : "",
                      q.tag ? std::string_view("tag=") : "", q.tag ? *q.tag : "", q.search_folded});
  auto page = take_or_answer(ctx, decode_page(*common, ctx.cursors, binding));
  if (!page) return;
  q.page = *page;

  const auto result = ctx.store.list_conversations(ctx.workspace, q);
  respond_page(ctx, result, common->limit, binding, write_conversation_item);
}

void get_conversation(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  auto detail = ctx.store.get_conversation(ctx.workspace, domain::ConversationId{*id});
  if (!detail) return respond_error(ctx.response, 404, not_found_message("conversation"));
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_conversation_detail(w, *detail); });
}

void update_conversation(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  auto body = require_json_body(ctx);
  if (!body) return;
  auto patch = take_or_answer(ctx, decode_conversation_patch(*body));
  if (!patch) return;
  auto result = ctx.store.update_conversation(ctx.workspace, domain::ConversationId{*id}, *patch);
  if (std::holds_alternative<store::NotFound>(result)) {
    return respond_error(ctx.response, 404, not_found_message("conversation"));
  }
  if (const auto* bad = std::get_if<store::InvalidReference>(&result)) {
    const char* what = bad->field == "agent_id" ? "an agent" : "a department";
    return respond_error(ctx.response, 400,
                         bad->field + " does not name " + what + " of this workspace");
  }
  const auto& patched = std::get<domain::ConversationPatchResult>(result);
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_conversation_patched(w, patched); });
}

}  // namespace

void handle_conversations(ResourceContext& ctx) {
  if (ctx.request.method == "GET") {
    return ctx.query.has("id") ? get_conversation(ctx) : list_conversations(ctx);
  }
  return update_conversation(ctx);
}

}  // namespace leadline::api
