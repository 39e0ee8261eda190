// The logger's line formats: JSON with escaped strings and bare numbers, text as key=value with
// quoting only where needed, levels below the minimum dropped, one write per line.

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "observability/logger.hpp"

namespace leadline::observability {
namespace {

TEST(Logger, JsonLinesCarryTimeLevelMessageAndTypedFields) {
  const Logger logger(LogFormat::kJson, Level::kInfo);
  const std::string line = logger.format(Level::kInfo, "request",
                                         {{"route", std::string_view("/api/v1/external/leads")},
                                          {"status", std::int64_t{200}},
                                          {"duration_ms", 0.5},
                                          {"odd", std::string_view("a\"b\\c\nd\x01")}});
  EXPECT_EQ(line.rfind(R"({"time":")", 0), 0u) << line;
  EXPECT_NE(line.find(R"(Z","level":"info","msg":"request","route":"/api/v1/external/leads",)"
                      R"("status":200,"duration_ms":0.500,"odd":"a\"b\\c\nd\u0001"})"),
            std::string::npos)
      << line;
}

TEST(Logger, TextLinesQuoteOnlyWhatNeedsIt) {
  const Logger logger(LogFormat::kText, Level::kInfo);
  const std::string line = logger.format(
      Level::kWarn, "cannot reach Redis",
      {{"redis", std::string_view("127.0.0.1:6379")}, {"empty", std::string_view("")}});
  EXPECT_NE(line.find(R"(Z level=warn msg="cannot reach Redis" redis=127.0.0.1:6379 empty="")"),
            std::string::npos)
      << line;
}

TEST(Logger, LevelsBelowTheMinimumAreDropped) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  {
    const Logger logger(LogFormat::kText, Level::kWarn, fds[1]);
    EXPECT_FALSE(logger.enabled(Level::kInfo));
    logger.log(Level::kInfo, "dropped");
    logger.log(Level::kError, "kept");
  }
  close(fds[1]);
  std::string out;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, n);
  close(fds[0]);
  EXPECT_EQ(out.find("dropped"), std::string::npos);
  EXPECT_NE(out.find("level=error msg=kept\n"), std::string::npos) << out;
}

TEST(Logger, ParsesLevelsAndFormats) {
  EXPECT_EQ(parse_level("debug"), Level::kDebug);
  EXPECT_EQ(parse_level("error"), Level::kError);
  EXPECT_FALSE(parse_level("INFO"));
  EXPECT_EQ(parse_log_format("json"), LogFormat::kJson);
  EXPECT_FALSE(parse_log_format("xml"));
}

}  // namespace
}  // namespace leadline::observability
