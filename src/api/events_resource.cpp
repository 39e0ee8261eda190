// /events: the workspace's change feed, oldest first, with type, after and paging; or one event
// by id. Bodies are stored as written at commit and copied into the envelope as they are.
#include "api/resource_support.hpp"
#include "domain/event_types.hpp"
#include "domain/uuid.hpp"

namespace leadline::api {

namespace {

constexpr std::string_view kUnknownAfter = "after names no retained event of this workspace";

void write_event(JsonWriter& w, const store::StoredEvent& event) {
  w.raw(event.body);
}

Outcome list_events(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"type", "after", "limit", "cursor", "page"})) return *e;
  auto common = decode_common_list_params(ctx.query);
  if (auto* e = failed(common)) return *e;
  auto type = non_empty_param(ctx.query, "type");
  if (auto* e = failed(type)) return *e;
  auto after = non_empty_param(ctx.query, "after");
  if (auto* e = failed(after)) return *e;

  store::EventListQuery q;
  if (const auto& t = value(type)) {
    if (domain::is_event_type(*t)) {
      q.type = std::string(*t);
    } else if (const auto prefix = domain::event_family_prefix(*t)) {
      q.type_prefix = std::string(*prefix);
    } else {
      return BadRequest{
          "type must be an event type (lead.created, ...) or a family: lead.*, "
          "contact.*, conversation.* or message.*"};
    }
  }
  if (const auto& a = value(after)) {
    auto id = domain::parse_uuid(*a);
    if (!id) return BadRequest{std::string(kUnknownAfter)};
    q.after = domain::EventId{std::move(*id)};
  }
  const std::string binding = cursor_binding(
      ctx, "events", {value(type).value_or(""), q.after ? std::string_view(q.after->value) : ""});
  auto page = decode_page(value(common), ctx.cursors, binding);
  if (auto* e = failed(page)) return *e;
  q.page = value(page);

  auto result = ctx.db.events().list(ctx.workspace, q);
  if (std::holds_alternative<store::UnknownAfterEvent>(result)) {
    return BadRequest{std::string(kUnknownAfter)};
  }
  respond_page(ctx, std::get<store::Page<store::StoredEvent>>(result), value(common).limit, binding,
               write_event);
  return kAnswered;
}

Outcome get_event(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  const auto event = ctx.db.events().get(ctx.workspace, domain::EventId{value(id)});
  if (!event) return record_not_found("event");
  respond_data(ctx.response, Success::kOk, [&](JsonWriter& w) { write_event(w, *event); });
  return kAnswered;
}

}  // namespace

Outcome handle_events(ResourceContext& ctx) {
  return ctx.query.has("id") ? get_event(ctx) : list_events(ctx);
}

}  // namespace leadline::api
