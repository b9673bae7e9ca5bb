// libc_sec.so: every function, every documented return code, and what each
// failure leaves in the destination.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
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

// ---- the scanf family

namespace {
constexpr int kScanfEinval = -1;     // NULL buffer/format, or input ended before the first conversion
constexpr int kScanfErrorPara = -2;  // NULL argument pointer, unknown or malformed conversion

int VsscanfHelper(const char* in, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = vsscanf_s(in, fmt, ap);
  va_end(ap);
  return r;
}

// A stream holding `text` (a temporary file, byte oriented).
FILE* StreamOf(const char* text) {
  FILE* f = std::tmpfile();
  if (!f) return nullptr;
  std::fputs(text, f);
  std::rewind(f);
  return f;
}

// The same, wide oriented (written with fputws: a stream keeps its orientation).
FILE* WideStreamOf(const wchar_t* text) {
  FILE* f = std::tmpfile();
  if (!f) return nullptr;
  std::fputws(text, f);
  std::rewind(f);
  return f;
}
}  // namespace

TEST(SecurecScanf, NumbersAndLengthModifiers) {
  int i = 0;
  unsigned u = 0;
  long l = 0;
  long long ll = 0;
  short h = 0;
  signed char hh = 0;
  size_t z = 0;
  EXPECT_EQ(sscanf_s("-12 34 -56 7890123456789 -3 200 99", "%d %u %ld %lld %hd %hhd %zu", &i, &u, &l, &ll, &h, &hh, &z),
            7);
  EXPECT_EQ(i, -12);
  EXPECT_EQ(u, 34u);
  EXPECT_EQ(l, -56);
  EXPECT_EQ(ll, 7890123456789LL);
  EXPECT_EQ(h, -3);
  EXPECT_EQ(hh, static_cast<signed char>(200));
  EXPECT_EQ(z, 99u);
  unsigned x = 0, o = 0;
  int a = 0, b = 0, c = 0;
  EXPECT_EQ(sscanf_s("0x1F 17 0x10 010 10", "%x %o %i %i %i", &x, &o, &a, &b, &c), 5);
  EXPECT_EQ(x, 0x1Fu);
  EXPECT_EQ(o, 017u);
  EXPECT_EQ(a, 16);
  EXPECT_EQ(b, 8);
  EXPECT_EQ(c, 10);
  void* p = nullptr;
  EXPECT_EQ(sscanf_s("0x1234", "%p", &p), 1);
  EXPECT_EQ(p, reinterpret_cast<void*>(0x1234));
  // Width limits the digits; the rest stays for the next directive.
  EXPECT_EQ(sscanf_s("123456", "%3d%d", &a, &b), 2);
  EXPECT_EQ(a, 123);
  EXPECT_EQ(b, 456);
  float f = 0;
  double d = 0;
  long double ld = 0;
  EXPECT_EQ(sscanf_s("1.5 -2.25e2 0x1p3", "%f %lf %Lf", &f, &d, &ld), 3);
  EXPECT_EQ(f, 1.5f);
  EXPECT_EQ(d, -225.0);
  EXPECT_EQ(ld, 8.0L);
  EXPECT_EQ(sscanf_s("inf nan", "%lf %f", &d, &f), 2);
  EXPECT_TRUE(std::isinf(d));
  EXPECT_TRUE(std::isnan(f));
}

TEST(SecurecScanf, StringsTakeTheirBufferSize) {
  char s[8], t[8];
  EXPECT_EQ(sscanf_s("hello world", "%s %s", s, sizeof s, t, sizeof t), 2);
  EXPECT_STREQ(s, "hello");
  EXPECT_STREQ(t, "world");
  // Exactly fits: 7 characters and the zero.
  EXPECT_EQ(sscanf_s("1234567", "%s", s, static_cast<size_t>(8)), 1);
  EXPECT_STREQ(s, "1234567");
  // One too long: the scan stops, the buffer is emptied, earlier fields count.
  int n = 0;
  std::memset(s, 'z', sizeof s);
  EXPECT_EQ(sscanf_s("5 12345678", "%d %s", &n, s, sizeof s), 1);
  EXPECT_EQ(n, 5);
  EXPECT_EQ(s[0], '\0');
  // A width below the buffer cuts the field instead.
  EXPECT_EQ(sscanf_s("abcdefghij", "%3s%s", s, sizeof s, t, sizeof t), 2);
  EXPECT_STREQ(s, "abc");
  EXPECT_STREQ(t, "defghij");
  // Size 0 or above the maximum: stop, buffer untouched.
  std::memset(s, 'z', sizeof s);
  EXPECT_EQ(sscanf_s("abc", "%s", s, static_cast<size_t>(0)), 0);
  EXPECT_EQ(s[0], 'z');
  EXPECT_EQ(sscanf_s("abc", "%s", s, static_cast<size_t>(SECUREC_STRING_MAX_LEN) + 1), 0);
  EXPECT_EQ(s[0], 'z');
  // Only the low 32 bits of the size count (an unsigned int argument works).
  EXPECT_EQ(sscanf_s("abc", "%s", s, (size_t{1} << 32) | 8), 1);
  EXPECT_STREQ(s, "abc");
  // Suppressed fields take no arguments and are not counted.
  EXPECT_EQ(sscanf_s("skip keep", "%*s %s", s, sizeof s), 1);
  EXPECT_STREQ(s, "keep");
}

TEST(SecurecScanf, CharsAndScanSets) {
  char c[4] = {'z', 'z', 'z', 'z'};
  EXPECT_EQ(sscanf_s(" xy", "%c", c, sizeof c), 1);  // %c does not skip blanks
  EXPECT_EQ(c[0], ' ');
  EXPECT_EQ(c[1], 'z');  // and stores no zero
  EXPECT_EQ(sscanf_s("abcd", "%4c", c, sizeof c), 1);
  EXPECT_EQ(std::memcmp(c, "abcd", 4), 0);
  std::memset(c, 'z', sizeof c);
  EXPECT_EQ(sscanf_s("abcde", "%5c", c, sizeof c), 0);  // 5 do not fit in 4
  EXPECT_EQ(c[0], '\0');
  char s[16], t[16];
  EXPECT_EQ(sscanf_s("abc123def", "%[a-z]%[0-9]", s, sizeof s, t, sizeof t), 2);
  EXPECT_STREQ(s, "abc");
  EXPECT_STREQ(t, "123");
  EXPECT_EQ(sscanf_s("key=value;rest", "%[^=]=%[^;]", s, sizeof s, t, sizeof t), 2);
  EXPECT_STREQ(s, "key");
  EXPECT_STREQ(t, "value");
  EXPECT_EQ(sscanf_s("]]x", "%[]]", s, sizeof s), 1);  // ] first is part of the set
  EXPECT_STREQ(s, "]]");
  char small[3];
  EXPECT_EQ(sscanf_s("aaaa", "%[a]", small, sizeof small), 0);
  EXPECT_EQ(small[0], '\0');
  EXPECT_EQ(sscanf_s("123", "%[a-z]", s, sizeof s), 0);  // no character matched
  int n = 0;
  EXPECT_EQ(sscanf_s("abc  12", "%s%n", s, sizeof s, &n), 1);  // %n is not counted
  EXPECT_EQ(n, 3);
  wchar_t w[8];
  EXPECT_EQ(sscanf_s("wide", "%ls", w, sizeof w / sizeof w[0]), 1);
  EXPECT_EQ(std::wcscmp(w, L"wide"), 0);
}

TEST(SecurecScanf, ReturnCodes) {
  int a = 0, b = 0;
  char s[4];
  EXPECT_EQ(sscanf_s(nullptr, "%d", &a), kScanfEinval);
  EXPECT_EQ(sscanf_s("1", nullptr), kScanfEinval);
  EXPECT_EQ(sscanf_s("", "%d", &a), kScanfEinval);  // input ends before the first conversion
  EXPECT_EQ(sscanf_s("   ", "%d", &a), kScanfEinval);
  EXPECT_EQ(sscanf_s("x", "%d", &a), 0);            // matching failure
  EXPECT_EQ(sscanf_s("7", "%d %d", &a, &b), 1);     // input ends after the first
  EXPECT_EQ(sscanf_s("7", "%d", static_cast<int*>(nullptr)), kScanfErrorPara);
  EXPECT_EQ(sscanf_s("abc", "%s", static_cast<char*>(nullptr), sizeof s), kScanfErrorPara);
  EXPECT_EQ(sscanf_s("7", "%y", &a), kScanfErrorPara);  // unknown conversion
  EXPECT_EQ(sscanf_s("7", "%0d", &a), kScanfErrorPara);  // zero width
  EXPECT_EQ(sscanf_s("abc", "%[abc", s, sizeof s), kScanfErrorPara);  // unterminated set
  EXPECT_EQ(sscanf_s("5%", "%d%%", &a), 1);
  EXPECT_EQ(sscanf_s("a=1", "a=%d", &a), 1);
  EXPECT_EQ(a, 1);
  EXPECT_EQ(sscanf_s("b=1", "a=%d", &a), 0);  // literal mismatch
  EXPECT_EQ(VsscanfHelper("3 4", "%d %d", &a, &b), 2);
  EXPECT_EQ(b, 4);
  EXPECT_EQ(VsscanfHelper(nullptr, "%d", &a), kScanfEinval);
}

TEST(SecurecScanf, StreamsAndWide) {
  FILE* f = StreamOf("42 name rest\n");
  ASSERT_NE(f, nullptr);
  int n = 0;
  char s[8];
  EXPECT_EQ(fscanf_s(f, "%d %s", &n, s, sizeof s), 2);
  EXPECT_EQ(n, 42);
  EXPECT_STREQ(s, "name");
  EXPECT_EQ(std::fgetc(f), ' ');  // stops right after the field
  char small[3];
  EXPECT_EQ(fscanf_s(f, "%s", small, sizeof small), 0);  // "rest" does not fit
  EXPECT_EQ(small[0], '\0');
  std::fclose(f);
  f = StreamOf("");
  EXPECT_EQ(fscanf_s(f, "%d", &n), kScanfEinval);
  std::fclose(f);
  EXPECT_EQ(fscanf_s(nullptr, "%d", &n), kScanfEinval);

  wchar_t w[8], w2[8];
  EXPECT_EQ(swscanf_s(L"12 ab cd", L"%d %ls %s", &n, w, sizeof w / sizeof w[0], w2, sizeof w2 / sizeof w2[0]), 3);
  EXPECT_EQ(n, 12);
  EXPECT_EQ(std::wcscmp(w, L"ab"), 0);
  EXPECT_EQ(std::wcscmp(w2, L"cd"), 0);
  EXPECT_EQ(swscanf_s(L"toolong", L"%s", w, static_cast<size_t>(4)), 0);
  EXPECT_EQ(w[0], L'\0');
  EXPECT_EQ(swscanf_s(L"narrow", L"%hs", s, sizeof s), 1);  // %hs stores narrow text
  EXPECT_STREQ(s, "narrow");
  EXPECT_EQ(swscanf_s(nullptr, L"%d", &n), kScanfEinval);
  f = WideStreamOf(L"7 wide");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(fwscanf_s(f, L"%d %ls", &n, w, sizeof w / sizeof w[0]), 2);
  EXPECT_EQ(n, 7);
  EXPECT_EQ(std::wcscmp(w, L"wide"), 0);
  std::fclose(f);
}

// scanf_s and wscanf_s read stdin: a child process with stdin from a pipe.
TEST(SecurecScanf, ScanfReadsStdin) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[1]);
    dup2(fds[0], 0);
    int n = 0;
    char s[8];
    const int r = scanf_s("%d %s", &n, s, sizeof s);
    _exit(r == 2 && n == 99 && std::strcmp(s, "bottles") == 0 ? 0 : 1);
  }
  close(fds[0]);
  const char text[] = "99 bottles\n";
  ASSERT_EQ(write(fds[1], text, sizeof text - 1), static_cast<ssize_t>(sizeof text - 1));
  close(fds[1]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}
