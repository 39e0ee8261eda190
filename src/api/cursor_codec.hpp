// Opaque list cursors: a keyset position bound to the query it came from (workspace, sort,
// filters, search) and signed with an HMAC under the database's secret, base64url-encoded.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/decoded.hpp"
#include "store/list_query.hpp"

namespace leadline::api {

// Between the parts of a binding (workspace, endpoint, each filter): a byte no part contains.
inline constexpr char kBindingSeparator = '\x1f';

class CursorCodec {
 public:
  explicit CursorCodec(std::string secret) : secret_(std::move(secret)) {}

  // `binding` names everything the position depends on; a cursor only decodes under the same.
  std::string encode(const store::KeysetPosition& position, std::string_view binding) const;
  Decoded<store::KeysetPosition> decode(std::string_view cursor, std::string_view binding) const;

 private:
  std::string secret_;
};

}  // namespace leadline::api
