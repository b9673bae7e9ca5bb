# simnpu ASC language: no test compile (as in the devkit); the driver is part
# of the install.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
