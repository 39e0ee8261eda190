// /conversations: list (status, search, tag, sort, paging), get one with messages, update.
// Conversations are created only through the operator's import.
#include <array>
#include <optional>

#include "api/record_bodies.hpp"
#include "api/resource_support.hpp"
#include "record_json/record_shapes.hpp"

namespace leadline::api {

namespace {

using store::ConversationSortField;

constexpr std::array<std::pair<std::string_view, ConversationSortField>, 2> kConversationSorts{{
    {"created_at", ConversationSortField::kCreatedAt},
    {"updated_at", ConversationSortField::kUpdatedAt},
}};

Outcome list_conversations(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"status", "search", "tag", "sort", "limit", "cursor",
                                         "page", "updated_since", "updated_before"})) {
    return *e;
  }
  auto common = decode_common_list_params(ctx.query);
  if (auto* e = failed(common)) return *e;
  auto sort = decode_sort(ctx.query, kConversationSorts, ConversationSortField::kCreatedAt);
  if (auto* e = failed(sort)) return *e;
  auto status_text = non_empty_param(ctx.query, "status");
  if (auto* e = failed(status_text)) return *e;
  auto tag = non_empty_param(ctx.query, "tag");
  if (auto* e = failed(tag)) return *e;
  auto window = decode_updated_window(ctx.query);
  if (auto* e = failed(window)) return *e;

  store::ConversationListQuery q;
  if (const auto& status = value(status_text); status && *status != "all") {
    q.status = domain::parse_conversation_status(*status);
    if (!q.status) {
      return BadRequest{"status must be one of: " + std::string(domain::kConversationStatusList) +
                        ", all"};
    }
  }
  if (value(tag)) q.tag = std::string(*value(tag));
  q.search_folded = value(common).search_folded;
  q.updated = value(window);
  q.sort = value(sort);
  const std::string binding =
      cursor_binding(
          ctx, "conversations",
          {sort_field_name(kConversationSorts, q.sort.field),
           q.sort.direction == store::SortDirection::kAsc ? "asc" : "desc",
           q.status ? domain::to_string(*q.status) : "", q.tag ? std::string_view("tag=") : "",
           q.tag ? *q.tag : "", q.search_folded}) +
      updated_window_binding(q.updated);
  auto page = decode_page(value(common), ctx.cursors, binding);
  if (auto* e = failed(page)) return *e;
  q.page = value(page);

  const auto result = ctx.db.conversations().list(ctx.workspace, q);
  respond_page(ctx, result, value(common).limit, binding, record_json::write_conversation_item);
  return kAnswered;
}

Outcome get_conversation(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  // Written as the rows are read; a 404 or an error replaces whatever was begun.
  std::int64_t messages = 0;
  bool found = false;
  respond_data(ctx.response, Success::kOk, [&](JsonWriter&) {
    std::optional<JsonWriter> w;
    found = ctx.db.conversations().render(
        ctx.workspace, domain::ConversationId{value(id)}, ctx.response.body,
        {.head =
             [&](const domain::Conversation& c) {
               messages = 0;
               record_json::begin_conversation_detail(w.emplace(ctx.response.body), c);
             },
         .message =
             [&](const domain::Message& m) {
               record_json::write_message(*w, m);
               ++messages;
             },
         .end = [&] { record_json::end_conversation_detail(*w, messages); }});
  });
  if (!found) return record_not_found("conversation");
  return kAnswered;
}

Outcome update_conversation(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto patch = decode_conversation_patch(value(body));
  if (auto* e = failed(patch)) return *e;
  const auto result =
      ctx.db.conversations().update(ctx.workspace, domain::ConversationId{value(id)}, value(patch));
  if (std::holds_alternative<store::NotFound>(result)) return record_not_found("conversation");
  if (const auto* bad = std::get_if<store::InvalidReference>(&result)) {
    const char* what = bad->field == "agent_id" ? "an agent" : "a department";
    return BadRequest{bad->field + " does not name " + what + " of this workspace"};
  }
  const auto& patched = std::get<domain::ConversationPatchResult>(result);
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_conversation_patched(w, patched); });
  return kAnswered;
}

}  // namespace

Outcome handle_conversations(ResourceContext& ctx) {
  if (ctx.request.method == "GET") {
    return ctx.query.has("id") ? get_conversation(ctx) : list_conversations(ctx);
  }
  return update_conversation(ctx);
}

}  // namespace leadline::api
