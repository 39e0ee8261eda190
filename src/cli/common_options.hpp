// Options every subcommand shares (--db, --json) and the look-ups most of them start with:
// opening the database and resolving --workspace / --id to records that exist.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "domain/ids.hpp"
#include "store/database.hpp"

namespace leadline::cli {

inline constexpr const char* kDefaultDbUrl = "sqlite:./data/leadline.db";

// --db and --json, appended to every command's own options.
std::vector<OptionSpec> common_options();

// --db, else $LEADLINE_DB, else kDefaultDbUrl.
Result<std::string> resolve_db_url(const ParsedArguments& args);

Result<std::unique_ptr<store::Database>> open_store(const ParsedArguments& args);
// The same for a URL already resolved (serve also reads it from its config file), optionally
// timing every database call into `metrics`.
Result<std::unique_ptr<store::Database>> open_store_at(const std::string& url,
                                                       store::OperationMetrics* metrics = nullptr,
                                                       const store::OpenOptions& options = {});

// --workspace WS, the option existing_workspace reads.
OptionSpec workspace_option();

// --workspace parsed as an id and checked to exist.
Result<domain::WorkspaceId> existing_workspace(store::Database& db, const ParsedArguments& args);

// The canonical form of a UUID given in option --`option`, or a usage failure naming it.
Result<std::string> uuid_option(const ParsedArguments& args, const std::string& option);

// A text option that must not be blank; names the option when it is. Returned trimmed.
Result<std::string> required_text_option(const ParsedArguments& args, const std::string& option);
// The same, at most `max_code_points` long.
Result<std::string> required_text_option(const ParsedArguments& args, const std::string& option,
                                         std::size_t max_code_points);

}  // namespace leadline::cli
