// Lets plain `node` (type stripping) load the app's modules outside Vite: `~/…` is `app/…`, and
// extensionless relative imports get `.ts`. Used by child processes of tests:
//   node --import ./tests/setup/ts-paths.ts tests/setup/withdrawal-child.ts
import { registerHooks } from "node:module";

const app = new URL("../../app/", import.meta.url);

registerHooks({
  resolve(specifier, context, nextResolve) {
    const target = specifier.startsWith("~/") ? new URL(specifier.slice(2), app).href : specifier;
    try {
      return nextResolve(target, context);
    } catch (error) {
      if (!target.startsWith(".") && !target.startsWith("file:")) throw error;
      for (const suffix of [".ts", ".tsx"]) {
        try {
          return nextResolve(target + suffix, context);
        } catch {
          // try the next suffix
        }
      }
      throw error;
    }
  },
});
