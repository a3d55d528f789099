#pragma once
// TINYREPL_ASAN: this file is compiled under AddressSanitizer, by GCC (__SANITIZE_ADDRESS__) or by
// clang (__has_feature).
#if defined(__SANITIZE_ADDRESS__)
#define TINYREPL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TINYREPL_ASAN 1
#endif
#endif
