import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Everywhere in app/: the repository's other folders by their import aliases, never by climbing out. */
const climbingOut = {
  regex: "^(\\.\\./)+(tests|contracts|db)/",
  message: "Import it by its alias (#tests/…, #contracts/…, #db/…), not by a relative path out of app/.",
};

/** app/lib is the bottom layer: it depends on nothing of ours but itself and db/. */
const outOfLib = { regex: "^\\.\\./", message: "app/lib is the bottom layer: it imports nothing outside itself but db/ (by #db/…)." };
const aboveLib = {
  group: ["~/modules/*", "~/services/*", "~/components/*", "~/hooks/*", "~/routes/*", "~/root", "~/wallet/*"],
  message: "app/lib is the bottom layer: move what it needs into lib, or the caller into a module.",
};

/** React components and hooks run in the browser: they import nothing server-side, not even types. */
const CLIENT_SAFE = "a client-safe module (app/modules/<domain>/<name>.ts: types and pure constants, no `.server` imports)";
const serverSide = [
  {
    group: ["*.server", "**/*.server", "~/**/*.server", "*.server.ts", "*.server.tsx"],
    message: `Components must not import server modules, not even their types: take the data as props, typed in the component or in ${CLIENT_SAFE}.`,
  },
  {
    // A leading `#` starts a comment in these (gitignore) patterns, hence the backslash.
    group: ["\\#db/schema/*", "**/db/schema/*"],
    message: `Components must not import Drizzle tables: use the plain types and \`as const\` lists of ${CLIENT_SAFE}, which the schema imports too.`,
  },
  {
    group: ["~/routes/*", "./+types/*", "../+types/*"],
    message: `Components must not import route modules or their generated types: give the component explicit prop types, in the component or in ${CLIENT_SAFE}.`,
  },
  {
    group: ["~/root"],
    message: 'Components must not import the root route: read its loader data through app/hooks/root-data.ts (useRouteLoaderData("root")).',
  },
];

/** Server code reads and signs on chains through the one registry the services build at start. */
const ownChainClients = {
  name: "viem",
  importNames: ["createPublicClient", "createWalletClient"],
  message: "Read and sign through the chain registry (services.chains, app/modules/chain/chain-registry.server.ts), not a client of your own.",
};

/** The chain layer sits under the features that use it (withdrawals, deposits, airdrops, rewards): it imports none of them. */
const chainUnderFeatures = {
  group: ["~/modules/*", "!~/modules/chain"],
  message: "app/modules/chain sits under the features: move what it needs down into the chain layer, or take it as a parameter.",
};

/** The ledger sits under the chain layer and the features that move money on chains: it imports none of them. */
const ledgerUnderChains = {
  group: [
    "~/modules/chain",
    "~/modules/chain/*",
    "~/modules/withdrawals/*",
    "~/modules/deposits/*",
    "~/modules/airdrops/*",
    "~/modules/rewards/*",
    "~/wallet/*",
  ],
  message: "app/modules/ledger sits under the chain layer and the money features: move what it needs down into the ledger or app/lib.",
};

export default tseslint.config(
  { ignores: ["build/", "node_modules/", ".react-router/", "data/", ".e2e/", "test-results/", "playwright-report/", "db/migrations/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [climbingOut] }] },
  },
  {
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/lib/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [climbingOut, aboveLib, outOfLib] }] },
  },
  {
    files: ["app/components/**/*.{ts,tsx}", "app/hooks/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [climbingOut, ...serverSide] }] },
  },
  {
    files: ["app/modules/**/*.ts", "app/routes/**/*.{ts,tsx}", "server/**/*.ts"],
    // The registry builds the clients; the local chain's deployment at start signs as its own deployer.
    ignores: ["**/*.test.ts", "app/modules/chain/chain-registry.server.ts", "app/modules/chain/contracts.server.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [ownChainClients], patterns: [climbingOut] }] },
  },
  {
    files: ["app/modules/chain/**/*.ts"],
    ignores: ["**/*.test.ts", "app/modules/chain/chain-registry.server.ts", "app/modules/chain/contracts.server.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [ownChainClients], patterns: [climbingOut, chainUnderFeatures] }] },
  },
  {
    files: ["app/modules/chain/chain-registry.server.ts", "app/modules/chain/contracts.server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [climbingOut, chainUnderFeatures] }] },
  },
  {
    files: ["app/modules/ledger/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [ownChainClients], patterns: [climbingOut, ledgerUnderChains] }] },
  },
);
