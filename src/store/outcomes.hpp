// What a store operation may answer besides its record: outcomes the caller must handle,
// returned as values. Exceptions mean the database itself failed (StoreUnavailable, engine.hpp).
#pragma once

#include <string>
#include <variant>

#include "domain/ids.hpp"

namespace leadline::store {

struct NotFound {};

// A referenced record (rep, agent, department) does not exist in the workspace.
struct InvalidReference {
  std::string field;  // "assigned_rep_id", "agent_id", "department_id"
};

// Contact e-mail already used in the workspace (case-insensitive).
struct EmailConflict {
  domain::ContactId existing_id;
};

template <class T>
using CreateResult = std::variant<T, EmailConflict>;
template <class T>
using UpdateResult = std::variant<T, NotFound, InvalidReference, EmailConflict>;

}  // namespace leadline::store
