// Unit tests of the operator command's argument parser: options, switches, repeats,
// positionals, help, and the usage errors that name the offending flag.
#include <gtest/gtest.h>

#include "cli/argument_parser.hpp"

namespace leadline::cli {
namespace {

CommandSpec sample_spec() {
  return {
      .name = "keys create",
      .summary = "Create an API key.",
      .options = {
          {.name = "workspace", .value_name = "WS", .help = "workspace id", .required = true},
          {.name = "allow-ip", .value_name = "IP", .help = "allowed address", .repeatable = true},
          {.name = "json", .help = "print JSON"}}};
}

ParseOutcome parse(std::vector<std::string> args, const CommandSpec& spec = sample_spec()) {
  return parse_arguments(spec, args);
}

std::string usage_message(const ParseOutcome& outcome) {
  const auto* error = std::get_if<UsageError>(&outcome);
  return error == nullptr ? "<no usage error>" : error->message;
}

TEST(CliArgumentParser, ReadsValuesSwitchesAndRepeats) {
  const auto outcome =
      parse({"--workspace", "ws1", "--allow-ip", "10.0.0.0/8", "--json", "--allow-ip=::1"});
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->value("workspace"), "ws1");
  EXPECT_TRUE(args->has("json"));
  EXPECT_EQ(args->values("allow-ip"), (std::vector<std::string>{"10.0.0.0/8", "::1"}));
  EXPECT_FALSE(args->value("missing").has_value());
}

TEST(CliArgumentParser, EqualsFormAllowsValuesThatLookLikeOptions) {
  const auto outcome = parse({"--workspace=--odd"});
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->value("workspace"), "--odd");
}

TEST(CliArgumentParser, UnknownOptionIsNamed) {
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--bogus"})), "unknown option --bogus");
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "-x"})), "unknown option -x");
}

TEST(CliArgumentParser, MissingRequiredOptionIsNamed) {
  EXPECT_EQ(usage_message(parse({"--json"})), "missing required option --workspace");
}

TEST(CliArgumentParser, MissingValueIsNamed) {
  EXPECT_EQ(usage_message(parse({"--workspace"})), "--workspace needs a value (WS)");
  EXPECT_EQ(usage_message(parse({"--workspace", "--json"})), "--workspace needs a value (WS)");
}

TEST(CliArgumentParser, SwitchTakesNoValue) {
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--json=yes"})), "--json takes no value");
}

TEST(CliArgumentParser, NonRepeatableOptionGivenTwiceIsRefused) {
  EXPECT_EQ(usage_message(parse({"--workspace", "a", "--workspace", "b"})),
            "--workspace is given more than once");
}

TEST(CliArgumentParser, EmptyValueAfterEqualsIsAValue) {
  const auto outcome = parse({"--workspace=", "--allow-ip="});
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr) << usage_message(outcome);
  EXPECT_EQ(args->value("workspace"), "");
  EXPECT_EQ(args->values("allow-ip"), (std::vector<std::string>{""}));
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--json="})), "--json takes no value");
}

TEST(CliArgumentParser, OptionWordAfterAValueOptionMeansTheValueIsMissing) {
  EXPECT_EQ(usage_message(parse({"--workspace", "-x"})), "--workspace needs a value (WS)");
  EXPECT_EQ(usage_message(parse({"--workspace", "--bogus"})), "--workspace needs a value (WS)");
  EXPECT_EQ(usage_message(parse({"--workspace", "--"})), "--workspace needs a value (WS)");
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--allow-ip", "--json"})),
            "--allow-ip needs a value (IP)");

  const auto outcome = parse({"--workspace", "-"});
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr) << usage_message(outcome);
  EXPECT_EQ(args->value("workspace"), "-");
}

TEST(CliArgumentParser, UnknownOptionIsNamedWithoutItsValue) {
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--bogus=1"})), "unknown option --bogus");
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "-xyz"})), "unknown option -xyz");
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--=x"})), "unknown option --");
}

TEST(CliArgumentParser, OptionNamesAreNeverAbbreviated) {
  EXPECT_EQ(usage_message(parse({"--work", "w"})), "unknown option --work");
}

TEST(CliArgumentParser, SwitchGivenTwiceIsRefused) {
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "--json", "--json"})),
            "--json is given more than once");
}

TEST(CliArgumentParser, SwitchIsAbsentUnlessGiven) {
  const auto outcome = parse({"--workspace", "w"});
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr) << usage_message(outcome);
  EXPECT_FALSE(args->has("json"));
  EXPECT_FALSE(args->has("allow-ip"));
  EXPECT_TRUE(args->values("allow-ip").empty());
}

TEST(CliArgumentParser, HelpWinsOverMistakes) {
  EXPECT_TRUE(std::holds_alternative<HelpRequested>(parse({"--bogus", "--help"})));
  EXPECT_TRUE(std::holds_alternative<HelpRequested>(parse({"-h"})));
}

TEST(CliArgumentParser, PositionalsAreCountedAndDashIsStdin) {
  auto spec = sample_spec();
  spec.positionals = {{.name = "FILE", .help = "input"}};
  const auto outcome = parse({"--workspace", "w", "-"}, spec);
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->positionals(), (std::vector<std::string>{"-"}));

  EXPECT_EQ(usage_message(parse({"--workspace", "w"}, spec)), "missing argument FILE");
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "a", "b"}, spec)), "unexpected argument b");
  EXPECT_EQ(usage_message(parse({"--workspace", "w", "x"})), "unexpected argument x");
}

TEST(CliArgumentParser, DoubleDashEndsOptions) {
  auto spec = sample_spec();
  spec.positionals = {{.name = "FILE", .help = "input"}};
  const auto outcome = parse({"--workspace", "w", "--", "--help"}, spec);
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->positionals(), (std::vector<std::string>{"--help"}));
}

TEST(CliArgumentParser, OptionLikeWordsAfterDoubleDashArePositionals) {
  auto spec = sample_spec();
  spec.positionals = {{.name = "FILE", .help = "input"}, {.name = "OTHER", .help = "more"}};
  const auto outcome = parse({"--workspace", "w", "--", "-x", "--json"}, spec);
  const auto* args = std::get_if<ParsedArguments>(&outcome);
  ASSERT_NE(args, nullptr) << usage_message(outcome);
  EXPECT_EQ(args->positionals(), (std::vector<std::string>{"-x", "--json"}));
  EXPECT_FALSE(args->has("json"));
}

TEST(CliArgumentParser, HelpTextListsEveryOption) {
  const std::string help = help_text(sample_spec());
  EXPECT_NE(help.find("Usage: leadline keys create --workspace WS [--allow-ip IP...] [--json]"),
            std::string::npos);
  EXPECT_NE(help.find("--workspace WS"), std::string::npos);
  EXPECT_NE(help.find("(required)"), std::string::npos);
  EXPECT_NE(help.find("(repeatable)"), std::string::npos);
  EXPECT_NE(help.find("--help"), std::string::npos);
}

}  // namespace
}  // namespace leadline::cli
