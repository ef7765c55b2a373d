// WebGPU in Node on a machine without a GPU: Dawn (the `webgpu` package) reaches the
// SwiftShader Vulkan driver that Debian's chromium package ships. The dynamic loader reads
// LD_LIBRARY_PATH when a process starts, so vitest.config.ts sets these in the main process
// and the forked test workers start with them. Nothing is changed where a Vulkan driver is
// already chosen (VK_ICD_FILENAMES or VK_DRIVER_FILES set) or where chromium is missing.
import { existsSync } from "node:fs";

export const SWIFTSHADER_DIR = "/usr/lib/chromium";
export const SWIFTSHADER_ICD = `${SWIFTSHADER_DIR}/vk_swiftshader_icd.json`;

export function softwareVulkanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env.VK_ICD_FILENAMES || env.VK_DRIVER_FILES || !existsSync(SWIFTSHADER_ICD)) return {};
  return {
    VK_ICD_FILENAMES: SWIFTSHADER_ICD,
    LD_LIBRARY_PATH: [SWIFTSHADER_DIR, env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
    XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR || "/tmp",
  };
}
