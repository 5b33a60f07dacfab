// The process entry: `node server/main.ts` (production build) or `node server/main.ts --dev`.
const dev = process.argv.includes("--dev");

type AppModule = { start: (options?: { vite?: unknown }) => Promise<unknown> };

try {
  if (dev) {
    const { createServer } = await import("vite");
    const vite = await createServer({
      server: { middlewareMode: true },
      appType: "custom",
      // The adapter must see the same react-router module instance as the app (development build).
      ssr: { noExternal: ["@react-router/express", "@react-router/node"] },
    });
    const app = (await vite.ssrLoadModule("./server/app.ts")) as AppModule;
    await app.start({ vite });
  } else {
    const entry = new URL("../build/server/index.js", import.meta.url);
    const app = (await import(entry.href)) as AppModule;
    await app.start();
  }
} catch (error) {
  if (error instanceof Error && error.name === "ConfigError") {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
}
