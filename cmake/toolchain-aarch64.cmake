# Cross-compile ndpad for AArch64 Linux with Debian's cross toolchain, and run what it builds
# (ctest, try_run) under qemu-user. Used by ci/aarch64-qemu.sh:
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
#
# Needs gcc-aarch64-linux-gnu (g++-aarch64-linux-gnu for C++ parts), qemu-user, and the arm64
# multiarch development packages of the dependencies (dpkg --add-architecture arm64;
# libhwloc-dev:arm64 libcmocka-dev:arm64), which Debian installs under /usr/lib/aarch64-linux-gnu
# and /usr/include, beside the cross toolchain's own root /usr/aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# The cross libc (loader included) lives in /usr/aarch64-linux-gnu: qemu resolves the guest's
# absolute paths there first, then in the host tree (where the arm64 multiarch libraries are).
# The loader must get the libc of its own build: without LD_LIBRARY_PATH it takes libc.so.6
# from the multiarch tree (/lib/aarch64-linux-gnu, libc6:arm64, another Debian revision than
# libc6-arm64-cross), and that mix hangs in pthread_create, so in any OpenMP team.
set(CMAKE_CROSSCOMPILING_EMULATOR
    "qemu-aarch64;-L;/usr/aarch64-linux-gnu;-E;LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib")

# Look for target libraries, headers and packages only in the cross root and the arm64
# multiarch tree; programs (pkg-config, qemu) come from the host. The multiarch directory is a
# root of its own so that the library paths pkg-config reports there are searched as they are
# (CMake re-roots only paths outside every root).
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config must describe the arm64 libraries, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
