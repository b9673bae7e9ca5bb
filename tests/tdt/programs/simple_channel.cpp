// The simple-channel flow (acl-api-ext.md §8.5, S46): send one dataset of
// four floats over a capacity-2 channel, receive it, query the size around.
#include <cstdio>
#include <vector>

#include "2_advanced_features/tdt_common_utils.h"
#include "acl/acl.h"
#include "utils.h"

namespace {

void Dump(const acltdtDataset* ds) {
  INFO_LOG("Dataset size: %zu", acltdtGetDatasetSize(ds));
  for (size_t i = 0; i < acltdtGetDatasetSize(ds); ++i) {
    acltdtDataItem* item = acltdtGetDataItem(ds, i);
    int64_t dims[8] = {};
    const size_t n = acltdtGetDimNumFromItem(item);
    if (acltdtGetDimsFromItem(item, dims, 8) != ACL_SUCCESS) return;
    const float* f = static_cast<const float*>(acltdtGetDataAddrFromItem(item));
    std::printf("[INFO]  Tensor type=%d, data type=%d, bytes=%zu, dims=(", static_cast<int>(acltdtGetTensorTypeFromItem(item)),
                static_cast<int>(acltdtGetDataTypeFromItem(item)), acltdtGetDataSizeFromItem(item));
    for (size_t d = 0; d < n; ++d) std::printf("%s%lld", d ? ", " : "", static_cast<long long>(dims[d]));
    std::printf("), firstValue=%.3f\n", f ? static_cast<double>(f[0]) : 0.0);
  }
}

}  // namespace

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "simple_tdt_channel", 2);
  if (ch == nullptr) {
    WARN_LOG("channel not available");
    return 0;
  }
  std::vector<float> v{1.0f, 2.0f, 3.0f, 4.0f};
  acltdtDataset* sent = tdt::CreateFloatDataset(v);
  acltdtDataset* recv = acltdtCreateDataset();
  if (sent == nullptr || recv == nullptr) return 1;
  Dump(sent);
  if (acltdtSendTensor(ch, sent, 1000) != ACL_SUCCESS) return 1;
  size_t size = 0;
  if (acltdtQueryChannelSize(ch, &size) != ACL_SUCCESS) return 1;
  INFO_LOG("Channel size after send: %zu", size);
  if (acltdtReceiveTensor(ch, recv, 1000) != ACL_SUCCESS) return 1;
  Dump(recv);
  if (acltdtQueryChannelSize(ch, &size) != ACL_SUCCESS) return 1;
  INFO_LOG("Channel size after receive: %zu", size);
  if (acltdtCleanChannel(ch) != ACL_SUCCESS || acltdtStopChannel(ch) != ACL_SUCCESS ||
      acltdtDestroyChannel(ch) != ACL_SUCCESS)
    return 1;
  tdt::DestroyDataset(recv);
  tdt::DestroyDatasetAndItems(sent);
  aclrtResetDevice(0);
  aclFinalize();
  INFO_LOG("simple channel sample run successfully");
  return 0;
}
