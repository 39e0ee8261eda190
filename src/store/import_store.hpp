// All-or-nothing intake of leads, contacts and conversations with messages (leadline import).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "domain/records.hpp"
#include "store/operation_runner.hpp"

namespace leadline::store {

// One line of an import file, already validated field by field.
struct ImportItem {
  int line = 0;
  std::variant<domain::NewLead, domain::NewContact, domain::NewConversation> record;
};

// Why an import was rolled back: the first line that could not be stored (duplicate contact
// e-mail, unknown agent or department, ...).
struct ImportFailure {
  int line = 0;
  std::string message;
};

struct ImportCounts {
  std::int64_t conversations = 0;
  std::int64_t contacts = 0;
  std::int64_t leads = 0;
  std::int64_t messages = 0;
};

class ImportStore {
 public:
  explicit ImportStore(OperationRunner& runner) : runner_(runner) {}

  // Items are applied in order, so a conversation can link to a contact created earlier in the
  // same batch; the first item that cannot be stored rolls the whole batch back.
  std::variant<ImportCounts, ImportFailure> apply(const domain::WorkspaceId& ws,
                                                  const std::vector<ImportItem>& items);

 private:
  OperationRunner& runner_;
};

}  // namespace leadline::store
