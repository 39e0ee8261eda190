// Statements built from one list of columns ("a, b, c"), so that an INSERT and an UPDATE of the
// same columns cannot drift apart from each other or from the values bound for them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace leadline::store::sql {

// "a = ?, b = ?, c = ?"
std::string set_clause(std::string_view columns);

// "?, ?, ?" for as many columns as `columns` names.
std::string placeholders_for(std::string_view columns);

// "?1, ?2, ?3": the same, numbered, for a statement that refers to one of the values twice.
std::string numbered_placeholders_for(std::string_view columns);

}  // namespace leadline::store::sql
