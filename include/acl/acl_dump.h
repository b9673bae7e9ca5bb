/*
 * simnpu public header: the dump API (libascend_dump.so): operator argument
 * dump, dump callbacks and exception-info dump. The model dump trio
 * (aclmdlInitDump / SetDump / FinalizeDump) is declared in acl/acl_rt.h.
 * Names, values and layouts are those of CANN's acl_dump.h; the file format
 * simnpu writes is described in docs/profiling.md.
 */
#ifndef SIMNPU_ACL_ACL_DUMP_H
#define SIMNPU_ACL_ACL_DUMP_H

#include <stdint.h>

#include "acl/acl_base.h"

#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define ACL_DUMP_API __declspec(dllexport)
#define ACL_DUMP_WEAK
#else
#define ACL_DUMP_API __attribute__((visibility("default")))
#define ACL_DUMP_WEAK __attribute__((weak))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/* One piece of dump data handed to an acldumpRegCallback callback; the data
 * (bufLen bytes) follows the header. 4120 bytes without the data. */
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* absolute path of the file the data belongs to */
  uint32_t bufLen;                              /* bytes in dataBuf */
  uint32_t isLastChunk;                         /* 1 for the file's last chunk */
  int64_t offset;                               /* offset in the file, -1 = append */
  int32_t flag;                                 /* reserved */
  __extension__ uint8_t dataBuf[0];             /* the data (GNU zero-length array, as in CANN) */
} acldumpChunk;

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

typedef enum {
  AIC_ERR_BRIEF_DUMP = 1,
  AIC_ERR_NORM_DUMP = 2,
  AIC_ERR_DETAIL_DUMP = 3,
  DATA_DUMP = 4,
  OVERFLOW_DUMP = 5
} acldumpType;

#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum { ACL_DUMP_TENSOR_INPUT = 0, ACL_DUMP_TENSOR_OUTPUT = 1, ACL_DUMP_TENSOR_WORKSPACE = 2 } acldumpTensorType;

typedef enum { ACL_DUMP_ADDR_PTR = 0, ACL_DUMP_ADDR_PTR_PTR = 1, ACL_DUMP_ADDR_RAW = 2 } acldumpTensorAddressType;

typedef enum {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST = 1,
  ACL_DUMP_PLACEMENT_END = 2
} acldumpTensorPlacement;

/* A tensor described to acldumpSaveExceptionInfo (456 bytes). */
typedef struct acldumpTensorInfo {
  acldumpTensorType type;
  size_t tensorSize;
  int32_t format;
  int32_t dataType;
  int64_t *tensorAddr;
  acldumpTensorAddressType addrType;
  acldumpTensorPlacement placement;
  uint32_t argsOffset;
  uint32_t shapeNum;
  uint32_t originShapeNum;
  uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
  uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

ACL_DUMP_API aclError acldumpRegCallback(int32_t (*messageCallback)(const acldumpChunk *chunk, int32_t len),
                                         int32_t flag);
ACL_DUMP_API void acldumpUnregCallback(void);
ACL_DUMP_API aclError aclopStartDumpArgs(uint32_t dumpType, const char *path);
ACL_DUMP_API aclError aclopStopDumpArgs(uint32_t dumpType);
ACL_DUMP_API const char *acldumpGetPath(acldumpType dumpType);
ACL_DUMP_API ACL_DUMP_WEAK aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                                             const acldumpTensorInfo *tensors, size_t tensorCount);
ACL_DUMP_API ACL_DUMP_WEAK aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACL_ACL_DUMP_H */
