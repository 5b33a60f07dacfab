// The process entry: `node server/main.ts` (production build), `--dev` (Vite dev server), or
// `--seed` (seed the demo into the configured database and exit). `--role web|worker|all` (or
// ROLE) chooses what the process does: pages, jobs, or both (the default).
const dev = process.argv.includes("--dev");
const roleAt = process.argv.findIndex((arg) => arg === "--role" || arg.startsWith("--role="));
if (roleAt >= 0) {
  const arg = process.argv[roleAt]!;
  process.env.ROLE = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (process.argv[roleAt + 1] ?? "");
}

type AppModule = { start: (options?: { vite?: unknown }) => Promise<unknown>; run: () => Promise<void>; seed: () => Promise<void> };
const seeding = process.argv.includes("--seed");

try {
  // `SOCIAL_FAKES=on npm start` (or `npm run dev`): the social providers' local fakes, configured for this
  // process (and, under the supervisor of several processes, for its children, who inherit the variables).
  const { default: cluster } = await import("node:cluster");
  if (process.env.SOCIAL_FAKES === "on" && !seeding && cluster.isPrimary) {
    const { startDemoSocialFakes } = await import("../tests/fakes/social/demo.ts");
    const { env, origins } = await startDemoSocialFakes(Number(process.env.SOCIAL_FAKES_PORT ?? 4600));
    Object.assign(process.env, env);
    console.log(`Social fakes: X, YouTube, TikTok, Instagram, Discord and Telegram at ${origins.join(", ")}`);
  }
  if (dev) {
    const { createServer } = await import("vite");
    const before = new Set(process.listeners("SIGTERM"));
    const vite = await createServer({
      server: { middlewareMode: true },
      appType: "custom",
      // The adapter must see the same react-router module instance as the app (development build).
      ssr: { noExternal: ["@react-router/express", "@react-router/node"] },
    });
    // Vite exits the process on SIGTERM by itself, which would skip our shutdown (and leave the
    // local chain running): the app's own handler closes Vite along with everything else.
    for (const listener of process.listeners("SIGTERM")) if (!before.has(listener)) process.off("SIGTERM", listener);
    const app = (await vite.ssrLoadModule("./server/app.ts")) as AppModule;
    await app.start({ vite });
  } else {
    const entry = new URL("../build/server/index.js", import.meta.url);
    const app = (await import(entry.href)) as AppModule;
    if (seeding) await app.seed();
    else await app.run();
  }
} catch (error) {
  if (error instanceof Error && error.name === "ConfigError") {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
}
