import { AppKit, CoreHelperUtil, type CreateAppKit } from "@reown/appkit";
import { PACKAGE_VERSION } from "@reown/appkit/constants";
import { ChainController, FetchUtil, RouterController, type SIWXConfig, type SIWXSession } from "@reown/appkit-controllers";
import { WagmiAdapter } from "@reown/appkit-adapter-wagmi";
import { CaipNetworksUtil } from "@reown/appkit-utils";
import {
  arbitrum,
  arbitrumSepolia,
  base,
  baseSepolia,
  bsc,
  bscTestnet,
  defineChain,
  mainnet,
  optimism,
  polygon,
  sepolia,
  type AppKitNetwork,
} from "@reown/appkit/networks";
import { custom, getAddress } from "viem";
import { createSiweMessage } from "viem/siwe";
import { chainTransport, localChainOf, nodeEndpoints, walletFeatures, type ChainConfig } from "./chain-config";
import { hasWalletCloud } from "./wallet-cloud";

/**
 * The browser wallet stack: Reown AppKit's modal on the wagmi adapter. This module is loaded on
 * demand (never in a page's first load) and creates one AppKit for the page.
 *
 * What the first open downloads is kept small (scripts/bundle-report.ts measures it):
 * - the modal's feature screens (e-mail and social sign-in steps, swaps, on-ramp, send, receive,
 *   activity…) are fetched when the modal first shows one of them, not all at start (below);
 * - WalletConnect's client is fetched when a member picks WalletConnect, or at start when the
 *   browser remembers a WalletConnect connection (universal-provider.client.ts, wired in
 *   vite.config.ts).
 */

export type WalletCallbacks = {
  /** Whether a member is signed in right now (read at each call). */
  isSignedIn: () => boolean;
  /** A wallet signature started or extended the member's session. */
  /** `linked`: added to a signed-in member; `newWallet`: the address was not theirs before (else a new network for it). */
  onSignedIn: (result: { linked: boolean; newWallet: boolean }) => void;
  /** The wallet that started the session was disconnected. */
  onWalletSignOut: () => void;
};

export type WalletOptions = {
  config: ChainConfig;
  appName: string;
  themeMode: "light" | "dark";
  callbacks: WalletCallbacks;
};

/** A running local chain as the wallet modal describes a network: viem's object of it (chain-config.ts) with its CAIP id. */
const localNetwork = (chainId: number, rpc: string): AppKitNetwork =>
  defineChain({ ...localChainOf(chainId, rpc), caipNetworkId: `eip155:${chainId}`, chainNamespace: "eip155" });

/** The wallet modal's own object of each chain in the list (app/wallet/chains.ts) but the local ones. */
export const APPKIT_NETWORKS: ReadonlyMap<number, AppKitNetwork> = new Map(
  [mainnet, base, arbitrum, optimism, polygon, bsc, sepolia, baseSepolia, arbitrumSepolia, bscTestnet].map((network) => [Number(network.id), network]),
);

/** The wallet modal's networks: the chains members sign in on, the running local chains first. */
export function networksFor(config: ChainConfig): [AppKitNetwork, ...AppKitNetwork[]] {
  const local = config.chainIds.flatMap((id) => {
    const rpc = config.localRpcs[id];
    return rpc ? [localNetwork(id, rpc)] : [];
  });
  const listed = config.chainIds.flatMap((id) => APPKIT_NETWORKS.get(id) ?? []);
  const [first, ...rest] = [...local, ...listed];
  if (!first) throw new Error("The wallet modal needs at least one network");
  return [first, ...rest];
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
      // Built when read: for WalletConnect's one-click sign-in AppKit asks for the message data
      // without an account (`accountAddress: ""`) and the wallet writes the message itself.
      const message = () =>
        createSiweMessage({
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
      return { ...data, toString: message };
    },
    async addSession(session) {
      const linked = callbacks.isSignedIn();
      const answer = await postJson(linked ? "/api/auth/wallet/link" : "/api/auth/siwe/verify", {
        message: session.message,
        signature: session.signature,
      });
      callbacks.onSignedIn({ linked, newWallet: answer.newWallet === true });
    },
    async getSessions(chainId, address) {
      if (!callbacks.isSignedIn()) return [];
      const query = new URLSearchParams({ address: getAddress(address), chainId: String(chainNumber(chainId)) });
      const response = await fetch(`/api/auth/wallet/session?${query}`, { credentials: "same-origin" });
      if (!response.ok) return [];
      const { signed } = (await response.json()) as { signed: boolean };
      if (!signed) return [];
      // The network to return to when a sign-in for another one is cancelled: the last one with a session. AppKit
      // remembers it only after a signature in this page, not for a session from before a reload.
      const network = ChainController.getAllRequestedCaipNetworks().find((n) => n.caipNetworkId === chainId);
      if (network) ChainController.setLastConnectedSIWECaipNetwork(network);
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

/** Feature screens of the modal, by the package export that defines them. */
const FEATURE_MODULES = {
  email: () => import("@reown/appkit-scaffold-ui/email"),
  socials: () => import("@reown/appkit-scaffold-ui/socials"),
  embeddedWallet: () => import("@reown/appkit-scaffold-ui/embedded-wallet"),
  swaps: () => import("@reown/appkit-scaffold-ui/swaps"),
  onramp: () => import("@reown/appkit-scaffold-ui/onramp"),
  send: () => import("@reown/appkit-scaffold-ui/send"),
  receive: () => import("@reown/appkit-scaffold-ui/receive"),
  transactions: () => import("@reown/appkit-scaffold-ui/transactions"),
  payWithExchange: () => import("@reown/appkit-scaffold-ui/pay-with-exchange"),
  dataCapture: () => import("@reown/appkit-scaffold-ui/reown-authentication/data-capture"),
  pay: () => import("@reown/appkit-pay"),
} as const;

/** The modal's views (RouterController) that need a feature module; every other view is in the core UI. */
const VIEW_FEATURES: Record<string, keyof typeof FEATURE_MODULES> = {
  EmailLogin: "email",
  EmailVerifyOtp: "email",
  EmailVerifyDevice: "email",
  UpdateEmailWallet: "email",
  UpdateEmailPrimaryOtp: "email",
  UpdateEmailSecondaryOtp: "email",
  ConnectSocials: "socials",
  ConnectingSocial: "socials",
  ConnectingFarcaster: "socials",
  ApproveTransaction: "embeddedWallet",
  UpgradeEmailWallet: "embeddedWallet",
  SmartAccountSettings: "embeddedWallet",
  RegisterAccountName: "embeddedWallet",
  RegisterAccountNameSuccess: "embeddedWallet",
  Swap: "swaps",
  SwapSelectToken: "swaps",
  SwapPreview: "swaps",
  OnRampProviders: "onramp",
  OnRampTokenSelect: "onramp",
  OnRampFiatSelect: "onramp",
  BuyInProgress: "onramp",
  WhatIsABuy: "onramp",
  WalletSend: "send",
  WalletSendSelectToken: "send",
  WalletSendPreview: "send",
  WalletSendConfirmed: "send",
  WalletReceive: "receive",
  Transactions: "transactions",
  PayWithExchange: "payWithExchange",
  PayWithExchangeSelectAsset: "payWithExchange",
  DataCapture: "dataCapture",
  DataCaptureOtpConfirm: "dataCapture",
  Pay: "pay",
  PayLoading: "pay",
  PayQuote: "pay",
};

const loadedFeatures = new Map<keyof typeof FEATURE_MODULES, Promise<unknown>>();

function loadViewModule(view: string) {
  const feature = VIEW_FEATURES[view];
  if (!feature || loadedFeatures.has(feature)) return;
  const loading = FEATURE_MODULES[feature]().catch((error: unknown) => {
    loadedFeatures.delete(feature);
    console.error(`The wallet modal's ${feature} screens could not be loaded`, error);
  });
  loadedFeatures.set(feature, loading);
}

let modalUi: Promise<void> | null = null;

/**
 * AppKit that loads its modal's core UI when first opened and each feature's screens when the
 * modal first routes to one (a custom element rendered before its definition upgrades when the
 * definition arrives). AppKit itself imports every enabled feature's screens at once, and only
 * those enabled by the features it knows when first opened, which can be before it has them.
 */
class QuestlineAppKit extends AppKit {
  /** WalletConnect runs through the wallet vendor's relay, which needs a real project id: without one it is not offered. */
  protected override async createUniversalProviderForAdapter(namespace: NonNullable<Parameters<AppKit["getAdapter"]>[0]>): Promise<void> {
    if (hasWalletCloud({ projectId: this.options.projectId })) await super.createUniversalProviderForAdapter(namespace);
  }

  protected override injectModalUi(): Promise<void> {
    modalUi ??= (async () => {
      await Promise.all([import("@reown/appkit-scaffold-ui"), import("@reown/appkit-scaffold-ui/w3m-modal")]);
      loadViewModule(RouterController.state.view);
      RouterController.subscribeKey("view", loadViewModule);
      if (!document.querySelector("w3m-modal")) document.body.insertAdjacentElement("beforeend", document.createElement("w3m-modal"));
    })().catch((error: unknown) => {
      modalUi = null;
      console.error("The wallet modal could not be loaded", error);
    });
    return modalUi;
  }
}

/**
 * Without a project id the wallet vendor's cloud is not ours to call: every request AppKit makes
 * to it (its configuration, wallet list, usage, identity and balance lookups, and the events it
 * sends even with analytics off) goes through its `FetchUtil`, which then fails at once as if the
 * machine were offline, and AppKit carries on without it. Nothing leaves for an outside host.
 */
function keepWalletCloudOff() {
  const offline = () => Promise.reject(new TypeError("The wallet cloud is off: no project id is configured"));
  Object.assign(FetchUtil.prototype, { get: offline, getBlob: offline, post: offline, put: offline, delete: offline, sendBeacon: () => false });
  // AppKit puts its own node service behind every transport it is given (and makes it a chain's
  // default node): without a project id a chain reads only through the nodes configured here.
  CaipNetworksUtil.extendWagmiTransports = (_network, _projectId, transport) => transport;
}

/**
 * A chain's transport: its configured nodes; with none, the chain's default node only where the
 * wallet cloud serves it (a project id), else a transport that refuses at once, so a wallet on a
 * chain this server has no node for asks no outside host.
 */
function transportFor(network: AppKitNetwork, urls: string[] | undefined, cloud: boolean) {
  if (urls?.length || cloud) return chainTransport(urls);
  return custom({ request: () => Promise.reject(new Error(`No node for ${network.name} is configured on this server`)) });
}

function createAppKit(options: CreateAppKit): AppKit {
  return new QuestlineAppKit({ ...options, sdkVersion: CoreHelperUtil.generateSdkVersion(options.adapters ?? [], "html", PACKAGE_VERSION) });
}

export function createWallet({ config, appName, themeMode, callbacks }: WalletOptions): AppKit {
  if (!hasWalletCloud(config)) keepWalletCloudOff();
  const networks = networksFor(config);
  const endpoints = nodeEndpoints(config, (message) => console.warn(message));
  const transports = Object.fromEntries(networks.map((n) => [n.id, transportFor(n, endpoints.get(Number(n.id)), hasWalletCloud(config))]));
  const adapter = new WagmiAdapter({ networks, projectId: config.projectId, transports, ssr: false });
  const origin = window.location.origin;
  return createAppKit({
    adapters: [adapter],
    networks,
    defaultNetwork: networks[0],
    projectId: config.projectId,
    metadata: { name: appName, description: `${appName}: quests, rewards and airdrops`, url: origin, icons: [`${origin}/favicon.svg`] },
    themeMode,
    themeVariables: {
      "--w3m-accent": "#bbf451",
      "--w3m-color-mix": "#bbf451",
      "--w3m-color-mix-strength": 0,
      "--w3m-font-family": "ui-sans-serif, system-ui, sans-serif",
    },
    features: walletFeatures(config),
    enableCoinbase: false,
    enableWalletConnect: hasWalletCloud(config),
    enableInjected: true,
    enableEIP6963: true,
    allowUnsupportedChain: false,
    siwx: questlineSiwx({ appName, callbacks }),
  });
}
