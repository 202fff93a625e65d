# Sourced on the device tool's GPU machine, from the repository root with
# .gl carried: installs the Vulkan loader and glvnd packages that NVIDIA's
# Vulkan driver needs (without glvnd, vkCreateInstance fails with
# VK_ERROR_INCOMPATIBLE_DRIVER) and points the loader at the driver.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
