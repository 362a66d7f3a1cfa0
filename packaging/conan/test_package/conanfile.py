# SPDX-License-Identifier: MIT
import os
import shutil

from conan import ConanFile
from conan.errors import ConanException
from conan.tools.build import can_run, cross_building
from conan.tools.cmake import CMake, cmake_layout
from conan.tools.files import load


class TestPackageConan(ConanFile):
    settings = "os", "arch", "compiler", "build_type"
    generators = "CMakeDeps", "CMakeToolchain", "VirtualRunEnv"
    test_type = "explicit"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def _check_op_files(self):
        # What rknnop_add_op(Gain ...) must have produced (CMakeLists.txt puts it in <build>/Gain).
        out = os.path.join(self.build_folder, "Gain")
        expected = ["op.yml", "rknn_op_gain.py", "Gain.rknnop", os.path.join("x86_64", "libgain.so")]
        # Board libraries: rknnop_add_op builds them whenever the cross compilers are found.
        for arch, compiler in (("aarch64", "aarch64-linux-gnu-g++"), ("armhf", "arm-linux-gnueabihf-g++")):
            if shutil.which(compiler):
                expected.append(os.path.join(arch, "libgain.so"))
        for name in expected:
            path = os.path.join(out, name)
            if not os.path.isfile(path) or os.path.getsize(path) == 0:
                raise ConanException(f"rknnop test_package: rknnop_add_op(Gain) did not produce {path}")
            if name.endswith(".so"):
                with open(path, "rb") as library:
                    if library.read(4) != b"\x7fELF":
                        raise ConanException(f"rknnop test_package: {path} is not an ELF file")
        if "  gain:\n    type: VX_TYPE_FLOAT32\n" not in load(self, os.path.join(out, "op.yml")):
            raise ConanException("rknnop test_package: Gain/op.yml does not declare param gain as VX_TYPE_FLOAT32")
        self.output.info("rknnop test_package: rknnop_add_op(Gain) built " + ", ".join(expected))

    def test(self):
        if not cross_building(self):  # a cross build makes only its own architecture's library
            self._check_op_files()
        if can_run(self):
            self.run(os.path.join(self.cpp.build.bindirs[0], "test_package"), env="conanrun")
