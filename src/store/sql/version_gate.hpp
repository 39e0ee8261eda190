// A read that runs only when a version has moved: the statement, wrapped so that it returns no
// row while `version_sql` (one row, one integer) still gives the version the caller already
// holds the answer for. PostgreSQL plans the condition as a one-time filter that it checks
// before running any of the statement's own plan, so a version that has not moved costs the
// version's statement alone (docs/design.md, "Page cache").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "store/sql/params.hpp"

namespace leadline::store::sql {

// `sql` gated on `version_sql`; bind the statement's own parameters, then version_sql's, then
// the version held (add_gate_params).
std::string version_gated(std::string_view sql, std::string_view version_sql);

// Appends the gate's parameters to the statement's own: version_sql's, then `held`.
void add_gate_params(Params& params, const Params& version_params, std::int64_t held);

}  // namespace leadline::store::sql
