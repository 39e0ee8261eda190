// Decodes one line of a `leadline import` file into the record it describes, applying the
// same field rules as the API's create operations.
#pragma once

#include <string_view>

#include "api/decoded.hpp"
#include "store/database.hpp"

namespace leadline::cli {

using ImportRecord = decltype(store::ImportItem::record);

// `text` is one JSON object with a "type" of "lead", "contact" or "conversation".
api::Decoded<ImportRecord> decode_import_line(std::string_view text);

}  // namespace leadline::cli
