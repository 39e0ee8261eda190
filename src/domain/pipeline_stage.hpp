// Lead pipeline stages and conversation statuses: closed sets, exact lowercase spelling.
#pragma once

#include <optional>
#include <string_view>

namespace leadline::domain {

enum class PipelineStage { kNew, kQualified, kAssigned, kContacted, kConverted, kLost };
enum class ConversationStatus { kOpen, kPending, kActive, kArchived };

std::optional<PipelineStage> parse_pipeline_stage(std::string_view s);
std::string_view to_string(PipelineStage s);

std::optional<ConversationStatus> parse_conversation_status(std::string_view s);
std::string_view to_string(ConversationStatus s);

inline constexpr std::string_view kPipelineStageList =
    "new, qualified, assigned, contacted, converted, lost";
inline constexpr std::string_view kConversationStatusList = "open, pending, active, archived";

}  // namespace leadline::domain
