// simnpu: the devkit's header of ListTensorDesc / TensorDesc. The model
// declares them in kernel_operator.h (simnpu_ascendc/list_tensor_desc.h);
// this name exists so that programs including it build unchanged.
#ifndef SIMNPU_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#define SIMNPU_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#include "kernel_operator.h"
#endif  // SIMNPU_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
