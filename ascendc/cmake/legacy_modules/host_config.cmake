# simnpu ascendc.cmake: checks the inputs (SOC_VERSION, ASCEND_CANN_PACKAGE_PATH,
# RUN_MODE) and derives the kernel build settings from the SOC.

# Where this tool lives (the functions run in the caller's scope).
get_filename_component(SIMNPU_ASCENDC_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set_property(GLOBAL PROPERTY SIMNPU_ASCENDC_CMAKE_DIR "${SIMNPU_ASCENDC_CMAKE_DIR}")

# ---- SOC_VERSION: required, matched lower-cased against the product lists.
if(NOT DEFINED SOC_VERSION OR "${SOC_VERSION}" STREQUAL "")
  message(FATAL_ERROR "SOC_VERSION is not set. Set it to the SoC of the device, "
          "e.g. -DSOC_VERSION=Ascend910B1 (aclrtGetSocName() prints it).")
endif()
string(TOLOWER "${SOC_VERSION}" _simnpu_soc)

set(_simnpu_soc_c220
  ascend910b1 ascend910b2 ascend910b2c ascend910b3 ascend910b4 ascend910b4-1
  ascend910_9391 ascend910_9381 ascend910_9372 ascend910_9392 ascend910_9382 ascend910_9362)
set(_simnpu_soc_c100
  ascend910a ascend910proa ascend910b ascend910prob ascend910premiuma)
set(_simnpu_soc_m200
  ascend310p1 ascend310p3 ascend310p5 ascend310p7
  ascend310p3vir01 ascend310p3vir02 ascend310p3vir04 ascend310p3vir08)
set(_simnpu_soc_m300
  ascend310b1 ascend310b2 ascend310b3 ascend310b4)
set(_simnpu_soc_c310
  ascend950pr_9599 ascend950pr_958a ascend950pr_9589 ascend950pr_958b ascend950pr_9579
  ascend950pr_957b ascend950pr_957c ascend950pr_957d ascend950pr_950z
  ascend950dt_950x ascend950dt_950y ascend950dt_95a1 ascend950dt_95a2
  ascend950dt_9591 ascend950dt_9592 ascend950dt_9595 ascend950dt_9596
  ascend950dt_9581 ascend950dt_9582 ascend950dt_9583 ascend950dt_9584
  ascend950dt_9585 ascend950dt_9586 ascend950dt_9587 ascend950dt_9588
  ascend950dt_9571 ascend950dt_9572 ascend950dt_9573 ascend950dt_9574
  ascend950dt_9575 ascend950dt_9576 ascend950dt_9577 ascend950dt_9578
  ascend350_354f ascend350_355e)

# build mode, __NPU_ARCH__, default kernel type (split SOCs: AIV; coupled: AIC)
if(_simnpu_soc IN_LIST _simnpu_soc_c220)
  set(SIMNPU_ASCENDC_BUILD_MODE c220)
  set(SIMNPU_ASCENDC_NPU_ARCH 2201)
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIV)
elseif(_simnpu_soc IN_LIST _simnpu_soc_c310)
  set(SIMNPU_ASCENDC_BUILD_MODE c310)
  set(SIMNPU_ASCENDC_NPU_ARCH 3510)
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIV)
elseif(_simnpu_soc IN_LIST _simnpu_soc_c100)
  set(SIMNPU_ASCENDC_BUILD_MODE c100)
  set(SIMNPU_ASCENDC_NPU_ARCH 1001)
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIC)
elseif(_simnpu_soc IN_LIST _simnpu_soc_m200)
  set(SIMNPU_ASCENDC_BUILD_MODE m200)
  set(SIMNPU_ASCENDC_NPU_ARCH 2002)
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIC)
elseif(_simnpu_soc IN_LIST _simnpu_soc_m300)
  set(SIMNPU_ASCENDC_BUILD_MODE m300)
  set(SIMNPU_ASCENDC_NPU_ARCH 3002)
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIC)
elseif(_simnpu_soc STREQUAL "kirinx90")
  set(SIMNPU_ASCENDC_BUILD_MODE l300)
  set(SIMNPU_ASCENDC_NPU_ARCH "")
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIC)
elseif(_simnpu_soc STREQUAL "kirin9030")
  set(SIMNPU_ASCENDC_BUILD_MODE l311)
  set(SIMNPU_ASCENDC_NPU_ARCH "")
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIC)
elseif(_simnpu_soc MATCHES "^mc62[a-z0-9_]+$")
  set(SIMNPU_ASCENDC_BUILD_MODE m510)
  set(SIMNPU_ASCENDC_NPU_ARCH "")
  set(SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE AIC)
else()
  message(FATAL_ERROR "SOC_VERSION ${SOC_VERSION} is not supported by the Ascend C kernel "
          "build (not in the product lists of ascendc.cmake).")
endif()
unset(_simnpu_soc_c220)
unset(_simnpu_soc_c100)
unset(_simnpu_soc_m200)
unset(_simnpu_soc_m300)
unset(_simnpu_soc_c310)

# ---- ASCEND_CANN_PACKAGE_PATH: required and must exist.
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  message(FATAL_ERROR "ASCEND_CANN_PACKAGE_PATH is not set. Pass the CANN install directory, "
          "e.g. -DASCEND_CANN_PACKAGE_PATH=$ASCEND_HOME_PATH.")
endif()
if(NOT IS_DIRECTORY "${ASCEND_CANN_PACKAGE_PATH}")
  message(FATAL_ERROR "ASCEND_CANN_PACKAGE_PATH ${ASCEND_CANN_PACKAGE_PATH} does not exist.")
endif()
get_filename_component(SIMNPU_ASCENDC_PACKAGE_PATH "${ASCEND_CANN_PACKAGE_PATH}" ABSOLUTE)

# ---- RUN_MODE: npu (default), sim or cpu. All build the simnpu CPU model.
if(NOT DEFINED RUN_MODE OR "${RUN_MODE}" STREQUAL "")
  set(RUN_MODE "npu")
endif()
string(TOLOWER "${RUN_MODE}" _simnpu_run_mode)
if(NOT _simnpu_run_mode MATCHES "^(npu|sim|cpu)$")
  message(FATAL_ERROR "RUN_MODE ${RUN_MODE} is not supported; use npu, sim or cpu.")
endif()
message(STATUS "Ascend C kernels: RUN_MODE=${RUN_MODE}, SOC_VERSION=${SOC_VERSION}: "
        "simnpu builds the CPU model of the kernels (there is no NPU toolchain)")
unset(_simnpu_run_mode)

# ---- other inputs
if(NOT DEFINED ASCEND_PYTHON_EXECUTABLE OR "${ASCEND_PYTHON_EXECUTABLE}" STREQUAL "")
  set(ASCEND_PYTHON_EXECUTABLE python3)
endif()
if(NOT DEFINED ASCEND_KERNEL_LAUNCH_ONLY)
  set(ASCEND_KERNEL_LAUNCH_ONLY OFF)
endif()

# Host processor directory of the install (<p>/<arch>-linux).
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(SIMNPU_ASCENDC_ARCH_DIR aarch64-linux)
else()
  set(SIMNPU_ASCENDC_ARCH_DIR x86_64-linux)
endif()

# Kernel header library (kernel_operator.h) and ACL headers.
if(IS_DIRECTORY "${SIMNPU_ASCENDC_PACKAGE_PATH}/${SIMNPU_ASCENDC_ARCH_DIR}/tikcpp/tikcfw")
  set(ASCENDC_KERNEL_INCLUDE_DIR "${SIMNPU_ASCENDC_PACKAGE_PATH}/${SIMNPU_ASCENDC_ARCH_DIR}/tikcpp/tikcfw")
elseif(IS_DIRECTORY "${SIMNPU_ASCENDC_PACKAGE_PATH}/tikcpp/tikcfw")
  set(ASCENDC_KERNEL_INCLUDE_DIR "${SIMNPU_ASCENDC_PACKAGE_PATH}/tikcpp/tikcfw")
else()
  get_filename_component(ASCENDC_KERNEL_INCLUDE_DIR "${SIMNPU_ASCENDC_CMAKE_DIR}/../tikcfw" ABSOLUTE)
endif()
set(ASCENDC_HOST_INCLUDE_DIR "${SIMNPU_ASCENDC_PACKAGE_PATH}/include")

# Runtime library the kernel libraries carry as a link dependency.
if(EXISTS "${SIMNPU_ASCENDC_PACKAGE_PATH}/lib64/libacl_rt.so")
  set(ASCENDC_RUNTIME_LIBRARY "${SIMNPU_ASCENDC_PACKAGE_PATH}/lib64/libacl_rt.so")
else()
  set(ASCENDC_RUNTIME_LIBRARY "${SIMNPU_ASCENDC_PACKAGE_PATH}/lib64/libascendcl.so")
endif()

# As the real tool does: no RPATH; executables find the CANN libraries
# through LD_LIBRARY_PATH (set_env.sh puts <p>/lib64 there).
set(CMAKE_SKIP_RPATH TRUE)
