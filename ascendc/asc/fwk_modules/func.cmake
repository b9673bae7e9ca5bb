# simnpu ASC package: the custom-operator-package functions of the devkit
# (npu_op_package and friends) build operator packages for the CANN graph
# engine and the aclnn operator library, which simnpu does not have. They are
# defined so that a project calling one gets a clear error, not "Unknown
# CMake command".

function(_asc_op_package_unsupported name)
  message(FATAL_ERROR "${name}(): custom operator packages (graph engine / aclnn operators) are not "
          "supported by simnpu; build kernels with add_executable/add_library of .asc sources or "
          "ascendc_library() instead.")
endfunction()

foreach(_asc_fn npu_op_package npu_op_kernel_library npu_op_library npu_op_code_gen
                add_npu_support_target npu_op_kernel_sources npu_op_package_add)
  cmake_language(EVAL CODE "function(${_asc_fn})\n_asc_op_package_unsupported(${_asc_fn})\nendfunction()")
endforeach()
unset(_asc_fn)
