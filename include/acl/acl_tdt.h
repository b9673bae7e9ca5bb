/*
 * simnpu public header: TDT data items, datasets and channels.
 *
 * A channel carries datasets (ordered lists of tensors, each a data item)
 * between a producer and a consumer. simnpu implements the queue-backed
 * channel of acltdtCreateChannelWithCapacity: a bounded FIFO of serialised
 * datasets that one process can both send to and receive from; senders block
 * when it is full and receivers when it is empty, up to a timeout in
 * milliseconds (-1 waits forever, 0 does not wait). Library: libacl_tdt_channel.so.
 *
 * Like the CANN header this one is C++ only: acltdtTensorType is an enum tag
 * used as a type name, which a C compiler rejects.
 */
#ifndef SIMNPU_ACL_ACL_TDT_H
#define SIMNPU_ACL_ACL_TDT_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

enum acltdtTensorType {
  ACL_TENSOR_DATA_UNDEFINED = -1,
  ACL_TENSOR_DATA_TENSOR = 0,
  ACL_TENSOR_DATA_END_OF_SEQUENCE = 1,
  ACL_TENSOR_DATA_ABNORMAL = 2,
  ACL_TENSOR_DATA_SLICE_TENSOR = 3,
  ACL_TENSOR_DATA_END_TENSOR = 4
};

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

/* Data items: one tensor (type, shape, element type, borrowed data). */
ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem, size_t *sliceNum,
                                                        size_t *sliceId);
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum);
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims,
                                                         size_t dimNum, aclDataType dataType, void *data,
                                                         size_t size);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem *dataItem);

/* Datasets: what one send or receive moves. */
ACL_FUNC_VISIBILITY acltdtDataset *acltdtCreateDataset(void);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset *dataset);
ACL_FUNC_VISIBILITY acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index);
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset *dataset);
ACL_FUNC_VISIBILITY const char *acltdtGetDatasetName(const acltdtDataset *dataset);

/* Channels. */
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle *handle);
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannel(uint32_t deviceId, const char *name);
ACL_FUNC_VISIBILITY acltdtChannelHandle *acltdtCreateChannelWithCapacity(uint32_t deviceId, const char *name,
                                                                         size_t capacity);
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle *handle);
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle *handle);
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle *handle, const acltdtDataset *dataset,
                                              int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle *handle, acltdtDataset *dataset,
                                                 int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle *handle, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACL_ACL_TDT_H */
