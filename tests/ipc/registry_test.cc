// The machine-wide registry (sim/registry.h) reads text fields that any
// process of the user can overwrite: every compare and copy is bounded by
// the field, and a record whose field is not NUL-terminated is refused with
// ACL_ERROR_RT_DRV_INTERNAL_ERROR (507899) and a message naming the field.
//
// The test corrupts records the way a broken or hostile process could: it
// writes into the shared mapping through its own sim::Registry (the static
// library, a second mapping of the same file next to the one inside
// libacl_rt.so). Each case runs in its own process with its own
// shared-memory directory, so no other test sees the damage.
#include <unistd.h>

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "ipc/ipc_fixture.h"
#include "sim/registry.h"

namespace {

using simnpu::Status;
using simnpu::sim::ExportKind;
using simnpu::sim::RegExport;
using simnpu::sim::Registry;

class RegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    simnpu_test::UsePrivateShmDir("simnpu-regtest");  // before the first Registry::Get()
    ASSERT_TRUE(Registry::Get().ok()) << Registry::Get().error();
  }

  // A fresh export of `kind` with handle value `handle`; its slot and key.
  int Export(ExportKind kind, uint64_t handle, std::string* key) {
    RegExport rec{};
    rec.kind = static_cast<uint32_t>(kind);
    rec.handle = handle;
    auto slot = Registry::Get().AddExport(rec, key);
    EXPECT_TRUE(slot.ok()) << slot.status().message();
    return slot.ok() ? slot.value() : -1;
  }
};

TEST_F(RegistryTest, BoundedFieldHelpers) {
  char f[8];
  std::memcpy(f, "abc\0zzzz", 8);
  ASSERT_TRUE(simnpu::sim::FieldText(f).has_value());
  EXPECT_EQ("abc", *simnpu::sim::FieldText(f));
  EXPECT_TRUE(simnpu::sim::FieldEquals(f, "abc"));
  EXPECT_FALSE(simnpu::sim::FieldEquals(f, "ab"));
  EXPECT_FALSE(simnpu::sim::FieldEquals(f, "abcz"));
  std::memcpy(f, "ab\0cd\0zz", 8);  // bytes after the text do not count
  EXPECT_TRUE(simnpu::sim::FieldEquals(f, "ab"));
  EXPECT_FALSE(simnpu::sim::FieldEquals(f, std::string("ab\0cd", 5)));
  std::memset(f, 'q', sizeof f);  // no NUL anywhere in the field
  EXPECT_FALSE(simnpu::sim::FieldText(f).has_value());
  EXPECT_FALSE(simnpu::sim::FieldEquals(f, "qqqqqqq"));   // 7 q's and the 8th byte is no NUL
  EXPECT_FALSE(simnpu::sim::FieldEquals(f, "qqqqqqqq"));  // as long as the field: never equal
}

// An export whose owner field is not terminated: both lookups refuse it with
// 507899 and say which record and field, instead of reading on into the
// following fields; the next reclaim pass clears it.
TEST_F(RegistryTest, UnterminatedOwnerIsRefused) {
  std::string key;
  const int slot = Export(ExportKind::kMemory, 0x5eed0001, &key);
  ASSERT_GE(slot, 0);
  Status err;
  ASSERT_TRUE(Registry::Get().FindExport(key, ExportKind::kMemory, nullptr, &err).has_value());
  ASSERT_TRUE(err.ok());
  RegExport* e = Registry::Get().Slot(slot);
  ASSERT_NE(nullptr, e);
  std::memset(e->owner_stem, 'Z', sizeof e->owner_stem);
  e->owner_pid = 0x41414141;  // text-like bytes after the field, too
  e->device = 0x41414141;

  int found = -1;
  EXPECT_FALSE(Registry::Get().FindExport(key, ExportKind::kMemory, &found, &err).has_value());
  EXPECT_EQ(simnpu::sim::kRegistryCorrupt, err.code());
  EXPECT_EQ(507899, err.code());
  EXPECT_EQ(-1, found);
  EXPECT_EQ("the machine-wide registry's record " + std::to_string(slot) +
                " (found by key) is corrupt: its owner_stem field is not NUL-terminated; refusing to use it",
            err.message());

  Status err2;
  EXPECT_FALSE(Registry::Get().FindByHandle(0x5eed0001, ExportKind::kMemory, nullptr, &err2).has_value());
  EXPECT_EQ(507899, err2.code());
  EXPECT_NE(std::string::npos, err2.message().find("(found by handle) is corrupt: its owner_stem field"));

  // the owner cannot be named, so the record is reclaimed like a dead one's
  Registry::Get().ReclaimDead();
  EXPECT_EQ(0u, e->kind);
  Status err3;
  EXPECT_FALSE(Registry::Get().FindExport(key, ExportKind::kMemory, nullptr, &err3).has_value());
  EXPECT_TRUE(err3.ok());  // now simply not there
}

// A key field filled to its end matches no key (the compare stops at the
// field's size) and is reported when the record is found by its handle.
TEST_F(RegistryTest, UnterminatedKeyMatchesNothing) {
  std::string key;
  const int slot = Export(ExportKind::kVmm, 0x5eed0002, &key);
  ASSERT_GE(slot, 0);
  RegExport* e = Registry::Get().Slot(slot);
  ASSERT_NE(nullptr, e);
  // the real key, then 'x' to the end of the field: no NUL
  std::memset(e->key + key.size(), 'x', sizeof e->key - key.size());
  Status err;
  EXPECT_FALSE(Registry::Get().FindExport(key, ExportKind::kVmm, nullptr, &err).has_value());
  EXPECT_TRUE(err.ok()) << err.message();
  const std::string longest = key + std::string(sizeof e->key - 1 - key.size(), 'x');
  EXPECT_FALSE(Registry::Get().FindExport(longest, ExportKind::kVmm, nullptr, &err).has_value());
  EXPECT_TRUE(err.ok()) << err.message();
  EXPECT_FALSE(Registry::Get().FindByHandle(0x5eed0002, ExportKind::kVmm, nullptr, &err).has_value());
  EXPECT_EQ(507899, err.code());
  EXPECT_NE(std::string::npos, err.message().find("its key field is not NUL-terminated"));
}

// A process record whose name (or stem) is not terminated: the snapshot
// simnpu-smi prints shows "<corrupt>" for the name, and a stem that cannot
// be named gets the slot reclaimed.
TEST_F(RegistryTest, UnterminatedProcessNameReadsAsCorrupt) {
  const int self = Registry::Get().SelfSlot();
  ASSERT_GE(self, 0);
  simnpu::sim::RegProc* p = Registry::Get().ProcSlot(self);
  ASSERT_NE(nullptr, p);
  std::memset(p->name, 'N', sizeof p->name);
  bool seen = false;
  for (const auto& q : Registry::Get().Processes()) {
    if (q.pid != getpid()) continue;
    seen = true;
    EXPECT_STREQ("<corrupt>", q.name);
    EXPECT_TRUE(simnpu::sim::FieldText(q.stem).has_value());
  }
  EXPECT_TRUE(seen);
  std::memset(p->stem, 'S', sizeof p->stem);
  for (const auto& q : Registry::Get().Processes()) EXPECT_NE(getpid(), q.pid) << "a corrupt slot was kept";
}

// Through the API: aclrtIpcMemImportByKey of a key whose record was
// corrupted answers 507899 with the registry's message.
TEST_F(RegistryTest, ImportOfACorruptRecordFailsWithACode) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, 2u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  char key[65] = {0};
  ASSERT_EQ(ACL_SUCCESS, aclrtIpcMemGetExportKey(dev, 2u << 20, key, sizeof key, 0)) << aclGetRecentErrMsg();
  int slot = -1;
  ASSERT_TRUE(Registry::Get().FindExport(key, ExportKind::kMemory, &slot).has_value());
  RegExport* e = Registry::Get().Slot(slot);
  ASSERT_NE(nullptr, e);
  char saved[sizeof e->owner_stem];
  std::memcpy(saved, e->owner_stem, sizeof saved);
  std::memset(e->owner_stem, 'Z', sizeof e->owner_stem);
  void* imported = nullptr;
  EXPECT_EQ(507899, aclrtIpcMemImportByKey(&imported, key, 0));
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  EXPECT_NE(std::string::npos, std::string(msg).find("is corrupt: its owner_stem field is not NUL-terminated"))
      << msg;
  EXPECT_EQ(nullptr, imported);
  std::memcpy(e->owner_stem, saved, sizeof saved);  // repaired: the owner can close it again
  EXPECT_EQ(ACL_SUCCESS, aclrtIpcMemClose(key)) << aclGetRecentErrMsg();
  EXPECT_EQ(ACL_SUCCESS, aclrtFree(dev));
  EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
  EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

// A notify exported again answers with the key its registry record holds;
// when that record's key was corrupted, 507899 instead of reading on.
TEST_F(RegistryTest, ReExportOfANotifyWithACorruptKeyFailsWithACode) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  char key[65] = {0};
  ASSERT_EQ(ACL_SUCCESS, aclrtNotifyGetExportKey(n, key, sizeof key, 0)) << aclGetRecentErrMsg();
  char again[65] = {0};
  ASSERT_EQ(ACL_SUCCESS, aclrtNotifyGetExportKey(n, again, sizeof again, 0)) << aclGetRecentErrMsg();
  EXPECT_STREQ(key, again);  // one notify, one record
  int slot = -1;
  ASSERT_TRUE(Registry::Get().FindExport(key, ExportKind::kNotify, &slot).has_value());
  RegExport* e = Registry::Get().Slot(slot);
  ASSERT_NE(nullptr, e);
  std::memset(e->key, 'K', sizeof e->key);
  char third[65] = {0};
  EXPECT_EQ(507899, aclrtNotifyGetExportKey(n, third, sizeof third, 0));
  const std::string msg = simnpu_test::TakeMsg();
  EXPECT_NE(std::string::npos, msg.find("record " + std::to_string(slot) + " (this notify's export) is corrupt"))
      << msg;
  EXPECT_STREQ("", third);
  EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(n));
  EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
  EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

}  // namespace
