// /leads: list (filters, search, sort, paging), get one, create, update, delete.
#include <array>

#include "api/record_bodies.hpp"
#include "api/record_json.hpp"
#include "api/resource_context.hpp"
#include "api/resource_support.hpp"

namespace leadline::api {

namespace {

using store::LeadSortField;

constexpr std::array<std::pair<std::string_view, LeadSortField>, 4> kLeadSorts{{
    {"created_at", LeadSortField::kCreatedAt},
    {"updated_at", LeadSortField::kUpdatedAt},
    {"lead_score", LeadSortField::kLeadScore},
    {"visitor_name", LeadSortField::kVisitorName},
}};

void list_leads(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"stage", "search", "sort", "limit", "cursor", "page"})) {
    return respond_error(ctx.response, 400, e->message);
  }
  auto common = take_or_answer(ctx, decode_common_list_params(ctx.query));
  if (!common) return;
  auto sort = take_or_answer(ctx, decode_sort(ctx.query, kLeadSorts, LeadSortField::kCreatedAt));
  if (!sort) return;
  auto stage_text = take_or_answer(ctx, non_empty_param(ctx.query, "stage"));
  if (!stage_text) return;

  store::LeadListQuery q;
  if (*stage_text) {
    q.stage = domain::parse_pipeline_stage(**stage_text);
    if (!q.stage) {
      return respond_error(ctx.response, 400,
                           "stage must be one of: " + std::string(domain::kPipelineStageList));
    }
  }
  q.search_folded = common->search_folded;
  q.sort = *sort;
  const std::string binding =
      cursor_binding(ctx, "leads",
                     {sort_field_name(kLeadSorts, sort->field),
                      sort->direction == store::SortDirection::kAsc ? "asc" : "desc",
                      q.stage ? domain::to_string(*q.stage) : "", q.search_folded});
  auto page = take_or_answer(ctx, decode_page(*common, ctx.cursors, binding));
  if (!page) return;
  q.page = *page;

  const auto result = ctx.store.list_leads(ctx.workspace, q);
  respond_page(ctx, result, common->limit, binding, write_lead_item);
}

void get_lead(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  auto lead = ctx.store.get_lead(ctx.workspace, domain::LeadId{*id});
  if (!lead) return respond_error(ctx.response, 404, not_found_message("lead"));
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_lead_item(w, *lead); });
}

void create_lead(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({})) return respond_error(ctx.response, 400, e->message);
  auto body = require_json_body(ctx);
  if (!body) return;
  auto lead = take_or_answer(ctx, decode_lead_create(*body));
  if (!lead) return;
  const auto created = ctx.store.create_lead(ctx.workspace, *lead);
  respond_data(ctx.response, 201, [&](JsonWriter& w) { write_lead_created(w, created); });
}

void update_lead(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  auto body = require_json_body(ctx);
  if (!body) return;
  auto patch = take_or_answer(ctx, decode_lead_patch(*body));
  if (!patch) return;
  auto result = ctx.store.update_lead(ctx.workspace, domain::LeadId{*id}, *patch);
  if (std::holds_alternative<store::NotFound>(result)) {
    return respond_error(ctx.response, 404, not_found_message("lead"));
  }
  if (const auto* bad = std::get_if<store::InvalidReference>(&result)) {
    return respond_error(ctx.response, 400,
                         bad->field + " does not name a sales rep of this workspace");
  }
  const auto& lead = std::get<domain::Lead>(result);
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_lead_item(w, lead); });
}

void delete_lead(ResourceContext& ctx) {
  auto id = require_record_id(ctx);
  if (!id) return;
  if (!ctx.store.delete_lead(ctx.workspace, domain::LeadId{*id})) {
    return respond_error(ctx.response, 404, not_found_message("lead"));
  }
  respond_data(ctx.response, 200, [&](JsonWriter& w) { write_deleted(w, *id); });
}

}  // namespace

void handle_leads(ResourceContext& ctx) {
  const std::string_view method = ctx.request.method;
  if (method == "GET") return ctx.query.has("id") ? get_lead(ctx) : list_leads(ctx);
  if (method == "POST") return create_lead(ctx);
  if (method == "PATCH") return update_lead(ctx);
  return delete_lead(ctx);
}

}  // namespace leadline::api
