// The one list of `serve` settings; the defaults here are only shown (--print-config), the
// values they stand for live with the code that applies them.
#include "cli/serve_keys.hpp"

#include <algorithm>
#include <array>

namespace leadline::cli {

namespace {

constexpr std::array kKeys = {
    ServeKey{"db", "LEADLINE_DB", KeyKind::kText, "sqlite:./data/leadline.db", true},
    ServeKey{"db-pool-size", "LEADLINE_DB_POOL_SIZE", KeyKind::kNumber, "16"},
    ServeKey{"listen", "LEADLINE_LISTEN", KeyKind::kText, "127.0.0.1:8080"},
    ServeKey{"rate-limit", "LEADLINE_RATE_LIMIT", KeyKind::kText, "100/60s"},
    ServeKey{"redis", "LEADLINE_REDIS", KeyKind::kText, "", true},
    ServeKey{"trust-proxy", "LEADLINE_TRUST_PROXY", KeyKind::kList},
    ServeKey{"threads", "LEADLINE_THREADS", KeyKind::kNumber},
    ServeKey{"max-connections", "LEADLINE_MAX_CONNECTIONS", KeyKind::kNumber, "10000"},
    ServeKey{"header-timeout-ms", "LEADLINE_HEADER_TIMEOUT_MS", KeyKind::kNumber, "10000"},
    ServeKey{"body-timeout-ms", "LEADLINE_BODY_TIMEOUT_MS", KeyKind::kNumber, "30000"},
    ServeKey{"idle-timeout-ms", "LEADLINE_IDLE_TIMEOUT_MS", KeyKind::kNumber, "60000"},
    ServeKey{"write-timeout-ms", "LEADLINE_WRITE_TIMEOUT_MS", KeyKind::kNumber, "30000"},
    ServeKey{"log-format", "LEADLINE_LOG_FORMAT", KeyKind::kText, "text"},
    ServeKey{"log-level", "LEADLINE_LOG_LEVEL", KeyKind::kText, "info"},
    ServeKey{"admin-listen", "LEADLINE_ADMIN_LISTEN", KeyKind::kText},
    ServeKey{"demo", "LEADLINE_DEMO", KeyKind::kSwitch, "false"},
    ServeKey{"event-retention", "LEADLINE_EVENT_RETENTION", KeyKind::kText, "30d"},
    ServeKey{"webhook-workers", "LEADLINE_WEBHOOK_WORKERS", KeyKind::kNumber, "16"},
    ServeKey{"webhook-timeout", "LEADLINE_WEBHOOK_TIMEOUT", KeyKind::kText, "15s"},
    ServeKey{"webhook-retry-schedule", "LEADLINE_WEBHOOK_RETRY_SCHEDULE", KeyKind::kText,
             "5s,5m,30m,2h,5h,10h,10h"},
    ServeKey{"webhook-disable-after", "LEADLINE_WEBHOOK_DISABLE_AFTER", KeyKind::kText, "5d"},
    ServeKey{"webhook-allow-private", "LEADLINE_WEBHOOK_ALLOW_PRIVATE", KeyKind::kList},
    ServeKey{"webhook-allow-http", "LEADLINE_WEBHOOK_ALLOW_HTTP", KeyKind::kSwitch, "false"},
    ServeKey{"no-dashboard", "LEADLINE_NO_DASHBOARD", KeyKind::kSwitch, "false"},
    ServeKey{"dashboard-session-idle", "LEADLINE_DASHBOARD_SESSION_IDLE", KeyKind::kText, "30m"},
    ServeKey{"dashboard-session-lifetime", "LEADLINE_DASHBOARD_SESSION_LIFETIME", KeyKind::kText,
             "12h"},
};

}  // namespace

std::span<const ServeKey> serve_keys() {
  return kKeys;
}

const ServeKey* find_serve_key(std::string_view name) {
  const auto* it = std::find_if(kKeys.begin(), kKeys.end(),
                                [name](const ServeKey& key) { return key.name == name; });
  return it == kKeys.end() ? nullptr : it;
}

}  // namespace leadline::cli
