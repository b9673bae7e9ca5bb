# The CANN-shaped install tree:
#   <p>/set_env.sh, <p>/bin/setenv.bash
#   <p>/<arch>-linux/{include,lib64,bin,conf,data,tikcpp}   (real files)
#   <p>/{include,lib64,conf,...} -> <arch>-linux/...          (symlinks)
#   <p>/share/info/runtime/version.info
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64|AMD64)$")
  set(SIMNPU_ARCH_DIR "x86_64-linux")
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(SIMNPU_ARCH_DIR "aarch64-linux")
else()
  set(SIMNPU_ARCH_DIR "${CMAKE_SYSTEM_PROCESSOR}-linux")
endif()
set(SIMNPU_INSTALL_INCLUDEDIR "${SIMNPU_ARCH_DIR}/include")
set(SIMNPU_INSTALL_LIBDIR "${SIMNPU_ARCH_DIR}/lib64")
set(SIMNPU_INSTALL_BINDIR "${SIMNPU_ARCH_DIR}/bin")
set(SIMNPU_INSTALL_CONFDIR "${SIMNPU_ARCH_DIR}/conf")
set(SIMNPU_INSTALL_DATADIR "${SIMNPU_ARCH_DIR}/data")
set(SIMNPU_INSTALL_TIKCPPDIR "${SIMNPU_ARCH_DIR}/tikcpp")
