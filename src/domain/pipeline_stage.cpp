// String forms of the closed value sets.
#include "domain/pipeline_stage.hpp"

#include <array>

namespace leadline::domain {

namespace {
constexpr std::array<std::string_view, 6> kStages = {"new",       "qualified", "assigned",
                                                     "contacted", "converted", "lost"};
constexpr std::array<std::string_view, 4> kStatuses = {"open", "pending", "active", "archived"};
}  // namespace

std::optional<PipelineStage> parse_pipeline_stage(std::string_view s) {
  for (std::size_t i = 0; i < kStages.size(); ++i) {
    if (kStages[i] == s) return static_cast<PipelineStage>(i);
  }
  return std::nullopt;
}

std::string_view to_string(PipelineStage s) {
  return kStages[static_cast<std::size_t>(s)];
}

std::optional<ConversationStatus> parse_conversation_status(std::string_view s) {
  for (std::size_t i = 0; i < kStatuses.size(); ++i) {
    if (kStatuses[i] == s) return static_cast<ConversationStatus>(i);
  }
  return std::nullopt;
}

std::string_view to_string(ConversationStatus s) {
  return kStatuses[static_cast<std::size_t>(s)];
}

}  // namespace leadline::domain
