// A TypeDoc plugin (typedoc.json): names the API reference's modules after the package's
// entry points as users import them, instead of after their file names (index, distributed).
import { Converter, ReflectionKind } from "typedoc";

const NAMES = { index: "nqueens-wasm", distributed: "nqueens-wasm/distributed" };

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const name = NAMES[module.name];
      if (name) module.name = name;
    }
  });
}
