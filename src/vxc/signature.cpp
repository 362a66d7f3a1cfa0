// SPDX-License-Identifier: MIT
// VX type names and the shader signature check (no OpenCL involved).
#include <rknnop/vxc/vxc.hpp>

#include "shader_parse.hpp"

#include <algorithm>  // std::find, std::transform
#include <cctype>     // std::tolower
#include <cerrno>
#include <cstdio>  // std::snprintf
#include <sstream>
#include <utility>

#include <fcntl.h>  // read_shader_text: open without blocking on a FIFO
#include <sys/stat.h>
#include <unistd.h>

namespace rknnop::vxc {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out.empty() ? "none" : out;
}

std::string table_summary(const op_signature& sig) {
  std::vector<std::string> params;
  for (const auto& p : sig.params) params.push_back(p.name);
  return "inputs: " + quoted_list(sig.inputs) + "; outputs: " + quoted_list(sig.outputs) +
         "; params: " + quoted_list(params);
}

enum class expected_kind { input_tensor, output_tensor, array, scalar };

struct expected_entry {
  std::string name;
  expected_kind kind;
  vx_type type;
};

std::vector<expected_entry> table_of(const op_signature& sig) {
  std::vector<expected_entry> table;
  for (const auto& in : sig.inputs) table.push_back({in, expected_kind::input_tensor, vx_type::tensor});
  for (const auto& out : sig.outputs) table.push_back({out, expected_kind::output_tensor, vx_type::tensor});
  for (const auto& p : sig.params) {
    table.push_back({p.name, p.type == vx_type::array ? expected_kind::array : expected_kind::scalar, p.type});
  }
  return table;
}

std::string expectation(const expected_entry& e) {
  switch (e.kind) {
    case expected_kind::input_tensor: return "an input tensor (__read_only image2d_array_t)";
    case expected_kind::output_tensor: return "an output tensor (__write_only image2d_array_t)";
    case expected_kind::array: return "a VX_TYPE_ARRAY (vx_array_int)";
    case expected_kind::scalar: break;
  }
  const auto types = opencl_scalar_types(e.type);
  return "a " + vx_type_name(e.type) + " scalar (" +
         (types.empty() ? std::string("no OpenCL type") : std::string(types.front())) + ")";
}

bool matches(const expected_entry& e, const shader_argument& a) {
  switch (e.kind) {
    case expected_kind::input_tensor:
      return a.type == "image2d_array_t" && !a.pointer && !a.is_write_only() && !a.is_read_write();
    case expected_kind::output_tensor: return a.type == "image2d_array_t" && !a.pointer && a.is_write_only();
    case expected_kind::array: return a.type == "vx_array_int" && !a.pointer;
    case expected_kind::scalar: {
      if (a.pointer) return false;
      const auto types = opencl_scalar_types(e.type);
      return std::find(types.begin(), types.end(), std::string_view(a.type)) != types.end();
    }
  }
  return false;
}

}  // namespace

std::string vx_type_name(vx_type type) {
  if (const std::string_view name = vx_type_table_name(type); !name.empty()) return std::string(name);
  char buf[32];
  std::snprintf(buf, sizeof buf, "VX_TYPE_<0x%X>", static_cast<unsigned>(type));
  return buf;
}

std::optional<vx_type> vx_type_from_name(std::string_view name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.rfind("VX_TYPE_", 0) != 0) upper = "VX_TYPE_" + upper;
  return ::rknnop::vx_type_from_name(upper);
}

std::size_t vx_type_size(vx_type type) noexcept { return vx_type_opencl(type).empty() ? 0 : vx_scalar_size(type); }

std::size_t tensor_element_size(vx_type type) noexcept { return vx_tensor_element_size(type); }

std::vector<std::string_view> opencl_scalar_types(vx_type type) {
  std::vector<std::string_view> out;
  for (const bool alternative : {false, true}) {
    if (const std::string_view t = vx_type_opencl(type, alternative); !t.empty()) out.push_back(t);
  }
  return out;
}

std::string op_signature::kernel_name() const { return lower(name); }

std::string diagnostic::to_string() const {
  std::string out = file;
  if (line != 0) {  // appended: GCC 12's -Wrestrict misfires on ":" + std::string at -O3
    out += ':';
    out += std::to_string(line);
  }
  if (!out.empty()) out += ": ";
  return out + message;
}

std::vector<diagnostic> check_signature(const op_signature& sig, std::string_view source, std::string_view file_name,
                                        std::string_view kernel_name) {
  const std::string wanted = kernel_name.empty() ? sig.kernel_name() : std::string(kernel_name);
  const std::string op = "op '" + sig.name + "': ";
  const std::string file(file_name);
  parsing::parsed_source parsed = parsing::parse(source, file_name);
  std::vector<diagnostic> out = parsed.errors;

  const shader_kernel* found = nullptr;
  for (const auto& site : parsed.kernels) {
    if (site.kernel.name != wanted) continue;
    if (found != nullptr) {  // bounded: a file of copies is not a problem a copy
      parsing::add_bounded(out,
                           {file, site.kernel.line,
                            "rknnop: " + op + "__kernel '" + wanted + "' is defined more than once (first at line " +
                                std::to_string(found->line) + ")"});
      continue;
    }
    found = &site.kernel;
  }
  if (found == nullptr) {
    if (!out.empty()) return out;  // the syntax errors explain why the kernel was not found
    std::vector<std::string> names;
    bool case_differs = false;
    for (const auto& site : parsed.kernels) {
      names.push_back(site.kernel.name);
      if (lower(site.kernel.name) == lower(wanted)) case_differs = true;
    }
    std::string msg =
        "rknnop: " + op + "the shader has no '__kernel void " + wanted + "(...)' (the VX descriptor name); ";
    msg += names.empty() ? std::string("no __kernel found") : "kernels found: " + quoted_list(names);
    if (case_differs) msg += " (kernel names are case-sensitive)";
    out.push_back({file, 0, std::move(msg)});
    return out;
  }

  const auto table = table_of(sig);
  const auto& args = found->arguments;
  if (args.size() != table.size()) {
    out.push_back({file, found->line,
                   "rknnop: " + op + "kernel '" + wanted + "' declares " + std::to_string(args.size()) + " argument" +
                       (args.size() == 1 ? "" : "s") + ", the parameter table has " + std::to_string(table.size()) +
                       " (" + table_summary(sig) + ")"});
  }
  const std::size_t common = std::min(args.size(), table.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (matches(table[i], args[i])) continue;
    out.push_back({file, args[i].line,
                   "rknnop: " + op + "shader argument " + std::to_string(i) + " ('" + table[i].name +
                       "'): the parameter table expects " + expectation(table[i]) + ", the shader declares '" +
                       args[i].declaration + "'"});
  }
  return out;
}

std::vector<diagnostic> check_signature_file(const op_signature& sig, const std::filesystem::path& vx_file,
                                             std::string_view kernel_name) {
  const std::string file = vx_file.string();
  std::string text;
  if (const std::string error = read_shader_text(vx_file, text); !error.empty())
    return {{file, 0, "rknnop: op '" + sig.name + "': cannot read the shader '" + file + "': " + error}};
  return check_signature(sig, text, file, kernel_name);
}

std::string read_shader_text(const std::filesystem::path& path, std::string& text) {
  text.clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? "no such file" : "cannot be opened";
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = "cannot be opened";
  } else if (!S_ISREG(st.st_mode)) {
    why = S_ISDIR(st.st_mode) ? "a directory, not a file" : "not a regular file (a device, FIFO or socket)";
  } else if (std::uintmax_t(st.st_size) > max_shader_size) {
    why = "holds " + std::to_string(st.st_size) + " bytes, more than a shader source may (" +
          std::to_string(max_shader_size) + ")";
  } else {
    text.resize(std::size_t(st.st_size));
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += std::size_t(n);
    }
    if (done != text.size()) why = "read error (the file changed while it was read?)";
  }
  ::close(fd);
  if (!why.empty()) text.clear();
  return why;
}

}  // namespace rknnop::vxc
