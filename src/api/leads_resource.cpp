// /leads: list (filters, search, sort, paging), get one, create, update, delete.
#include <array>

#include "api/record_bodies.hpp"
#include "api/resource_support.hpp"
#include "record_json/record_shapes.hpp"

namespace leadline::api {

namespace {

using store::LeadSortField;

constexpr std::array<std::pair<std::string_view, LeadSortField>, 4> kLeadSorts{{
    {"created_at", LeadSortField::kCreatedAt},
    {"updated_at", LeadSortField::kUpdatedAt},
    {"lead_score", LeadSortField::kLeadScore},
    {"visitor_name", LeadSortField::kVisitorName},
}};

Outcome list_leads(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({"stage", "search", "sort", "limit", "cursor", "page",
                                         "updated_since", "updated_before"})) {
    return *e;
  }
  auto common = decode_common_list_params(ctx.query);
  if (auto* e = failed(common)) return *e;
  auto sort = decode_sort(ctx.query, kLeadSorts, LeadSortField::kCreatedAt);
  if (auto* e = failed(sort)) return *e;
  auto stage_text = non_empty_param(ctx.query, "stage");
  if (auto* e = failed(stage_text)) return *e;
  auto window = decode_updated_window(ctx.query);
  if (auto* e = failed(window)) return *e;

  store::LeadListQuery q;
  if (const auto& stage = value(stage_text)) {
    q.stage = domain::parse_pipeline_stage(*stage);
    if (!q.stage) {
      return BadRequest{"stage must be one of: " + std::string(domain::kPipelineStageList)};
    }
  }
  q.search_folded = value(common).search_folded;
  q.updated = value(window);
  q.sort = value(sort);
  const std::string binding =
      cursor_binding(ctx, "leads",
                     {sort_field_name(kLeadSorts, q.sort.field),
                      q.sort.direction == store::SortDirection::kAsc ? "asc" : "desc",
                      q.stage ? domain::to_string(*q.stage) : "", q.search_folded}) +
      updated_window_binding(q.updated);
  auto page = decode_page(value(common), ctx.cursors, binding);
  if (auto* e = failed(page)) return *e;
  q.page = value(page);

  respond_streamed_page<std::string_view>(
      ctx, value(common).limit, binding,
      [&](const store::ItemVisitor<std::string_view>& visit) {
        return ctx.db.leads().list_rendered(ctx.workspace, q, visit);
      },
      [](JsonWriter& w, std::string_view item) { w.raw(item); });
  return kAnswered;
}

Outcome get_lead(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  const auto lead = ctx.db.leads().get(ctx.workspace, domain::LeadId{value(id)});
  if (!lead) return record_not_found("lead");
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_lead_item(w, *lead); });
  return kAnswered;
}

Outcome create_lead(ResourceContext& ctx) {
  if (auto e = ctx.query.reject_unknown({})) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto lead = decode_lead_create(value(body));
  if (auto* e = failed(lead)) return *e;
  const auto created = ctx.db.leads().create(ctx.workspace, value(lead));
  respond_data(ctx.response, Success::kCreated,
               [&](JsonWriter& w) { record_json::write_lead_created(w, created); });
  return kAnswered;
}

Outcome update_lead(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  auto body = json_body(ctx.request);
  if (auto* e = failed(body)) return *e;
  auto patch = decode_lead_patch(value(body));
  if (auto* e = failed(patch)) return *e;
  const auto result = ctx.db.leads().update(ctx.workspace, domain::LeadId{value(id)}, value(patch));
  if (std::holds_alternative<store::NotFound>(result)) return record_not_found("lead");
  if (const auto* bad = std::get_if<store::InvalidReference>(&result)) {
    return BadRequest{bad->field + " does not name a sales rep of this workspace"};
  }
  const auto& lead = std::get<domain::Lead>(result);
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_lead_item(w, lead); });
  return kAnswered;
}

Outcome delete_lead(ResourceContext& ctx) {
  auto id = record_id(ctx.query);
  if (auto* e = failed(id)) return *e;
  if (!ctx.db.leads().remove(ctx.workspace, domain::LeadId{value(id)})) {
    return record_not_found("lead");
  }
  respond_data(ctx.response, Success::kOk,
               [&](JsonWriter& w) { record_json::write_deleted(w, value(id)); });
  return kAnswered;
}

}  // namespace

Outcome handle_leads(ResourceContext& ctx) {
  const std::string_view method = ctx.request.method;
  if (method == "GET") return ctx.query.has("id") ? get_lead(ctx) : list_leads(ctx);
  if (method == "POST") return create_lead(ctx);
  if (method == "PATCH") return update_lead(ctx);
  return delete_lead(ctx);
}

}  // namespace leadline::api
