// Reads gated on a version (see the header).
#include "store/sql/version_gate.hpp"

namespace leadline::store::sql {

std::string version_gated(std::string_view sql, std::string_view version_sql) {
  std::string out;
  out.reserve(sql.size() + version_sql.size() + 48);
  out.append("SELECT * FROM (")
      .append(sql)
      .append(") AS gated WHERE (")
      .append(version_sql)
      .append(") <> ?");
  return out;
}

void add_gate_params(Params& params, const Params& version_params, std::int64_t held) {
  for (const Value& v : version_params.values()) params.value(v);
  params.int64(held);
}

}  // namespace leadline::store::sql
