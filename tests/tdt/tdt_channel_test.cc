// acl/acl_tdt.h: data items, datasets and queue-backed channels — exact
// codes, data byte for byte, capacity, blocking and timeouts, and a
// two-thread producer/consumer.
#include <atomic>
#include <cstring>
#include <thread>

#include "tdt_test_util.h"

using tdttest::FloatDataset;
using tdttest::MsSince;
using tdttest::TdtTest;

namespace {

void DestroyAll(acltdtDataset* ds) {
  for (size_t i = 0; i < acltdtGetDatasetSize(ds); ++i) EXPECT_EQ(acltdtDestroyDataItem(acltdtGetDataItem(ds, i)), 0);
  EXPECT_EQ(acltdtDestroyDataset(ds), ACL_SUCCESS);
}

}  // namespace

TEST_F(TdtTest, DataItemGettersAndChecks) {
  float data[4] = {1, 2, 3, 4};
  const int64_t dims[2] = {1, 4};
  acltdtDataItem* it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT16, data, sizeof data);
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(it), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(it), ACL_FLOAT16);
  EXPECT_EQ(acltdtGetDataAddrFromItem(it), static_cast<void*>(data));
  EXPECT_EQ(acltdtGetDataSizeFromItem(it), sizeof data);
  EXPECT_EQ(acltdtGetDimNumFromItem(it), 2u);
  int64_t got[3] = {-1, -1, -1};
  EXPECT_EQ(acltdtGetDimsFromItem(it, got, 3), ACL_SUCCESS);
  EXPECT_EQ(got[0], 1);
  EXPECT_EQ(got[1], 4);
  EXPECT_EQ(got[2], -1);
  EXPECT_EQ(acltdtGetDimsFromItem(it, got, 1), ACL_ERROR_INVALID_PARAM);   // smaller than the item's dims
  EXPECT_EQ(acltdtGetDimsFromItem(it, nullptr, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetDimsFromItem(it, got, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetDimsFromItem(nullptr, got, 2), ACL_ERROR_INVALID_PARAM);
  size_t num = 9, id = 9;
  EXPECT_EQ(acltdtGetSliceInfoFromItem(it, &num, &id), ACL_SUCCESS);
  EXPECT_EQ(num, 0u);
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(acltdtGetSliceInfoFromItem(it, nullptr, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetSliceInfoFromItem(nullptr, &num, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyDataItem(it), ACL_SUCCESS);
  // A destroyed item is reported, not read.
  EXPECT_EQ(acltdtDestroyDataItem(it), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(tdttest::ErrMsg().find("not a live data item"), std::string::npos);
  EXPECT_EQ(acltdtDestroyDataItem(nullptr), ACL_ERROR_INVALID_PARAM);

  // NULL items.
  EXPECT_EQ(acltdtGetTensorTypeFromItem(nullptr), ACL_TENSOR_DATA_UNDEFINED);
  EXPECT_EQ(acltdtGetDataTypeFromItem(nullptr), ACL_DT_UNDEFINED);
  EXPECT_EQ(acltdtGetDataAddrFromItem(nullptr), nullptr);
  EXPECT_EQ(acltdtGetDataSizeFromItem(nullptr), 0u);
  EXPECT_EQ(acltdtGetDimNumFromItem(nullptr), 0u);
}

TEST_F(TdtTest, CreateDataItemRejects) {
  float data[4] = {};
  const int64_t dims[2] = {2, 2};
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 2, ACL_FLOAT, data, 16), nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT, data, 16), nullptr);
  std::vector<int64_t> many(129, 1);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many.data(), 129, ACL_FLOAT, data, 16), nullptr);
  EXPECT_NE(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many.data(), 128, ACL_FLOAT, data, 16), nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 2, ACL_FLOAT, nullptr, 0), nullptr);
  EXPECT_NE(tdttest::ErrMsg().find("only a TENSOR item has dims"), std::string::npos);
  EXPECT_EQ(acltdtCreateDataItem(static_cast<acltdtTensorType>(7), nullptr, 0, ACL_FLOAT, nullptr, 0), nullptr);
  acltdtDataItem* eos = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_FLOAT, nullptr, 0);
  ASSERT_NE(eos, nullptr);
  EXPECT_EQ(acltdtGetDimNumFromItem(eos), 0u);
  EXPECT_EQ(acltdtDestroyDataItem(eos), ACL_SUCCESS);
}

TEST_F(TdtTest, DatasetBasics) {
  acltdtDataset* ds = acltdtCreateDataset();
  ASSERT_NE(ds, nullptr);
  EXPECT_EQ(acltdtGetDatasetSize(ds), 0u);
  ASSERT_NE(acltdtGetDatasetName(ds), nullptr);
  EXPECT_STREQ(acltdtGetDatasetName(ds), "");
  float a[2] = {1, 2}, b[2] = {3, 4};
  const int64_t dims[1] = {2};
  acltdtDataItem* ia = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, a, 8);
  acltdtDataItem* ib = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, b, 8);
  EXPECT_EQ(acltdtAddDataItem(ds, ia), ACL_SUCCESS);
  EXPECT_EQ(acltdtAddDataItem(ds, ib), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetDatasetSize(ds), 2u);
  EXPECT_EQ(acltdtGetDataItem(ds, 0), ia);
  EXPECT_EQ(acltdtGetDataItem(ds, 1), ib);
  EXPECT_EQ(acltdtGetDataItem(ds, 2), nullptr);
  EXPECT_EQ(acltdtGetDataItem(nullptr, 0), nullptr);
  EXPECT_EQ(acltdtAddDataItem(nullptr, ia), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAddDataItem(ds, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetDatasetSize(nullptr), 0u);
  EXPECT_EQ(acltdtDestroyDataset(nullptr), ACL_ERROR_INVALID_PARAM);

  // Host and device data do not mix in one dataset.
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  acltdtDataItem* id = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, dev, 8);
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(acltdtAddDataItem(ds, id), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(tdttest::ErrMsg().find("cannot be mixed"), std::string::npos);
  acltdtDataset* dds = acltdtCreateDataset();
  EXPECT_EQ(acltdtAddDataItem(dds, id), ACL_SUCCESS);
  EXPECT_EQ(acltdtAddDataItem(dds, ia), ACL_ERROR_INVALID_PARAM);
  DestroyAll(dds);
  DestroyAll(ds);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(TdtTest, CreateChannelChecks) {
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, nullptr, 2), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c", 1), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c", 8193), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(99, "c", 2), nullptr);
  const std::string n127(127, 'n'), n128(128, 'n');
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, n128.c_str(), 2), nullptr);
  acltdtChannelHandle* a = acltdtCreateChannelWithCapacity(0, n127.c_str(), 2);
  ASSERT_NE(a, nullptr);
  acltdtChannelHandle* b = acltdtCreateChannelWithCapacity(0, "c", 8192);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(acltdtStopChannel(a), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(a), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(a), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyChannel(b), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtStopChannel(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtCleanChannel(nullptr), ACL_ERROR_INVALID_PARAM);
  size_t n = 0;
  EXPECT_EQ(acltdtQueryChannelSize(nullptr, &n), ACL_ERROR_INVALID_PARAM);
}

// The flow of the simple-channel sample (acl-api-ext.md §8.5, S46).
TEST_F(TdtTest, SendQueryReceiveClean) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "simple_tdt_channel", 2);
  ASSERT_NE(ch, nullptr);
  std::vector<float> v{1, 2, 3, 4};
  acltdtDataItem* item = nullptr;
  acltdtDataset* sent = FloatDataset(v, &item);
  ASSERT_NE(sent, nullptr);
  acltdtDataset* recv = acltdtCreateDataset();
  ASSERT_EQ(acltdtSendTensor(ch, sent, 1000), ACL_SUCCESS);
  size_t size = 9;
  ASSERT_EQ(acltdtQueryChannelSize(ch, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 1u);
  v.assign({9, 9, 9, 9});  // the message was copied at send time
  ASSERT_EQ(acltdtReceiveTensor(ch, recv, 1000), ACL_SUCCESS);
  ASSERT_EQ(acltdtQueryChannelSize(ch, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 0u);
  ASSERT_EQ(acltdtGetDatasetSize(recv), 1u);
  acltdtDataItem* r = acltdtGetDataItem(recv, 0);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(r), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(r), ACL_FLOAT);
  ASSERT_EQ(acltdtGetDataSizeFromItem(r), 16u);
  ASSERT_EQ(acltdtGetDimNumFromItem(r), 2u);
  int64_t dims[2];
  EXPECT_EQ(acltdtGetDimsFromItem(r, dims, 2), ACL_SUCCESS);
  EXPECT_EQ(dims[0], 1);
  EXPECT_EQ(dims[1], 4);
  const float want[4] = {1, 2, 3, 4};
  EXPECT_EQ(std::memcmp(acltdtGetDataAddrFromItem(r), want, 16), 0);
  // A received dataset owns its items.
  EXPECT_EQ(acltdtAddDataItem(recv, item), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acltdtDestroyDataItem(r), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtCleanChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtStopChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(recv), ACL_SUCCESS);  // destroys its items too
  DestroyAll(sent);
}

// The channel-capacity sample (S47): capacity 2 holds two datasets.
TEST_F(TdtTest, CapacityAndTimeouts) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "capacity_channel", 2);
  ASSERT_NE(ch, nullptr);
  std::vector<float> v{5, 6};
  acltdtDataItem* item = nullptr;
  acltdtDataset* ds = FloatDataset(v, &item);
  ASSERT_NE(ds, nullptr);
  size_t size = 0;
  EXPECT_EQ(acltdtSendTensor(ch, ds, 1000), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(ch, ds, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtQueryChannelSize(ch, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(acltdtSendTensor(ch, ds, 0), ACL_ERROR_RT_QUEUE_FULL);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(acltdtSendTensor(ch, ds, 60), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_GE(MsSince(t0), 55.0);  // it waited (about) the timeout before giving up
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_EQ(acltdtCleanChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtQueryChannelSize(ch, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 0u);
  acltdtDataset* recv = acltdtCreateDataset();
  EXPECT_EQ(acltdtReceiveTensor(ch, recv, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(acltdtReceiveTensor(ch, recv, 40), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_GE(MsSince(t0), 35.0);
  EXPECT_EQ(acltdtSendTensor(ch, ds, -2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSendTensor(ch, ds, 0), ACL_SUCCESS);
  // Receiving into a dataset the program filled itself is refused.
  EXPECT_EQ(acltdtReceiveTensor(ch, ds, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtReceiveTensor(ch, recv, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(recv), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  DestroyAll(ds);
}

TEST_F(TdtTest, ItemKindsAndDeviceDataRoundTrip) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "kinds", 4);
  ASSERT_NE(ch, nullptr);
  // Device data is read at send time.
  int32_t host[8];
  for (int i = 0; i < 8; ++i) host[i] = 100 + i;
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  const int64_t dims[3] = {2, 2, 2};
  acltdtDataset* ds = acltdtCreateDataset();
  acltdtDataItem* t = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 3, ACL_INT32, dev, sizeof host);
  acltdtDataItem* e = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_DT_UNDEFINED, nullptr, 0);
  ASSERT_EQ(acltdtAddDataItem(ds, t), ACL_SUCCESS);
  ASSERT_EQ(acltdtAddDataItem(ds, e), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(ch, ds, -1), ACL_SUCCESS);
  acltdtDataset* recv = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(ch, recv, -1), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetDatasetSize(recv), 2u);
  acltdtDataItem* r0 = acltdtGetDataItem(recv, 0);
  acltdtDataItem* r1 = acltdtGetDataItem(recv, 1);
  EXPECT_EQ(acltdtGetDataTypeFromItem(r0), ACL_INT32);
  EXPECT_EQ(acltdtGetDimNumFromItem(r0), 3u);
  ASSERT_EQ(acltdtGetDataSizeFromItem(r0), sizeof host);
  EXPECT_EQ(std::memcmp(acltdtGetDataAddrFromItem(r0), host, sizeof host), 0);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(r1), ACL_TENSOR_DATA_END_OF_SEQUENCE);
  EXPECT_EQ(acltdtGetDataTypeFromItem(r1), ACL_DT_UNDEFINED);
  EXPECT_EQ(acltdtGetDataSizeFromItem(r1), 0u);
  EXPECT_EQ(acltdtGetDimNumFromItem(r1), 0u);
  // A second receive into the same dataset replaces its items.
  ASSERT_EQ(acltdtSendTensor(ch, ds, -1), ACL_SUCCESS);
  ASSERT_EQ(acltdtReceiveTensor(ch, recv, -1), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetDatasetSize(recv), 2u);
  EXPECT_EQ(acltdtDestroyDataset(recv), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  DestroyAll(ds);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(TdtTest, ReceiveBlocksUntilSend) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "blocking", 2);
  ASSERT_NE(ch, nullptr);
  std::atomic<bool> received{false};
  std::atomic<int> rc{-1};
  std::thread consumer([&] {
    acltdtDataset* recv = acltdtCreateDataset();
    rc = acltdtReceiveTensor(ch, recv, -1);
    received = true;
    acltdtDestroyDataset(recv);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(received.load());  // nothing sent yet: the receive is still waiting
  std::vector<float> v{7};
  acltdtDataItem* item = nullptr;
  acltdtDataset* ds = FloatDataset(v, &item);
  ASSERT_EQ(acltdtSendTensor(ch, ds, -1), ACL_SUCCESS);
  consumer.join();
  EXPECT_EQ(rc.load(), ACL_SUCCESS);
  // A full channel blocks the sender until the consumer makes room.
  ASSERT_EQ(acltdtSendTensor(ch, ds, -1), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(ch, ds, -1), ACL_SUCCESS);
  std::atomic<bool> sent{false};
  std::thread producer([&] {
    rc = acltdtSendTensor(ch, ds, -1);
    sent = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(sent.load());
  acltdtDataset* recv = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(ch, recv, -1), ACL_SUCCESS);
  producer.join();
  EXPECT_EQ(rc.load(), ACL_SUCCESS);
  size_t size = 0;
  EXPECT_EQ(acltdtQueryChannelSize(ch, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(acltdtDestroyDataset(recv), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  DestroyAll(ds);
}

TEST_F(TdtTest, TwoThreadProducerConsumer) {
  constexpr int kCount = 300;
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "pc", 3);
  ASSERT_NE(ch, nullptr);
  std::atomic<int> producer_rc{0};
  std::thread producer([&] {
    for (int i = 0; i < kCount; ++i) {
      int32_t seq = i;
      std::vector<float> payload(static_cast<size_t>(i % 17) + 1);
      for (size_t k = 0; k < payload.size(); ++k) payload[k] = static_cast<float>(i) + 0.25f * static_cast<float>(k);
      const int64_t d0[1] = {1};
      const int64_t d1[1] = {static_cast<int64_t>(payload.size())};
      acltdtDataset* ds = acltdtCreateDataset();
      acltdtDataItem* a = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, d0, 1, ACL_INT32, &seq, sizeof seq);
      acltdtDataItem* b = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, d1, 1, ACL_FLOAT, payload.data(),
                                               payload.size() * sizeof(float));
      acltdtAddDataItem(ds, a);
      acltdtAddDataItem(ds, b);
      const int rc = acltdtSendTensor(ch, ds, -1);
      if (rc != ACL_SUCCESS && producer_rc == 0) producer_rc = rc;
      acltdtDestroyDataItem(a);
      acltdtDestroyDataItem(b);
      acltdtDestroyDataset(ds);
    }
  });
  acltdtDataset* recv = acltdtCreateDataset();
  int bad = 0;
  for (int i = 0; i < kCount; ++i) {
    ASSERT_EQ(acltdtReceiveTensor(ch, recv, 5000), ACL_SUCCESS) << "dataset " << i;
    ASSERT_EQ(acltdtGetDatasetSize(recv), 2u);
    acltdtDataItem* a = acltdtGetDataItem(recv, 0);
    acltdtDataItem* b = acltdtGetDataItem(recv, 1);
    if (*static_cast<int32_t*>(acltdtGetDataAddrFromItem(a)) != i) ++bad;
    const size_t n = static_cast<size_t>(i % 17) + 1;
    if (acltdtGetDataSizeFromItem(b) != n * sizeof(float)) {
      ++bad;
      continue;
    }
    const float* f = static_cast<const float*>(acltdtGetDataAddrFromItem(b));
    for (size_t k = 0; k < n; ++k)
      if (f[k] != static_cast<float>(i) + 0.25f * static_cast<float>(k)) ++bad;
  }
  producer.join();
  EXPECT_EQ(producer_rc.load(), 0);
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(acltdtDestroyDataset(recv), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
}

TEST_F(TdtTest, LegacyChannel) {
  acltdtChannelHandle* ch = acltdtCreateChannel(0, "legacy");
  ASSERT_NE(ch, nullptr);
  size_t size = 0;
  EXPECT_EQ(acltdtQueryChannelSize(ch, &size), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(acltdtCleanChannel(ch), ACL_ERROR_FEATURE_UNSUPPORTED);
  std::vector<float> v{1, 2};
  acltdtDataItem* item = nullptr;
  acltdtDataset* ds = FloatDataset(v, &item);
  EXPECT_EQ(acltdtSendTensor(ch, ds, 100), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSendTensor(ch, ds, -1), ACL_SUCCESS);
  acltdtDataset* recv = acltdtCreateDataset();
  EXPECT_EQ(acltdtReceiveTensor(ch, recv, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtReceiveTensor(ch, recv, -1), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetDatasetSize(recv), 1u);
  EXPECT_EQ(acltdtStopChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(recv), ACL_SUCCESS);
  DestroyAll(ds);
}

TEST_F(TdtTest, ChannelQueuesAreHiddenFromTheQueueApi) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "hidden", 2);
  ASSERT_NE(ch, nullptr);
  // No queue exists for the queue API: id 0 is free, and destroying it fails.
  EXPECT_EQ(acltdtDestroyQueue(0), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyChannel(ch), ACL_SUCCESS);
}
