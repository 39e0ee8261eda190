// Ids the black-box suites share.
#pragma once

#include <string>

namespace leadline_test {

// A well-formed record id that no test creates.
inline const std::string kAbsentId = "01890a5d-ac96-774b-bcce-b302099a8057";

}  // namespace leadline_test
