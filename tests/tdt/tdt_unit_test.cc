// The TDT engine below the API: the channel message layout and its parser,
// and the queue service's forwarding and hidden queues.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "tdt/codes.h"
#include "tdt/queue_service.h"
#include "tdt/tensor_message.h"

namespace tdt = simnpu::tdt;

TEST(TdtMessage, LayoutAndRoundTrip) {
  static_assert(offsetof(tdt::ItemHeader, data_len) == 56, "data_len closes the 64-byte header");
  static_assert(offsetof(tdt::ItemHeader, slice_num) == 28, "slice fields after the 7 words");
  const float f[3] = {1.5f, -2.0f, 3.25f};
  tdt::TensorView a;
  a.tdt_type = 0;
  a.data_type = 0;
  a.dims = {1, 3};
  a.data = reinterpret_cast<const uint8_t*>(f);
  a.size = sizeof f;
  tdt::TensorView eos;
  eos.tdt_type = 1;
  eos.data_type = -1;
  auto m = tdt::SerializeDataset({a, eos});
  ASSERT_EQ(m->data_len, 64u + 16u + 12u + 64u);
  tdt::ItemHeader h;
  std::memcpy(&h, m->data(), sizeof h);
  EXPECT_EQ(h.cur_cnt, 0u);
  EXPECT_EQ(h.cnt, 2u);
  EXPECT_EQ(h.dim_num, 2u);
  EXPECT_EQ(h.data_len, 12u);
  int64_t dims[2];
  std::memcpy(dims, m->data() + 64, sizeof dims);
  EXPECT_EQ(dims[1], 3);
  EXPECT_EQ(std::memcmp(m->data() + 80, f, sizeof f), 0);
  std::vector<tdt::TensorView> got;
  ASSERT_TRUE(tdt::ParseDataset(*m, &got).ok());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].dims, a.dims);
  EXPECT_EQ(std::memcmp(got[0].data, f, sizeof f), 0);
  EXPECT_EQ(got[1].tdt_type, 1);
  EXPECT_EQ(got[1].data_type, -1);
  EXPECT_EQ(got[1].size, 0u);
}

TEST(TdtMessage, MalformedMessagesAreRefused) {
  tdt::TensorView a;
  a.dims = {4};
  const int32_t v[4] = {1, 2, 3, 4};
  a.data = reinterpret_cast<const uint8_t*>(v);
  a.size = sizeof v;
  auto m = tdt::SerializeDataset({a});
  std::vector<tdt::TensorView> got;
  for (size_t cut : {size_t{10}, size_t{64}, size_t{70}, size_t{80}}) {
    auto t = tdt::MakeMbuf(cut);
    std::memcpy(t->data(), m->data(), cut);
    EXPECT_EQ(tdt::ParseDataset(*t, &got).code(), tdt::kInvalidParam) << cut;
  }
  m->data()[0] ^= 0x40;  // version
  EXPECT_EQ(tdt::ParseDataset(*m, &got).code(), tdt::kInvalidParam);
}

TEST(TdtQueueService, HiddenQueuesAndFanOutCopies) {
  auto& qs = tdt::QueueService::Get();
  auto hidden = qs.Create("", 2, 0, /*hidden=*/true);
  ASSERT_TRUE(hidden.ok());
  EXPECT_EQ(qs.Size(*hidden).status().code(), tdt::kInvalidQueueId);  // invisible to the queue API
  EXPECT_TRUE(qs.Size(*hidden, /*internal=*/true).ok());
  auto a = qs.Create("a", 2, 0, false), b = qs.Create("b", 2, 0, false), c = qs.Create("c", 2, 0, false);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(qs.Create("a", 2, 0, false).status().code(), tdt::kInvalidParam);
  int32_t st = 0;
  ASSERT_TRUE(qs.Bind(*a, *b, &st).ok());
  ASSERT_TRUE(qs.Bind(*a, *c, &st).ok());
  EXPECT_EQ(qs.Bind(*b, *hidden, &st).code(), tdt::kInvalidQueueId);  // hidden queues take no routes
  auto m = tdt::MakeMbuf(4);
  std::memcpy(m->data(), "abcd", 4);
  ASSERT_TRUE(qs.Enqueue(*a, m, 0).ok());
  auto fb = qs.Dequeue(*b, 0);
  auto fc = qs.Dequeue(*c, 0);
  ASSERT_TRUE(fb.ok() && fc.ok());
  EXPECT_NE(fb->get(), fc->get());            // two buffer headers
  EXPECT_EQ((*fb)->area, (*fc)->area);        // one data area
  EXPECT_TRUE(qs.Unbind(*a, *b, &st).ok());
  EXPECT_EQ(st, 0);
  EXPECT_TRUE(qs.Unbind(*a, *c, &st).ok());
  for (uint32_t q : {*a, *b, *c}) EXPECT_TRUE(qs.Destroy(q).ok());
  EXPECT_TRUE(qs.Destroy(*hidden, true).ok());
  EXPECT_EQ(qs.queue_count(), 0u);
}
