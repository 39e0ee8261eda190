// /contacts: list (search, tag, sort, paging), get one, create (e-mail de-duplication), update,
// delete.
#include <array>

#include "api/record_bodies.hpp"
#include "api/resource_support.hpp"
#include "record_json/record_shapes.hpp"

namespace leadline::api {

namespace {

using store::ContactSortField;

constexpr std::array<std::pair<std::string_view, ContactSortField>, 4> kContactSorts{{
    {"created_at", ContactSortField::kCreatedAt},
    {"last_activity", ContactSortField::kLastActivity},
    {"name", ContactSortField::kName},
    {"email", ContactSortField::kEmail},
}};

Outcome list_contacts(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"search", "tag", "sort", "limit", "cursor", "page",
                                         "updated_since", "updated_before"})) {
    return *e;
  }
  auto common = decode_common_list_params(ctx.query);
  if (auto* e = failed(common)) return *e;
  auto sort = decode_sort(ctx.query, kContactSorts, ContactSortField::kCreatedAt);
  if (auto* e = failed(sort)) return *e;
  auto tag = non_empty_param(ctx.query, "tag");
  if (auto* e = failed(tag)) return *e;
  auto window = decode_updated_window(ctx.query);
  if (auto* e = failed(window)) return *e;

  store::ContactListQuery q;
  if (value(tag)) q.tag = std::string(*value(tag));
  q.search_folded = value(common).search_folded;
  q.updated = value(window);
  q.sort = value(sort);
  const std::string binding =
      cursor_binding(ctx, "contacts",
                     {sort_field_name(kContactSorts, q.sort.field),
                      q.sort.direction == store::SortDirection::kAsc ? "asc" : "desc",
                      q.tag ? std::string_view("tag=") : std::string_view(), q.tag ? *q.tag : "",
                      q.search_folded}) +
      updated_window_binding(q.updated);
  auto page = decode_page(value(common), ctx.cursors, binding);
  if (auto* e = failed(page)) return *e;
  q.page = value(page);

  respond_streamed_page<domain::Contact>(
      ctx, value(common).limit, binding,
      [&](const store::ItemVisitor<domain::Contact>& visit) {
        return ctx.db.contacts().list(ctx.workspace, q, visit);
      },
      record_json::write_contact_item);
  return kAnswered;
}

Outcome get_contact(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  const auto contact = ctx.db.contacts().get(ctx.workspace, domain::ContactId{value(id)});
  if (!contact) return record_not_found("contact");
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_contact_item(w, *contact); });
  return kAnswered;
}

Outcome create_contact(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({})) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto contact = decode_contact_create(value(body));
  if (auto* e = failed(contact)) return *e;
  const auto result = ctx.db.contacts().create(ctx.workspace, value(contact));
  if (const auto* conflict = std::get_if<store::EmailConflict>(&result)) {
    return duplicate_email(*conflict);
  }
  const auto& created = std::get<domain::Contact>(result);
  respond_data(ctx.response, Success::kCreated,
               [&](JsonWriter& w) { record_json::write_contact_created(w, created); });
  return kAnswered;
}

Outcome update_contact(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto patch = decode_contact_patch(value(body));
  if (auto* e = failed(patch)) return *e;
  const auto result =
      ctx.db.contacts().update(ctx.workspace, domain::ContactId{value(id)}, value(patch));
  if (std::holds_alternative<store::NotFound>(result)) return record_not_found("contact");
  if (const auto* conflict = std::get_if<store::EmailConflict>(&result)) {
    return duplicate_email(*conflict);
  }
  const auto& contact = std::get<domain::Contact>(result);
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_contact_item(w, contact); });
  return kAnswered;
}

Outcome delete_contact(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  if (!ctx.db.contacts().remove(ctx.workspace, domain::ContactId{value(id)})) {
    return record_not_found("contact");
  }
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_deleted(w, value(id)); });
  return kAnswered;
}

}  // namespace

Outcome handle_contacts(ResourceContext& ctx) {
  const std::string_view method = ctx.request.method;
  if (method == "GET") return ctx.query.has("id") ? get_contact(ctx) : list_contacts(ctx);
  if (method == "POST") return create_contact(ctx);
  if (method == "PATCH") return update_contact(ctx);
  return delete_contact(ctx);
}

}  // namespace leadline::api
