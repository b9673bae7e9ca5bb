# simnpu ASC language: compiler detection (first configure only), run by
# project(... LANGUAGES ASC) / enable_language(ASC).
#
# The ASC compiler is simnpu's bisheng driver in
# $ASCEND_HOME_PATH/<arch>-linux/ccec_compiler/bin (the install's own copy is
# preferred over any other bisheng on PATH). It writes
# ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake from CMakeASCCompiler.cmake.in.

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64|AMD64)$")
  set(ASCEND_CANN_PACKAGE_LINUX_PATH "$ENV{ASCEND_HOME_PATH}/x86_64-linux")
  set(CMAKE_ASC_COMPILER_ARCHITECTURE_ID "x86_64")
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(ASCEND_CANN_PACKAGE_LINUX_PATH "$ENV{ASCEND_HOME_PATH}/aarch64-linux")
  set(CMAKE_ASC_COMPILER_ARCHITECTURE_ID "aarch64")
else()
  message(FATAL_ERROR "ASC language: host processor ${CMAKE_SYSTEM_PROCESSOR} is not supported "
          "(x86_64 or aarch64).")
endif()

if(NOT CMAKE_ASC_COMPILER)
  find_program(CMAKE_ASC_COMPILER NAMES bisheng
               PATHS "${ASCEND_CANN_PACKAGE_LINUX_PATH}/ccec_compiler/bin"
                     "$ENV{ASCEND_HOME_PATH}/compiler/ccec_compiler/bin"
               NO_DEFAULT_PATH)
  find_program(CMAKE_ASC_COMPILER NAMES bisheng PATHS $ENV{PATH} "$ENV{ASCEND_HOME_PATH}")
endif()
if(NOT CMAKE_ASC_COMPILER)
  message(FATAL_ERROR "ASC language: the ASC compiler (bisheng) was not found in "
          "${ASCEND_CANN_PACKAGE_LINUX_PATH}/ccec_compiler/bin. Is ASCEND_HOME_PATH "
          "($ENV{ASCEND_HOME_PATH}) a simnpu install?")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)

set(CMAKE_ASC_COMPILER_ID "simnpu")
set(CMAKE_ASC_COMPILER_VERSION "1.0")
if(NOT CMAKE_ASC_SOURCE_FILE_EXTENSIONS)
  set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
endif()
set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
if(NOT CMAKE_ASC_STANDARD_DEFAULT)
  set(CMAKE_ASC_STANDARD_DEFAULT 17)
endif()

configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
