// Ascend C model: per-image registry, the exported kernel table and the ELF
// marker section of a fatbin (a shared object built by this test's build),
// and the in-process table of the test executable.
#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "ascendc_model/harness.h"

using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

const simnpu_kernel_desc* Find(const simnpu_kernel_table* t, const char* name) {
  for (uint32_t i = 0; i < t->kernel_count; ++i) {
    if (std::strcmp(t->kernels[i].name, name) == 0) return &t->kernels[i];
  }
  return nullptr;
}

// Returns the contents of the named section, read from the file's section headers.
std::string ReadSection(const std::string& path, const char* name) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (f.size() < sizeof(Elf64_Ehdr)) return "<short file>";
  Elf64_Ehdr eh;
  std::memcpy(&eh, f.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return "<not ELF>";
  if (eh.e_type != ET_DYN) return "<not ET_DYN>";
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  std::memcpy(sh.data(), f.data() + eh.e_shoff, sizeof(Elf64_Shdr) * eh.e_shnum);
  const char* names = f.data() + sh[eh.e_shstrndx].sh_offset;
  for (const auto& s : sh) {
    if (std::strcmp(names + s.sh_name, name) == 0) return std::string(f.data() + s.sh_offset, s.sh_size);
  }
  return "<missing>";
}

TEST(AscModelFatbin, SectionHoldsMagic) {
  const std::string sec = ReadSection(SIMNPU_TEST_FATBIN_PATH, SIMNPU_KERNEL_SECTION);
  ASSERT_GE(sec.size(), 16u) << sec;
  EXPECT_EQ(std::memcmp(sec.data(), SIMNPU_KERNEL_SECTION_MAGIC, 16), 0);
}

TEST(AscModelFatbin, TableThroughDlsymAndRunBlock) {
  void* h = dlopen(SIMNPU_TEST_FATBIN_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  auto fn = reinterpret_cast<simnpu_kernel_table_fn>(dlsym(h, SIMNPU_KERNEL_TABLE_SYMBOL));
  ASSERT_NE(fn, nullptr) << dlerror();
  const simnpu_kernel_table* t = fn();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->magic, SIMNPU_KERNEL_TABLE_MAGIC);
  EXPECT_EQ(t->abi_version, SIMNPU_KERNEL_ABI_VERSION);
  EXPECT_EQ(t->npu_arch, 2201u);
  EXPECT_STREQ(t->soc_version, "Ascend910B1");
  EXPECT_STREQ(t->builder, "simnpu-ascendc 1");
  ASSERT_EQ(t->kernel_count, 3u);  // only this image's kernels
  const simnpu_kernel_desc* scale = Find(t, "fb_scale");
  const simnpu_kernel_desc* trap = Find(t, "fb_trap");
  const simnpu_kernel_desc* st = Find(t, "fb_struct");
  ASSERT_TRUE(scale && trap && st);
  EXPECT_EQ(scale->kernel_type, static_cast<uint32_t>(SIMNPU_KERNEL_AIV));
  EXPECT_EQ(scale->flags, SIMNPU_KERNEL_FLAG_PRINTF);
  EXPECT_EQ(trap->kernel_type, static_cast<uint32_t>(SIMNPU_KERNEL_MIX));
  EXPECT_EQ(st->kernel_type, static_cast<uint32_t>(SIMNPU_KERNEL_AIC));
  ASSERT_EQ(scale->param_count, 3u);
  EXPECT_EQ(scale->params[0].kind, static_cast<uint32_t>(SIMNPU_PARAM_POINTER));
  EXPECT_EQ(scale->params[1].kind, static_cast<uint32_t>(SIMNPU_PARAM_FLOAT));
  EXPECT_EQ(scale->params[2].kind, static_cast<uint32_t>(SIMNPU_PARAM_INT));
  ASSERT_EQ(st->param_count, 2u);
  EXPECT_EQ(st->params[1].kind, static_cast<uint32_t>(SIMNPU_PARAM_STRUCT));
  EXPECT_EQ(st->params[1].size, 8u);
  EXPECT_EQ(st->params[1].align, 4u);
  EXPECT_EQ(trap->param_count, 0u);
  EXPECT_NE(scale->entry, nullptr);
  EXPECT_NE(scale->entry, st->entry);

  // run the kernels like the runtime does
  FakeServices svc;
  Runner r(&svc);
  std::vector<float> x = {1, 2, 3, 4};
  void* px = x.data();
  float s = 2.0f;
  uint32_t n = 4;
  void* argv[] = {&px, &s, &n};
  EXPECT_EQ(r.RunRaw(scale->run_block, 2, argv), 0) << r.FirstError();
  EXPECT_EQ(x[3], 16.0f);
  EXPECT_EQ(svc.AllPrinted(), "fb_scale block 0\nfb_scale block 1\n");
  EXPECT_EQ(r.RunRaw(trap->run_block, 1, nullptr), SIMNPU_BLOCK_TRAP);
  EXPECT_NE(r.errors[0].find("[fb_trap]"), std::string::npos) << r.errors[0];
  uint32_t out = 0;
  void* po = &out;
  struct {
    uint32_t a;
    uint16_t b;
  } tiling{40, 2};
  void* argv2[] = {&po, &tiling};
  EXPECT_EQ(r.RunRaw(st->run_block, 1, argv2), 0);
  EXPECT_EQ(out, 42u);
  EXPECT_EQ(dlclose(h), 0);
}

TEST(AscModelInProcess, ProcessKernelTableHoldsOnlyThisImage) {
  const simnpu_kernel_table* t = ::simnpu::ascendc::ProcessKernelTable();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->magic, SIMNPU_KERNEL_TABLE_MAGIC);
  EXPECT_EQ(t->npu_arch, 2201u);
  ASSERT_EQ(t->kernel_count, 2u);
  EXPECT_STREQ(t->kernels[0].name, "ip_one");
  EXPECT_STREQ(t->kernels[1].name, "ip_two");
  EXPECT_EQ(t, ::simnpu::ascendc::ProcessKernelTable());
  int32_t out = 0;
  void* po = &out;
  int32_t v = 9;
  void* argv[] = {&po, &v};
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.RunRaw(t->kernels[1].run_block, 1, argv), 0);
  EXPECT_EQ(out, 9);
}

// Every <<<>>> launch asks for the table; from several host threads at once
// that must only read it (it rewrote the header on every call before, a data
// race ThreadSanitizer reports).
TEST(AscModelInProcess, ConcurrentCallsOnlyReadTheTable) {
  const simnpu_kernel_table* first = ::simnpu::ascendc::ProcessKernelTable();
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        const simnpu_kernel_table* t2 = ::simnpu::ascendc::ProcessKernelTable();
        if (t2 != first || t2->magic != SIMNPU_KERNEL_TABLE_MAGIC || t2->kernel_count != 2u ||
            t2->soc_version == nullptr || t2->kernels == nullptr) {
          ++bad;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_STREQ(first->soc_version, "");  // this executable names no SOC
}

TEST(AscModelFatbin, ConcurrentTableCallsKeepTheDefinedSoc) {
  void* h = dlopen(SIMNPU_TEST_FATBIN_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  auto fn = reinterpret_cast<simnpu_kernel_table_fn>(dlsym(h, SIMNPU_KERNEL_TABLE_SYMBOL));
  ASSERT_NE(fn, nullptr) << dlerror();
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        const simnpu_kernel_table* t2 = fn();
        if (t2 == nullptr || std::strcmp(t2->soc_version, "Ascend910B1") != 0 || t2->kernel_count != 3u) ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(dlclose(h), 0);
}

}  // namespace
