// acl/acl_rt_allocator.h (acl-api-ext.md §7.1, sample S50 flow).
#include <cstdlib>

#include "acl/acl_rt_allocator.h"
#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;

struct UserAllocator {
  int allocs = 0, frees = 0, advises = 0;
};
struct Block {
  void* addr;
};

void* AllocFn(aclrtAllocator a, size_t size) {
  static_cast<UserAllocator*>(a)->allocs++;
  auto* b = new Block{std::malloc(size)};
  return b;
}
void FreeFn(aclrtAllocator a, aclrtAllocatorBlock block) {
  static_cast<UserAllocator*>(a)->frees++;
  auto* b = static_cast<Block*>(block);
  std::free(b->addr);
  delete b;
}
void* AdviseFn(aclrtAllocator a, size_t size, aclrtAllocatorAddr) {
  static_cast<UserAllocator*>(a)->advises++;
  return new Block{std::malloc(size)};
}
void* AddrFn(aclrtAllocatorBlock block) { return static_cast<Block*>(block)->addr; }

class AllocatorTest : public apitest::DeviceTest {};

TEST_F(AllocatorTest, SampleFlowRegisterGetUnregister) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  UserAllocator state;
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(nullptr, desc);
  EXPECT_ACL_OK(aclrtAllocatorSetObjToDesc(desc, &state));
  EXPECT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc, AllocFn));
  EXPECT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc, FreeFn));
  EXPECT_ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, AdviseFn));
  EXPECT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, AddrFn));
  EXPECT_ACL_OK(aclrtAllocatorRegister(s, desc));

  aclrtAllocatorDesc got = nullptr;
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc af = nullptr;
  aclrtAllocatorFreeFunc ff = nullptr;
  aclrtAllocatorAllocAdviseFunc adv = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc gf = nullptr;
  EXPECT_ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj, &af, &ff, &adv, &gf));
  EXPECT_EQ(desc, got);
  EXPECT_EQ(static_cast<void*>(&state), obj);
  EXPECT_EQ(&AllocFn, af);
  EXPECT_EQ(&FreeFn, ff);
  EXPECT_EQ(&AdviseFn, adv);
  EXPECT_EQ(&AddrFn, gf);
  // The program calls its allocator through what it got back (S50).
  void* b1 = af(obj, 256);
  EXPECT_NE(nullptr, gf(b1));
  void* b2 = adv(obj, 128, nullptr);
  ff(obj, b1);
  ff(obj, b2);
  EXPECT_EQ(1, state.allocs);
  EXPECT_EQ(1, state.advises);
  EXPECT_EQ(2, state.frees);
  // Other outputs may be NULL.
  EXPECT_ACL_OK(aclrtAllocatorGetByStream(s, &got, nullptr, nullptr, nullptr, nullptr, nullptr));
  // The registration is a copy: destroying the descriptor keeps it.
  EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(desc));
  EXPECT_ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(desc, got);
  EXPECT_ACL_OK(aclrtAllocatorUnregister(s));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, &got, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_ACL_OK(aclrtAllocatorUnregister(s));  // nothing registered: not an error
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(AllocatorTest, LastRegistrationWins) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  UserAllocator a, b;
  aclrtAllocatorDesc da = aclrtAllocatorCreateDesc(), db = aclrtAllocatorCreateDesc();
  for (auto [d, o] : {std::pair{da, &a}, std::pair{db, &b}}) {
    EXPECT_ACL_OK(aclrtAllocatorSetObjToDesc(d, o));
    EXPECT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, AllocFn));
    EXPECT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, FreeFn));
    EXPECT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, AddrFn));
  }
  EXPECT_ACL_OK(aclrtAllocatorRegister(s, da));
  EXPECT_ACL_OK(aclrtAllocatorRegister(s, db));  // no alloc-advise: optional
  aclrtAllocatorDesc got = nullptr;
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocAdviseFunc adv = &AdviseFn;
  EXPECT_ACL_OK(aclrtAllocatorGetByStream(s, &got, &obj, nullptr, nullptr, &adv, nullptr));
  EXPECT_EQ(db, got);
  EXPECT_EQ(static_cast<void*>(&b), obj);
  EXPECT_EQ(nullptr, adv);
  EXPECT_ACL_OK(aclrtAllocatorUnregister(s));
  EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(da));
  EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(db));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(AllocatorTest, ArgumentErrors) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  UserAllocator state;
  aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorDestroyDesc(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(nullptr, &state));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(d, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocFuncToDesc(d, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetFreeFuncToDesc(d, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetAllocAdviseFuncToDesc(d, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, nullptr));
  // Incomplete descriptors cannot be registered.
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, d));
  EXPECT_ACL_OK(aclrtAllocatorSetObjToDesc(d, &state));
  EXPECT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(d, AllocFn));
  EXPECT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(d, FreeFn));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, d));  // no get-address function
  EXPECT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, AddrFn));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(nullptr, d));  // not the default stream
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorRegister(s, nullptr));
  aclrtAllocatorDesc got;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(nullptr, &got, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorGetByStream(s, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorUnregister(nullptr));
  EXPECT_ACL_OK(aclrtAllocatorDestroyDesc(d));
  // A destroyed descriptor is no descriptor.
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorDestroyDesc(d));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtAllocatorSetObjToDesc(d, &state));
  EXPECT_FALSE(apitest::TakeErrMsg().empty());
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

}  // namespace
