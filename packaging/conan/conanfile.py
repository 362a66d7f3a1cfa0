# SPDX-License-Identifier: MIT
# Conan 2 recipe for rknnop, a header-only C++20 SDK for RKNN-Toolkit v1 custom operators.
#
#   conan create packaging/conan -s compiler.cppstd=20     # from a checkout: packages this tree
#
# The version is read from include/rknnop/version.hpp (a --version that disagrees is an error).
# The recipe packages the checkout it is exported from (export_sources); no release archive is
# published yet. For a release, add a conandata.yml beside this file:
#     sources:
#       "0.1.0":
#         url: "<the tag's source archive>"
#         sha256: "<sha256sum of that archive>"
# and source() downloads it when the recipe is used outside a checkout (conan-center-index layout).
#
# With -o "rknnop/*:tools=True" the package also builds and ships the command-line tools
# (bin/rknnop-run, bin/rknnop-pack, bin/rknnop-vxcheck, bin/rknnop-parity) and the host OpenVX
# runtime they load ops through (lib/rknnop/libOpenVX.so, found through the tools' RPATH), and the
# board runner (bin/rknnop-board-run, share/rknnop/board, lib/rknnop/board: docs/board-emulation.md §2). Use it as a
# tool requirement:
#     [tool_requires]                              def build_requirements(self):
#     rknnop/0.1.0                                     self.tool_requires("rknnop/0.1.0", options={"tools": True})
#     conan install . -o:b "rknnop/*:tools=True"
# and the tools are on PATH in Conan's build environment (conanbuild.sh). rknnop-vxcheck and
# rknnop-parity use OpenCL (opencl-icd-loader); running a shader also needs an OpenCL implementation on
# the machine (e.g. POCL), which no package provides.
#
# Consumers get CMake package `rknnop` with the project's own targets, and rknnop_add_op():
#   rknnop::kernel  what a kernel library compiles against (headers + Boost.PFR, never {fmt})
#   rknnop::rknnop  everything (adds {fmt} for <rknnop/emit.hpp>), the documented target
#   rknnop::emit    the {fmt} part alone (an artifact of Conan's components; prefer the two above)
# Boost and {fmt} are version ranges (what rknnop's CMake accepts), so a profile's
# [platform_requires] can substitute the system's packages, e.g. Debian 12's boost/1.81.0 fmt/9.1.0.
import os
import re

from conan import ConanFile
from conan.errors import ConanException, ConanInvalidConfiguration
from conan.tools.build import valid_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, get, load, rm, rmdir, save
from conan.tools.layout import basic_layout
from conan.tools.scm import Version

required_conan_version = ">=2.0"

# Included by the CMake config CMakeDeps writes for rknnop (cmake_build_modules), after its targets.
_BUILD_MODULE = """\
# Written by the Conan recipe: rknnop_add_op() with the headers of this package.
# Boost and {fmt} given by the profile's [platform_requires] are the system's: CMakeDeps makes no
# targets for them, so find them as rknnop's own CMake does (same minimum versions).
if(NOT TARGET Boost::headers)
  find_package(Boost 1.75 CONFIG QUIET)
  if(NOT Boost_FOUND)
    find_package(Boost 1.75 REQUIRED)
  endif()
  target_link_libraries(rknnop::kernel INTERFACE Boost::headers)
endif()
if(NOT TARGET fmt::fmt)
  find_package(fmt 8 REQUIRED CONFIG)
  target_link_libraries(rknnop::emit INTERFACE fmt::fmt)
endif()
# The SDK's targets require C++20, as rknnop's own CMake targets do.
foreach(_rknnop_target IN ITEMS rknnop::kernel rknnop::rknnop)
  if(TARGET ${_rknnop_target})
    set_property(TARGET ${_rknnop_target} APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
  endif()
endforeach()
if(NOT RKNNOP_INCLUDE_DIR)
  get_filename_component(RKNNOP_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../../../include" ABSOLUTE)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/rknnopAddOp.cmake")
"""


class RknnopConan(ConanFile):
    name = "rknnop"
    description = ("Header-only C++20 SDK for Rockchip RKNN-Toolkit v1 custom operators (RK1808, RV1126, ...): "
                   "one struct generates the kernel library tables, op.yml, the Python op and the .rknnop container")
    license = "MIT"
    topics = ("rknn", "npu", "openvx", "custom-operator", "reflection", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    no_copy_source = True
    # tools: also build the command-line tools and the host runtime (see the header of this file).
    options = {"tools": [True, False]}
    # Boost.PFR is header-only; nothing of Boost needs compiling.
    default_options = {"tools": False, "boost/*:header_only": True}

    _min_cppstd = "20"

    @property
    def _compilers_minimum_version(self):
        # Concepts, consteval, constinit, std::span and class-type template arguments.
        return {"gcc": "10", "clang": "13", "apple-clang": "14", "msvc": "193"}

    _tools = ("rknnop-run", "rknnop-pack", "rknnop-vxcheck", "rknnop-parity", "rknnop-node")

    @property
    def _cmake_dir(self):
        return os.path.join("share", "rknnop", "cmake")

    @property
    def _checkout(self):
        # This file is <checkout>/packaging/conan/conanfile.py.
        root = os.path.normpath(os.path.join(self.recipe_folder, os.pardir, os.pardir))
        return root if os.path.isfile(os.path.join(root, "include", "rknnop", "version.hpp")) else None

    def set_version(self):
        if self._checkout is None:
            if not self.version:
                raise ConanException("rknnop: outside an rknnop checkout the recipe needs --version")
            return
        text = load(self, os.path.join(self._checkout, "include", "rknnop", "version.hpp"))
        parts = []
        for part in ("MAJOR", "MINOR", "PATCH"):
            found = re.search(rf"^#define RKNNOP_VERSION_{part} (\d+)$", text, re.MULTILINE)
            if not found:
                raise ConanException(f"rknnop: include/rknnop/version.hpp has no RKNNOP_VERSION_{part} line")
            parts.append(found.group(1))
        header_version = ".".join(parts)
        if self.version and str(self.version) != header_version:
            raise ConanException(
                f"rknnop: --version {self.version} does not match include/rknnop/version.hpp ({header_version}); "
                "the header is the one place the version is written: drop --version or change the header")
        self.version = header_version

    def export_sources(self):
        # The files go to <source root>/src, which is layout()'s source folder.
        if self._checkout is not None:
            destination = os.path.join(self.export_sources_folder, "src")
            # CMakeLists.txt, src/, tools/ and board/ build the tools (option tools): the top-level
            # CMakeLists.txt adds board/galcore and board/, and the board runner is installed with the
            # tools (scripts/board-run.sh as bin/rknnop-board-run, board/runner and board/stubs), and so is
            # the RKNPU2 runner (scripts/rknpu2-run.sh as bin/rknnop-rknpu2-run, board/rknpu2, the --app example).
            for pattern in ("include/*", "cmake/*", "LICENSE", "CMakeLists.txt", "src/*", "tools/*", "board/*",
                            "scripts/board-run.sh", "scripts/rknpu2-run.sh", "examples/rknpu2_app/rknpu2_app.cpp"):
                copy(self, pattern, self._checkout, destination)

    def layout(self):
        if self.options.tools:
            cmake_layout(self, src_folder="src")
        else:
            basic_layout(self, src_folder="src")

    def requirements(self):
        # Public headers include both (<boost/pfr/...> from rknnop/detail/reflect.hpp, <fmt/format.h>
        # from rknnop/emit/options.hpp). The same minimums as rknnop's CMake (cmake/rknnopDependencies.cmake).
        self.requires("boost/[>=1.75]", transitive_headers=True)
        self.requires("fmt/[>=8]", transitive_headers=True)
        if self.options.tools:
            # What the host library and the tools compile against (cmake/rknnopDependencies.cmake,
            # src/host/CMakeLists.txt, tools/CMakeLists.txt): the same minimums.
            self.requires("yaml-cpp/[>=0.7]")
            self.requires("cli11/[>=2.1]")
            self.requires("nlohmann_json/[>=3.9]")
            # rknnop::vxc (rknnop-vxcheck, rknnop-parity): the Khronos ICD loader, with its headers.
            self.requires("opencl-icd-loader/[>=2022.01.04]")

    def generate(self):
        if not self.options.tools:
            return
        toolchain = CMakeToolchain(self)
        toolchain.cache_variables.update({
            "RKNNOP_BUILD_HOST": True,
            "RKNNOP_INSTALL": True,
            "RKNNOP_INSTALL_TOOLS": True,
            "RKNNOP_BUILD_TESTS": False,
            "RKNNOP_BUILD_EXAMPLES": False,
            "RKNNOP_BUILD_BENCHMARKS": False,
            # rknnop::vxc (rknnop-vxcheck, rknnop-parity): OpenCL missing is an error, not a skip.
            "RKNNOP_REQUIRE_OPENCL": True,
        })
        toolchain.generate()
        CMakeDeps(self).generate()

    def package_id(self):
        if not self.info.options.tools:
            self.info.clear()  # headers only: one package for every configuration

    def validate(self):
        # As conan-center's header-only C++20 recipes: a profile asking for an older standard makes the
        # package Invalid. `conan profile detect` writes gnu17 for GCC 12, so say how to fix it.
        cppstd = self.settings.compiler.get_safe("cppstd")
        if cppstd and not valid_min_cppstd(self, self._min_cppstd):
            raise ConanInvalidConfiguration(
                f"rknnop: {self.ref} is C++{self._min_cppstd} and the profile sets compiler.cppstd={cppstd}: "
                f"set compiler.cppstd={self._min_cppstd} (or gnu{self._min_cppstd}) in the profile, or pass "
                f"-s compiler.cppstd={self._min_cppstd} (`conan profile detect` writes gnu17 for GCC 12)")
        if self.options.tools and self.settings.os != "Linux":
            raise ConanInvalidConfiguration(
                f"rknnop: {self.ref} with tools=True builds rknnop's host OpenVX runtime, which is Linux-only "
                f"(os={self.settings.os})")
        minimum = self._compilers_minimum_version.get(str(self.settings.compiler))
        if minimum and Version(self.settings.compiler.version) < minimum:
            raise ConanInvalidConfiguration(
                f"rknnop: {self.ref} requires C++{self._min_cppstd}, which {self.settings.compiler} "
                f"{self.settings.compiler.version} does not support well enough (need {minimum})")

    def source(self):
        if os.path.isfile(os.path.join(self.source_folder, "include", "rknnop", "op.hpp")):
            return  # exported from a checkout
        sources = (self.conan_data or {}).get("sources", {})
        if str(self.version) not in sources:
            raise ConanException(
                f"rknnop: no sources for {self.version}: export the recipe from an rknnop checkout "
                "(conan create packaging/conan), or list the release archive in conandata.yml")
        get(self, **sources[str(self.version)], strip_root=True)

    def build(self):
        if self.options.tools:
            cmake = CMake(self)
            cmake.configure()
            # Everything of this configuration (tests, examples and benchmarks are off): the tools,
            # the host runtime and, with the cross compilers, the galcore stand-ins of the board runner.
            cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        # The SDK's headers; rknnop/host/* declares the compiled host library (runtime, loader,
        # tools), which this header-only package does not build.
        for pattern in ("*.hpp", "*.h"):
            copy(self, pattern, os.path.join(self.source_folder, "include"), os.path.join(self.package_folder, "include"),
                 excludes=("rknnop/host/*",))
        # rknnop_add_op() and the files it configures at the user's build time. rknnop's own
        # package config is not shipped: Conan's CMakeDeps writes the config, and includes this
        # build module, which points the helper at the packaged headers.
        # The same files, in the same place (share/rknnop/cmake), as rknnop's own install rules.
        cmake_dir = os.path.join(self.package_folder, self._cmake_dir)
        # The list of those files is cmake/rknnopAddOpFiles.txt, which rknnopInstall.cmake reads too.
        cmake_source = os.path.join(self.source_folder, "cmake")
        with open(os.path.join(cmake_source, "rknnopAddOpFiles.txt"), encoding="utf-8") as listed:
            files = [line.strip() for line in listed if line.strip() and not line.startswith("#")]
        for pattern in files + ["toolchains/*"]:
            if pattern != "toolchains/*" and not os.path.isfile(os.path.join(cmake_source, pattern)):
                raise ConanException(f"rknnop: cmake/rknnopAddOpFiles.txt lists {pattern}, which is missing")
            copy(self, pattern, cmake_source, cmake_dir)
        save(self, os.path.join(cmake_dir, "rknnop-conan-add-op.cmake"), _BUILD_MODULE)
        if self.options.tools:
            # rknnop's own install rules, component rknnop_tools: bin/ and lib/rknnop/libOpenVX.so.
            # The host library it also installs (rknnop::host) is not described by package_info:
            # left out rather than shipped unusable.
            CMake(self).install(component="rknnop_tools")
            for folder in ("host", "vxc", "parity"):
                rmdir(self, os.path.join(self.package_folder, "include", "rknnop", folder))
            rm(self, "*.a", os.path.join(self.package_folder, "lib"))
            rm(self, "rknnopHostTargets*.cmake", cmake_dir)
            for tool in self._tools + ("rknnop-board-run", "rknnop-rknpu2-run"):
                if not os.path.isfile(os.path.join(self.package_folder, "bin", tool)):
                    raise ConanException(f"rknnop: tools=True but the install made no bin/{tool}")

    def _dependency_component(self, name, component):
        # A dependency taken from the profile's [platform_requires] has no package and is not in
        # self.dependencies: CMakeDeps rejects a component requiring it ("not a direct dependency",
        # conan-io/docs#3908). The build module finds the system's own with find_package instead.
        return [f"{name}::{component}"] if name in self.dependencies.host else []

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        self.cpp_info.set_property("cmake_file_name", "rknnop")
        self.cpp_info.set_property("cmake_target_name", "rknnop::rknnop")
        self.cpp_info.set_property("cmake_build_modules", [os.path.join(self._cmake_dir, "rknnop-conan-add-op.cmake")])
        self.cpp_info.builddirs = [self._cmake_dir]

        kernel = self.cpp_info.components["kernel"]
        kernel.set_property("cmake_target_name", "rknnop::kernel")
        kernel.requires = self._dependency_component("boost", "headers")
        kernel.builddirs = [self._cmake_dir]
        kernel.bindirs = []
        kernel.libdirs = []

        emit = self.cpp_info.components["emit"]
        emit.set_property("cmake_target_name", "rknnop::emit")
        emit.requires = ["kernel"] + self._dependency_component("fmt", "fmt")
        emit.bindirs = []
        emit.libdirs = []

        if self.options.tools:
            # bin/ goes on PATH in the build environment of a tool_requires (and in the run environment
            # of a requires). A component because Conan ignores the root's bindirs when there are some.
            tools = self.cpp_info.components["tools"]
            tools.set_property("cmake_target_name", "rknnop::tools")
            tools.bindirs = ["bin"]
            # libOpenCL.so.1 on the run environment's library path (rknnop-vxcheck, rknnop-parity).
            tools.requires = self._dependency_component("opencl-icd-loader", "opencl-icd-loader")
            tools.libdirs = []
            tools.includedirs = []
