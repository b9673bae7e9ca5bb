// platform::RangeReadable / CopyIfReadable: the readability proof behind every
// check of caller memory the runtime must not fault on (launch argument
// blocks, placeholder arrays, binary tables). Each path is driven: the
// caller's own stack (no system call), process_vm_readv, and the refusals
// (a PROT_NONE page, a hole, a range running off the top of a stack).
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "platform/vm.h"

namespace {

using simnpu::platform::CopyIfReadable;
using simnpu::platform::RangeReadable;

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));

// Two pages: the first readable (filled with 0..255), the second PROT_NONE.
struct Guarded {
  char* p = nullptr;
  Guarded() {
    void* m = mmap(nullptr, 2 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(MAP_FAILED, m);
    p = static_cast<char*>(m);
    for (size_t i = 0; i < kPage; ++i) p[i] = static_cast<char>(i & 0xff);
    EXPECT_EQ(0, mprotect(p + kPage, kPage, PROT_NONE));
  }
  ~Guarded() { munmap(p, 2 * kPage); }
};

TEST(Readable, LocalArgumentBlockIsReadable) {
  unsigned char blob[256];
  for (size_t i = 0; i < sizeof blob; ++i) blob[i] = static_cast<unsigned char>(i * 7);
  EXPECT_TRUE(RangeReadable(blob, sizeof blob));
  EXPECT_TRUE(RangeReadable(blob + 100, 1));
  unsigned char copy[256] = {};
  ASSERT_TRUE(CopyIfReadable(copy, blob, sizeof blob));
  EXPECT_EQ(0, std::memcmp(copy, blob, sizeof blob));
}

TEST(Readable, HeapBlockIsReadableAndCopiedExactly) {
  std::vector<unsigned char> src(3 * 65536 + 123);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>((i * 131) >> 3);
  EXPECT_TRUE(RangeReadable(src.data(), src.size()));
  std::vector<unsigned char> dst(src.size(), 0xee);
  ASSERT_TRUE(CopyIfReadable(dst.data(), src.data(), src.size()));
  EXPECT_EQ(src, dst);
}

TEST(Readable, ProtNonePageIsRefused) {
  Guarded g;
  EXPECT_TRUE(RangeReadable(g.p, kPage));
  EXPECT_FALSE(RangeReadable(g.p + kPage, 1));
  EXPECT_FALSE(RangeReadable(g.p + kPage - 8, 16));  // straddles into the PROT_NONE page
  std::vector<char> dst(16, 'x');
  EXPECT_FALSE(CopyIfReadable(dst.data(), g.p + kPage - 8, 16));
  // the readable part was not required to be copied, but nothing past dst was written
  std::vector<char> tail(kPage);
  ASSERT_TRUE(CopyIfReadable(tail.data(), g.p, kPage));
  for (size_t i = 0; i < kPage; ++i) ASSERT_EQ(static_cast<char>(i & 0xff), tail[i]) << i;
}

TEST(Readable, HoleAndWrapAroundAreRefused) {
  void* m = mmap(nullptr, kPage, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(MAP_FAILED, m);
  ASSERT_EQ(0, munmap(m, kPage));
  EXPECT_FALSE(RangeReadable(m, 8));
  EXPECT_FALSE(RangeReadable(reinterpret_cast<void*>(UINTPTR_MAX - 15), 32));
  EXPECT_FALSE(RangeReadable(nullptr, 1));
  EXPECT_TRUE(RangeReadable(nullptr, 0));
}

// A thread on a stack of our own whose top page is followed by a PROT_NONE
// page: a range from a local up to the top is readable, one running past it
// is not (the stack shortcut must not vouch for bytes beyond the stack).
struct EdgeResult {
  bool to_top = false, past_top = true, past_top_copy = true;
};
char* g_stack_top = nullptr;
void* EdgeThread(void* arg) {
  auto* r = static_cast<EdgeResult*>(arg);
  // (the frame address, not a local: a sanitizer may keep locals elsewhere)
  char* at = static_cast<char*>(__builtin_frame_address(0));
  const size_t to_top = static_cast<size_t>(g_stack_top - at);
  r->to_top = RangeReadable(at, to_top);
  r->past_top = RangeReadable(at, to_top + 1);
  std::vector<char> dst(to_top + 1);
  r->past_top_copy = CopyIfReadable(dst.data(), at, to_top + 1);
  return nullptr;
}

TEST(Readable, StackShortcutStopsAtTheTopOfTheStack) {
  // (large: ThreadSanitizer keeps its thread state near the top of a stack it
  // is given, and refuses stacks under about 1 MiB)
  const size_t stack_size = 8u << 20;
  char* m = static_cast<char*>(
      mmap(nullptr, stack_size + kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(MAP_FAILED, static_cast<void*>(m));
  ASSERT_EQ(0, mprotect(m + stack_size, kPage, PROT_NONE));
  g_stack_top = m + stack_size;
  pthread_attr_t at;
  ASSERT_EQ(0, pthread_attr_init(&at));
  ASSERT_EQ(0, pthread_attr_setstack(&at, m, stack_size));
  EdgeResult r;
  pthread_t t;
  ASSERT_EQ(0, pthread_create(&t, &at, EdgeThread, &r));
  ASSERT_EQ(0, pthread_join(t, nullptr));
  pthread_attr_destroy(&at);
  munmap(m, stack_size + kPage);
  EXPECT_TRUE(r.to_top);
  EXPECT_FALSE(r.past_top);
  EXPECT_FALSE(r.past_top_copy);
}

}  // namespace
