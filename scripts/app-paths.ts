// Lets plain `node` load app modules outside Vite, as tsconfig and Vite resolve them: `~/…` is
// app/…, and a relative import without an extension finds its .ts or .tsx file.
//   node --import ./scripts/app-paths.ts bench/ledger.ts
// (scripts/bench.ts loads it for every group; the withdrawal fault test for its child process.)

import { registerHooks } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const app = pathToFileURL(path.resolve(import.meta.dirname, "../app") + path.sep).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const target = specifier.startsWith("~/") ? new URL(specifier.slice(2), app).href : specifier;
    try {
      return nextResolve(target, context);
    } catch (error) {
      const local = /^(\.{1,2}\/|\/|file:)/.test(target);
      if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" || !local) throw error;
      for (const extension of [".ts", ".tsx"]) {
        try {
          return nextResolve(target + extension, context);
        } catch {
          // try the next extension
        }
      }
      throw error;
    }
  },
});
