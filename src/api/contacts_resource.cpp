// /contacts: list (search, tag, sort, paging), get one, create (e-mail de-duplication), update,
// delete.
#include <array>

#include "api/record_bodies.hpp"
#include "api/record_json.hpp"
#include "api/resource_context.hpp"
#include "api/resource_support.hpp"

namespace leadline::api {

namespace {

using store::ContactSortField;

constexpr std::string_view kDuplicateEmail = "A contact with this email already exists";

constexpr std::array<std::pair<std::string_view, ContactSortField>, 4> kContactSorts{{
    {"created_at", ContactSortField::kCreatedAt},
    {"last_activity", ContactSortField::kLastActivity},
    {"name", ContactSortField::kName},
    {"email", ContactSortField::kEmail},
}};

void respond_duplicate(ResourceContext& ctx, const store::EmailConflict& conflict) {
  ctx.response.status = 409;
  ctx.response.body.clear();
  JsonWriter w(ctx.response.body);
  w.begin_object()
      .field("success", false)
      .field("error", kDuplicateEmail)
      .key("data")
      .begin_object()
      .field("id", conflict.existing_id.value)
      .end_object()
      .end_object();
}

void list_contacts(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"search", "tag", "sort", "limit", "cursor", "page"})) {
    return respond_error(ctx.response, 400, e->message);
  }
  auto common = take_or_answer(ctx, decode_common_list_params(ctx.query));
  if (!common) return;
  auto sort =
      take_or_answer(ctx, decode_sort(ctx.query, kContactSorts, ContactSortField::kCreatedAt));
  if (!sort) return;
  auto tag = take_or_answer(ctx, non_empty_param(ctx.query, "tag"));
  if (!tag) return;

  store::ContactListQuery q;
  if (*tag) q.tag = std::string(**tag);
  q.search_folded = common->search_folded;
  q.sort = *sort;
  const std::string binding =
      cursor_binding(ctx, "contacts",
                     {sort_field_name(kContactSorts, sort->field),
                      sort->direction == store::SortDirection::kAsc ? "asc" : "desc",
                      q.tag ? std::string_view("tag=") : std::string_view(), q.tag ? *q.tag : "",
                      q.search_folded});
  auto page = take_or_answer(ctx, decode_page(*common, ctx.cursors, binding));
  if (!page) return;
  q.page = *page;

  const auto result = ctx.store.list_contacts(ctx.workspace, q);
  respond_page(ctx, result, common->limit, binding, write_contact_item);
}

void get_contact(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  auto contact = ctx.store.get_contact(ctx.workspace, domain::ContactId{*id});
  if (!contact) return respond_error(ctx.response, 404, not_found_message("contact"));
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_contact_item(w, *contact); });
}

void create_contact(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({})) return respond_error(ctx.response, 400, e->message);
  auto body = require_json_body(ctx);
  if (!body) return;
  auto contact = take_or_answer(ctx, decode_contact_create(*body));
  if (!contact) return;
  auto result = ctx.store.create_contact(ctx.workspace, *contact);
  if (const auto* conflict = std::get_if<store::EmailConflict>(&result)) {
    return respond_duplicate(ctx, *conflict);
  }
  const auto& created = std::get<domain::Contact>(result);
  respond_data(ctx.response, 201, [&](JsonWriter& w) { write_contact_created(w, created); });
}

void update_contact(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  auto body = require_json_body(ctx);
  if (!body) return;
  auto patch = take_or_answer(ctx, decode_contact_patch(*body));
  if (!patch) return;
  auto result = ctx.store.update_contact(ctx.workspace, domain::ContactId{*id}, *patch);
  if (std::holds_alternative<store::NotFound>(result)) {
    return respond_error(ctx.response, 404, not_found_message("contact"));
  }
  if (const auto* conflict = std::get_if<store::EmailConflict>(&result)) {
    return respond_duplicate(ctx, *conflict);
  }
  const auto& contact = std::get<domain::Contact>(result);
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_contact_item(w, contact); });
}

void delete_contact(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  if (!ctx.store.delete_contact(ctx.workspace, domain::ContactId{*id})) {
    return respond_error(ctx.response, 404, not_found_message("contact"));
  }
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_deleted(w, *id); });
}

}  // namespace

void handle_contacts(ResourceContext& ctx) {
  const std::string_view method = ctx.request.method;
  if (method == "GET") return ctx.query.has("id") ? get_contact(ctx) : list_contacts(ctx);
  if (method == "POST") return create_contact(ctx);
  if (method == "PATCH") return update_contact(ctx);
  return delete_contact(ctx);
}

}  // namespace leadline::api
