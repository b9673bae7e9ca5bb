// libc_sec.so: every function, every documented return code, and what each
// failure leaves in the destination.
#include <gtest/gtest.h>

#include <cstring>
#include <cwchar>
#include <string>

#include "securec.h"

namespace {
constexpr size_t kBig = SECUREC_MEM_MAX_LEN + 1;
}

TEST(Securec, CodesHaveTheirValues) {
  EXPECT_EQ(EOK, 0);
  EXPECT_EQ(EINVAL, 22);
  EXPECT_EQ(ERANGE, 34);
  EXPECT_EQ(EINVAL_AND_RESET, 150);
  EXPECT_EQ(ERANGE_AND_RESET, 162);
  EXPECT_EQ(EOVERLAP_AND_RESET, 182);
}

TEST(Securec, MemcpyS) {
  char d[8];
  const char s[] = "abcdefgh";
  std::memset(d, 'z', 8);
  EXPECT_EQ(memcpy_s(d, 8, s, 8), EOK);
  EXPECT_EQ(std::memcmp(d, s, 8), 0);
  EXPECT_EQ(memcpy_s(d, 0, s, 1), ERANGE);
  EXPECT_EQ(memcpy_s(d, kBig, s, 1), ERANGE);
  EXPECT_EQ(memcpy_s(nullptr, 8, s, 1), EINVAL);
  std::memset(d, 'z', 8);
  EXPECT_EQ(memcpy_s(d, 8, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(std::string(d, 8), std::string(8, '\0'));
  std::memset(d, 'z', 8);
  EXPECT_EQ(memcpy_s(d, 4, s, 5), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(d, 8), std::string(4, '\0') + "zzzz");
  char o[16] = "0123456789";
  EXPECT_EQ(memcpy_s(o + 2, 8, o, 4), EOVERLAP_AND_RESET);
  EXPECT_EQ(std::string(o + 2, 8), std::string(8, '\0'));
  EXPECT_EQ(memcpy_s(d, 8, s, 0), EOK);  // nothing to copy
  EXPECT_EQ(memcpy_s(d, 8, d, 8), EOK);  // the same buffer
}

TEST(Securec, MemmoveSAllowsOverlap) {
  char o[16] = "0123456789";
  EXPECT_EQ(memmove_s(o + 2, 8, o, 4), EOK);
  EXPECT_EQ(std::string(o, 6), "010123");
  char d[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(memmove_s(d, 0, o, 1), ERANGE);
  EXPECT_EQ(memmove_s(nullptr, 4, o, 1), EINVAL);
  EXPECT_EQ(memmove_s(d, 4, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(std::string(d, 4), std::string(4, '\0'));
  EXPECT_EQ(memmove_s(d, 4, o, 5), ERANGE_AND_RESET);
}

TEST(Securec, MemsetS) {
  char d[8] = {};
  EXPECT_EQ(memset_s(d, 8, 'x', 4), EOK);
  EXPECT_EQ(std::string(d, 8), std::string("xxxx") + std::string(4, '\0'));
  EXPECT_EQ(memset_s(d, 0, 'x', 1), ERANGE);
  EXPECT_EQ(memset_s(d, kBig, 'x', 1), ERANGE);
  EXPECT_EQ(memset_s(nullptr, 8, 'x', 1), EINVAL);
  EXPECT_EQ(memset_s(d, 6, 'y', 7), ERANGE_AND_RESET);  // fills destMax bytes
  EXPECT_EQ(std::string(d, 8), std::string(6, 'y') + std::string(2, '\0'));
  EXPECT_EQ(memset_s(d, 8, 0, 0), EOK);
}

TEST(Securec, StrcpyAndStrncpy) {
  char d[6];
  EXPECT_EQ(strcpy_s(d, 6, "hello"), EOK);
  EXPECT_STREQ(d, "hello");
  EXPECT_EQ(strcpy_s(d, 5, "hello"), ERANGE_AND_RESET);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strcpy_s(d, 0, "a"), ERANGE);
  EXPECT_EQ(strcpy_s(nullptr, 6, "a"), EINVAL);
  std::strcpy(d, "abc");
  EXPECT_EQ(strcpy_s(d, 6, nullptr), EINVAL_AND_RESET);
  EXPECT_STREQ(d, "");
  char o[16] = "overlap";
  EXPECT_EQ(strcpy_s(o + 2, 14, o), EOVERLAP_AND_RESET);
  EXPECT_EQ(o[2], '\0');
  EXPECT_EQ(strncpy_s(d, 6, "hello world", 5), EOK);
  EXPECT_STREQ(d, "hello");
  EXPECT_EQ(strncpy_s(d, 6, "hello world", 6), ERANGE_AND_RESET);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strncpy_s(d, 6, "hi", 5), EOK);
  EXPECT_STREQ(d, "hi");
  EXPECT_EQ(strncpy_s(d, 6, "hi", 0), EOK);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strncpy_s(d, 6, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(strncpy_s(d, 6, "x", kBig), ERANGE_AND_RESET);
  EXPECT_EQ(strncpy_s(nullptr, 6, "x", 1), EINVAL);
  EXPECT_EQ(strncpy_s(d, kBig, "x", 1), ERANGE);
}

TEST(Securec, StrcatAndStrncat) {
  char d[8] = "ab";
  EXPECT_EQ(strcat_s(d, 8, "cde"), EOK);
  EXPECT_STREQ(d, "abcde");
  EXPECT_EQ(strcat_s(d, 8, "fgh"), ERANGE_AND_RESET);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strcat_s(d, 0, "a"), ERANGE);
  EXPECT_EQ(strcat_s(nullptr, 8, "a"), EINVAL);
  std::strcpy(d, "ab");
  EXPECT_EQ(strcat_s(d, 8, nullptr), EINVAL_AND_RESET);
  EXPECT_STREQ(d, "");
  char full[4] = {'a', 'b', 'c', 'd'};  // not terminated within destMax
  EXPECT_EQ(strcat_s(full, 4, "x"), EINVAL_AND_RESET);
  EXPECT_EQ(full[0], '\0');
  std::strcpy(d, "ab");
  EXPECT_EQ(strncat_s(d, 8, "cdefgh", 3), EOK);
  EXPECT_STREQ(d, "abcde");
  EXPECT_EQ(strncat_s(d, 8, "fghij", 3), ERANGE_AND_RESET);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(strncat_s(d, 8, "x", kBig), ERANGE_AND_RESET);
  char o[16] = "abc";
  EXPECT_EQ(strcat_s(o, 16, o + 1), EOVERLAP_AND_RESET);
}

TEST(Securec, Strtok) {
  char s[] = ",a,,bc;d";
  char* ctx = nullptr;
  EXPECT_STREQ(strtok_s(s, ",;", &ctx), "a");
  EXPECT_STREQ(strtok_s(nullptr, ",;", &ctx), "bc");
  EXPECT_STREQ(strtok_s(nullptr, ",;", &ctx), "d");
  EXPECT_EQ(strtok_s(nullptr, ",;", &ctx), nullptr);
  EXPECT_EQ(strtok_s(s, nullptr, &ctx), nullptr);
  EXPECT_EQ(strtok_s(s, ",", nullptr), nullptr);
}

TEST(Securec, SprintfFamily) {
  char d[8];
  EXPECT_EQ(sprintf_s(d, 8, "%d-%s", 12, "ab"), 5);
  EXPECT_STREQ(d, "12-ab");
  EXPECT_EQ(sprintf_s(d, 8, "%s", "too long!"), -1);
  EXPECT_STREQ(d, "");
  EXPECT_EQ(sprintf_s(d, 0, "x"), -1);
  EXPECT_EQ(sprintf_s(nullptr, 8, "x"), -1);
  std::strcpy(d, "abc");
  EXPECT_EQ(sprintf_s(d, 8, nullptr), -1);
  EXPECT_STREQ(d, "");
  // snprintf_s: count below destMax cuts there and reports -1.
  EXPECT_EQ(snprintf_s(d, 8, 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(d, "abc");
  EXPECT_EQ(snprintf_s(d, 8, 3, "%s", "ab"), 2);
  EXPECT_STREQ(d, "ab");
  EXPECT_EQ(snprintf_s(d, 8, 7, "%s", "abcdefg"), 7);
  EXPECT_STREQ(d, "abcdefg");
  EXPECT_EQ(snprintf_s(d, 8, 8, "%s", "abcdefgh"), -1);  // count >= destMax and it does not fit
  EXPECT_STREQ(d, "");
  EXPECT_EQ(snprintf_s(d, 8, kBig, "x"), -1);
  EXPECT_EQ(snprintf_truncated_s(d, 8, "%s", "abcdefghij"), 7);
  EXPECT_STREQ(d, "abcdefg");
  EXPECT_EQ(snprintf_truncated_s(d, 8, "%d", 42), 2);
  EXPECT_EQ(snprintf_truncated_s(d, 0, "x"), -1);
}

TEST(Securec, WideFunctions) {
  wchar_t d[6];
  EXPECT_EQ(wcscpy_s(d, 6, L"hello"), EOK);
  EXPECT_EQ(std::wcscmp(d, L"hello"), 0);
  EXPECT_EQ(wcscpy_s(d, 5, L"hello"), ERANGE_AND_RESET);
  EXPECT_EQ(d[0], L'\0');
  EXPECT_EQ(wcsncpy_s(d, 6, L"abcdef", 3), EOK);
  EXPECT_EQ(std::wcscmp(d, L"abc"), 0);
  EXPECT_EQ(wcscat_s(d, 6, L"de"), EOK);
  EXPECT_EQ(std::wcscmp(d, L"abcde"), 0);
  EXPECT_EQ(wcsncat_s(d, 6, L"xyz", 1), ERANGE_AND_RESET);
  wchar_t m[4] = {1, 2, 3, 4};
  EXPECT_EQ(wmemcpy_s(m, 4, L"abcd", 4), EOK);
  EXPECT_EQ(wmemcpy_s(m, 3, L"abcd", 4), ERANGE_AND_RESET);
  EXPECT_EQ(wmemmove_s(m, 4, m + 1, 3), EOK);
  EXPECT_EQ(wmemcpy_s(nullptr, 4, m, 1), EINVAL);
  wchar_t t[] = L"a b";
  wchar_t* ctx = nullptr;
  EXPECT_EQ(std::wcscmp(wcstok_s(t, L" ", &ctx), L"a"), 0);
  EXPECT_EQ(std::wcscmp(wcstok_s(nullptr, L" ", &ctx), L"b"), 0);
}
