import { createAppKit, type AppKit } from "@reown/appkit";
import type { SIWXConfig, SIWXSession } from "@reown/appkit-controllers";
import { WagmiAdapter } from "@reown/appkit-adapter-wagmi";
import { bsc, defineChain, sepolia, type AppKitNetwork } from "@reown/appkit/networks";
import { getAddress } from "viem";
import { createSiweMessage } from "viem/siwe";
import { chainTransport, LOCAL_CHAIN_ID, nodeEndpoints, type ChainConfig } from "./chain-config";

/**
 * The browser wallet stack: Reown AppKit's modal on the wagmi adapter. This module is loaded on
 * demand (never in a page's first load) and creates one AppKit for the page.
 */

export type WalletCallbacks = {
  /** Whether a member is signed in right now (read at each call). */
  isSignedIn: () => boolean;
  /** A wallet signature started or extended the member's session. */
  onSignedIn: (result: { linked: boolean }) => void;
  /** The wallet that started the session was disconnected. */
  onWalletSignOut: () => void;
};

export type WalletOptions = {
  config: ChainConfig;
  appName: string;
  themeMode: "light" | "dark";
  callbacks: WalletCallbacks;
};

const localNetwork = (rpc: string) =>
  defineChain({
    id: LOCAL_CHAIN_ID,
    caipNetworkId: `eip155:${LOCAL_CHAIN_ID}`,
    chainNamespace: "eip155",
    name: "Questline Local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
    testnet: true,
  });

export function networksFor(config: ChainConfig): [AppKitNetwork, ...AppKitNetwork[]] {
  return config.rpc ? [localNetwork(config.rpc), bsc, sepolia] : [bsc, sepolia];
}

async function postJson(path: string, body: unknown) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new Error(typeof json.message === "string" ? json.message : `HTTP status code: ${response.status}`);
  return json;
}

const chainNumber = (caipNetworkId: string) => Number(caipNetworkId.split(":")[1]);

/** AppKit's sign-in (SIWX) wired to our endpoints: one EIP-4361 message per chain, checked by the server. */
function questlineSiwx({ appName, callbacks }: Pick<WalletOptions, "appName" | "callbacks">): SIWXConfig {
  return {
    async createMessage(input) {
      const { nonce } = (await postJson("/api/auth/siwe/nonce", {})) as { nonce: string };
      const issuedAt = new Date();
      const data = {
        ...input,
        domain: window.location.host,
        uri: window.location.origin,
        version: "1",
        nonce,
        statement: `Sign in to ${appName}`,
        issuedAt: issuedAt.toISOString(),
        expirationTime: new Date(issuedAt.getTime() + 10 * 60_000).toISOString(),
      };
      const message = createSiweMessage({
        address: getAddress(input.accountAddress),
        chainId: chainNumber(input.chainId),
        domain: data.domain,
        uri: data.uri,
        version: "1",
        nonce,
        statement: data.statement,
        issuedAt,
        expirationTime: new Date(data.expirationTime),
      });
      return { ...data, toString: () => message };
    },
    async addSession(session) {
      const linked = callbacks.isSignedIn();
      await postJson(linked ? "/api/auth/wallet/link" : "/api/auth/siwe/verify", {
        message: session.message,
        signature: session.signature,
      });
      callbacks.onSignedIn({ linked });
    },
    async getSessions(chainId, address) {
      if (!callbacks.isSignedIn()) return [];
      const query = new URLSearchParams({ address: getAddress(address), chainId: String(chainNumber(chainId)) });
      const response = await fetch(`/api/auth/wallet/session?${query}`, { credentials: "same-origin" });
      if (!response.ok) return [];
      const { signed } = (await response.json()) as { signed: boolean };
      if (!signed) return [];
      const session: SIWXSession = {
        data: { accountAddress: address, chainId, domain: window.location.host, uri: window.location.origin, version: "1", nonce: "" },
        message: "",
        signature: "",
      };
      return [session];
    },
    async revokeSession() {
      callbacks.onWalletSignOut();
    },
    async setSessions(sessions) {
      if (sessions.length === 0) callbacks.onWalletSignOut();
    },
    getRequired: () => true,
    signOutOnDisconnect: true,
  };
}

export function createWallet({ config, appName, themeMode, callbacks }: WalletOptions): AppKit {
  const networks = networksFor(config);
  const endpoints = nodeEndpoints(config, (message) => console.warn(message));
  const transports = Object.fromEntries(networks.map((n) => [n.id, chainTransport(endpoints.get(Number(n.id)))]));
  const adapter = new WagmiAdapter({ networks, projectId: config.projectId, transports, ssr: false });
  const origin = window.location.origin;
  return createAppKit({
    adapters: [adapter],
    networks,
    defaultNetwork: networks[0],
    projectId: config.projectId,
    metadata: { name: appName, description: `${appName}: quests, rewards and airdrops`, url: origin, icons: [`${origin}/favicon.svg`] },
    themeMode,
    themeVariables: { "--w3m-accent": "#bbf451", "--w3m-color-mix": "#bbf451", "--w3m-color-mix-strength": 0 },
    features: {
      email: true,
      socials: ["google", "x", "github", "discord", "apple", "facebook", "farcaster"],
      onramp: true,
      swaps: true,
      analytics: false,
    },
    enableCoinbase: false,
    enableWalletConnect: true,
    enableInjected: true,
    enableEIP6963: true,
    allowUnsupportedChain: false,
    siwx: questlineSiwx({ appName, callbacks }),
  });
}
