import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * Rewrites our named imports from a package's barrel (`import { http } from "viem"`) into imports
 * from the modules that define them. Rolldown assigns a barrel's whole re-exported graph to every
 * chunk that imports the barrel (rolldown/rolldown#3746, #8920): one `defineChain` from "viem" in
 * the page shell put most of viem in every page's first load, though only the wallet uses it.
 */
function directImports(packages: string[]): Plugin {
  const barrels = new Map<string, Map<string, { file: string; name: string }>>();
  const exportsOf = (barrel: string) => {
    let map = barrels.get(barrel);
    if (!map) {
      map = new Map();
      for (const [, list = "", from = ""] of readFileSync(barrel, "utf8").matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
        for (const spec of list.split(",")) {
          const [name, alias] = spec.trim().split(/\s+as\s+/);
          if (name && !name.startsWith("type ")) map.set(alias ?? name, { file: path.resolve(path.dirname(barrel), from), name });
        }
      }
      barrels.set(barrel, map);
    }
    return map;
  };
  const specifier = new RegExp(`^(${packages.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")})(/[\\w-]+)?$`);
  return {
    name: "questline:direct-imports",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    transform: {
      filter: { id: { include: /[\\/]app[\\/].*\.tsx?$/, exclude: /node_modules/ } },
      async handler(code, id) {
        let changed = false;
        const out: string[] = [];
        let last = 0;
        for (const match of code.matchAll(/^import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?/gm)) {
          const [statement, list = "", source = ""] = match;
          if (!specifier.test(source)) continue;
          const resolved = await this.resolve(source, id);
          if (!resolved || resolved.external || !path.isAbsolute(resolved.id)) continue;
          const barrel = resolved.id;
          const table = exportsOf(barrel);
          const direct: string[] = [];
          const kept: string[] = [];
          for (const spec of list
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)) {
            const [name = "", local = name] = spec.split(/\s+as\s+/);
            const target = table.get(name);
            if (target) direct.push(`import { ${target.name} as ${local} } from ${JSON.stringify(target.file)};`);
            else kept.push(spec);
          }
          if (direct.length === 0) continue;
          if (kept.length > 0) direct.push(`import { ${kept.join(", ")} } from ${JSON.stringify(source)};`);
          out.push(code.slice(last, match.index), direct.join("\n"));
          last = match.index + statement.length;
          changed = true;
        }
        if (!changed) return null;
        out.push(code.slice(last));
        return { code: out.join(""), map: null };
      },
    },
  };
}

/**
 * Points every import of `specifier` (a package name, or a pattern of the import as written) in the
 * client build at `replacement`, except the replacement's own (which reaches the real module), and
 * with `ours`, only our own modules' imports (not a package's); with `server`, in the server build
 * too (where the package must be bundled, not left to Node: `ssr.noExternal`). See
 * app/wallet/universal-provider.client.ts, app/components/ui/lucide-icon.ts and app/lib/zod.ts.
 */
function standIn(specifier: string | RegExp, replacement: string, { ours = false, server = false } = {}): Plugin {
  const file = fileURLToPath(new URL(replacement, import.meta.url));
  return {
    name: `questline:stand-in:${specifier}`,
    enforce: "pre",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client" || (server && environment.name === "ssr"),
    resolveId: {
      filter: { id: typeof specifier === "string" ? new RegExp(`^${specifier.replace(/[/.]/g, "\\$&")}$`) : specifier },
      handler(_source, importer) {
        if (importer && path.resolve(importer) === file) return null;
        if (ours && (!importer || /node_modules/.test(importer))) return null;
        return file;
      },
    },
  };
}

/**
 * What every page loads: the static imports of the page shell (app/root.tsx), so that they can
 * share one chunk. Rolldown would otherwise cut them into a file per set of routes sharing them
 * (a dozen files of a few hundred bytes each), and each file is compressed on its own.
 *
 * The module graph is recorded as it is parsed; the walk enters a package only from our code or
 * from inside that package, never through a barrel's re-exports of other packages (which
 * tree-shaking would mostly drop). The shell names networks through app/wallet/chains.ts and
 * app/lib/local-chain-id.ts, never chain-config.ts: that one holds viem's transports and chain objects.
 */
function pageShell() {
  const staticImports = new Map<string, readonly string[]>();
  const packageOf = (id: string) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id)?.[1];
  let modules: Set<string> | undefined;
  let welcome: Set<string> | undefined;
  const closureOf = (start: RegExp) => {
    const found = new Set<string>();
    const root = [...staticImports.keys()].find((id) => start.test(id));
    const stack = root ? [root] : [];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (found.has(id)) continue;
      found.add(id);
      const from = packageOf(id);
      stack.push(...(staticImports.get(id) ?? []).filter((dep) => from === undefined || [undefined, from].includes(packageOf(dep))));
    }
    return found;
  };
  const plugin: Plugin = {
    name: "questline:page-shell",
    applyToEnvironment: (environment) => environment.name === "client",
    // The shell's chunk takes only the modules named, not everything they import; Rolldown allows
    // that when entries (our route modules) may export more than they declare.
    options: (options) => ({ ...options, preserveEntrySignatures: "allow-extension" }),
    buildStart() {
      staticImports.clear();
      modules = undefined;
      welcome = undefined;
    },
    moduleParsed(info) {
      staticImports.set(info.id, info.importedIds);
    },
  };
  // What Welcome shares with the signed-in pages (the appearance control, also in Settings; the
  // sign-in trigger, its deferred popup and the page fallback both it and the phone's menu button
  // use, also in every page's header; and Welcome's icons, also in the navigation and on campaign
  // pages) goes with the shell rather than in files of a few hundred bytes that Welcome's first
  // load would fetch and compress apart. (The other icons are one file of their own, which Welcome
  // does not load.)
  const alsoShell = (id: string) =>
    /[\\/]app[\\/]components[\\/]appearance-switch\.tsx$/.test(id) ||
    /[\\/]app[\\/]components[\\/]auth[\\/]sign-in-dialog\.tsx$/.test(id) ||
    /[\\/]app[\\/]components[\\/]ui[\\/]page-fallback\.tsx$/.test(id) ||
    /[\\/]app[\\/]hooks[\\/]use-deferred-popup\.ts$/.test(id) ||
    /lucide-react[\\/].*[\\/](sun|moon|monitor|sparkles|trophy|award|list-checks)\.mjs$/.test(id);
  const includes = (id: string) => (modules ??= closureOf(/[\\/]app[\\/]root\.tsx$/)).has(id) || alsoShell(id);

  /**
   * Our small components and helpers that pages share beyond the shell, in one chunk: Rolldown cut
   * them into a file of a few hundred bytes per set of pages using them, and a campaign page fetched
   * some twenty of them; on a phone network they queue for the connections before the first paint.
   * A module joins only if everything it imports is in the shell, React, the icons or the group:
   * the chunk then imports nothing more. Left out: what Welcome loads (its first load stays within
   * budget), server and route modules, the wallet, and modules over 2.5 KB, which stay in files of
   * their own for the pages that use them.
   */
  const candidate = (id: string) => {
    if (!/[\\/]app[\\/](components|hooks|lib|modules)[\\/][^?]*\.tsx?$/.test(id) || /\.server\.tsx?$|[\\/]app[\\/]wallet[\\/]/.test(id)) return false;
    if ((welcome ??= closureOf(/[\\/]app[\\/]routes[\\/]welcome\.tsx$/)).has(id)) return false;
    return statSync(id).size <= 2_500;
  };
  const light = (id: string, seen: Set<string>): boolean => {
    if (includes(id) || /node_modules[\\/](react|react-dom|scheduler|react-router|lucide-react)[\\/]/.test(id)) return true;
    if (!candidate(id)) return false;
    if (seen.has(id)) return true;
    seen.add(id);
    return (staticImports.get(id) ?? []).every((dep) => light(dep, seen));
  };
  const shared = (id: string) => !includes(id) && light(id, new Set());
  return { plugin, includes, shared };
}
const shell = pageShell();

/** Writes build/client/.vite/chunks.json: each client chunk's modules and sizes (read by scripts/bundle-report.ts). */
function chunkModules(): Plugin {
  return {
    name: "questline:chunk-modules",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle(_options, bundle) {
      const chunks: Record<string, { name: string; imports: string[]; dynamicImports: string[]; modules: Record<string, number> }> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        chunks[output.fileName] = {
          name: output.name,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          modules: Object.fromEntries(Object.entries(output.modules).map(([id, m]) => [id.replace(/^.*\/node_modules\//, "node_modules/"), m.renderedLength])),
        };
      }
      this.emitFile({ type: "asset", fileName: ".vite/chunks.json", source: JSON.stringify(chunks) });
    },
  };
}

export default defineConfig({
  resolve: {
    alias: { "~": new URL("./app", import.meta.url).pathname, "#db": new URL("./db", import.meta.url).pathname },
  },
  build: { manifest: true },
  environments: {
    // The server build's entry is our HTTP server, which wraps React Router's request handler.
    // lucide-react is bundled, so that its icons are drawn by app/components/ui/lucide-icon.ts.
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } }, resolve: { noExternal: ["lucide-react"] } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // React, React DOM and React Router: every page's largest and least changing file.
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 200 },
                // Everything the page shell imports, wallet-provider.tsx and Vite's preload helper
                // included: one chunk, and none of it in chunks of wallet code.
                { name: "shell", test: shell.includes, priority: 150, includeDependenciesRecursively: false },
                // The other icons: one file (about 24 KB, 8 KB compressed) rather than a file of a few
                // hundred bytes per icon and set of pages, which made a page fetch some twenty of them.
                { name: "icons", test: /lucide-react[\\/].*[\\/]icons[\\/]/, priority: 100 },
                // Our components and helpers shared by several pages (pageShell's `shared`): one file.
                { name: "components", test: shell.shared, priority: 90, minShareCount: 2, includeDependenciesRecursively: false },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [
    tailwindcss(),
    reactRouter(),
    directImports(["viem", "lucide-react"]),
    standIn("@walletconnect/universal-provider", "./app/wallet/universal-provider.client.ts"),
    // zod, told not to compile schemas with `new Function`, which the CSP forbids: for every module of ours.
    standIn("zod", "./app/lib/zod.ts", { ours: true }),
    // Each lucide-react icon module imports `../createLucideIcon.mjs`. The server draws icons with
    // it too: lucide-react's own rebuilt each icon's attributes and classes on every render.
    standIn(/^\.\.\/createLucideIcon\.mjs$/, "./app/components/ui/lucide-icon.ts", { server: true }),
    shell.plugin,
    chunkModules(),
  ],
});
