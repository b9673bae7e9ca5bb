// Helpers shared by the TDT test programs (the role the samples' common
// header plays): float datasets that borrow a vector's buffer, and cleanup.
// Inline, so a program that links only the queue library and never calls
// them still links.
#ifndef TDT_TEST_PROGRAMS_TDT_COMMON_UTILS_H
#define TDT_TEST_PROGRAMS_TDT_COMMON_UTILS_H

#include <cstdint>
#include <vector>

#include "acl/acl_tdt.h"

namespace tdt {

inline bool CheckNotNull(const void* p) { return p != nullptr; }

// One TENSOR item, dims {1, N}, ACL_FLOAT, borrowing v's buffer.
inline acltdtDataset* CreateFloatDataset(std::vector<float>& v) {
  const int64_t dims[2] = {1, static_cast<int64_t>(v.size())};
  acltdtDataItem* item =
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, v.data(), v.size() * sizeof(float));
  if (item == nullptr) return nullptr;
  acltdtDataset* ds = acltdtCreateDataset();
  if (ds == nullptr || acltdtAddDataItem(ds, item) != ACL_SUCCESS) {
    acltdtDestroyDataItem(item);
    if (ds != nullptr) acltdtDestroyDataset(ds);
    return nullptr;
  }
  return ds;
}

// A dataset the program filled: destroy its items, then the dataset.
inline void DestroyDatasetAndItems(acltdtDataset* ds) {
  if (ds == nullptr) return;
  for (size_t i = 0; i < acltdtGetDatasetSize(ds); ++i) acltdtDestroyDataItem(acltdtGetDataItem(ds, i));
  acltdtDestroyDataset(ds);
}

// A dataset filled by a receive owns its items.
inline void DestroyDataset(acltdtDataset* ds) {
  if (ds != nullptr) acltdtDestroyDataset(ds);
}

}  // namespace tdt

#endif
