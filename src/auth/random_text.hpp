// Random text from OpenSSL's CSPRNG for secrets a person reads or types: the random part of API
// keys and generated passwords.
#pragma once

#include <cstddef>
#include <string>

namespace leadline::auth {

// `length` characters of [A-Za-z0-9], each uniformly drawn (rejection sampling) from RAND_bytes.
// Throws std::runtime_error when OpenSSL has no randomness to give.
std::string random_alphanumeric(std::size_t length);

// 20 alphanumerics, about 119 bits: a password nobody chose (the demo's dashboard user), well
// inside the password rule's 12 to 128 characters and easy to copy from a terminal.
inline constexpr std::size_t kGeneratedPasswordLength = 20;
std::string generate_password();

}  // namespace leadline::auth
