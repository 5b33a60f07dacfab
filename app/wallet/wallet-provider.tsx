import type { AppKit } from "@reown/appkit";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { toast } from "~/components/ui/toaster";
import type { EIP1193Provider } from "viem";
import type { ContractCall } from "~/modules/chain/contract-call";
import { TxError } from "~/modules/chain/tx-error";
import type { ChainConfig } from "./chain-config";
import { hasWalletCloud } from "./wallet-cloud";
import { CHAIN_NAMES } from "./chains";
import { rememberWallet, type RememberedWallet } from "./remembered-wallet";

type WalletStatus = "idle" | "loading" | "ready" | "error";
type WalletView = "Connect" | "Account" | "Networks" | "Swap" | "OnRampProviders";

export type WalletState = {
  status: WalletStatus;
  /**
   * The wallet every part of the page shows and acts for: the connected one, or, until the wallet
   * stack has said whether it is still connected, the one this browser remembers (`restoring`).
   */
  address: string | null;
  chainId: number | null;
  /** The remembered wallet is shown while the wallet stack reconnects it; sending waits for it. */
  restoring: boolean;
  /** Whether the wallet modal's cloud features (swaps, on-ramp, WalletConnect) are configured. */
  cloud: boolean;
  /** Loads the wallet stack if needed and opens the wallet modal. */
  open: (view?: WalletView) => Promise<void>;
  /** Asks the wallet to switch to `chainId`, adding the network to it when it lacks it. */
  switchChain: (chainId: number) => Promise<void>;
  disconnect: () => Promise<void>;
  /**
   * Simulates `call`, then asks the connected wallet to send it (once a remembered wallet is
   * reconnected); resolves with the transaction
   * hash once the wallet sent it. Throws a `TxError` whose message is for the member (rejected,
   * reverted with the contract's reason in words, wrong network, node down…). The sending code
   * (viem) is loaded on demand with the wallet stack.
   */
  writeContract: (call: ContractCall) => Promise<`0x${string}`>;
};

const WalletContext = createContext<WalletState | null>(null);

/** Keys the wallet stack keeps in local storage; present when the browser remembers a connection. */
const REMEMBERED_KEYS = ["wagmi.recentConnectorId", "@appkit/connection_status"];
const remembersConnection = () =>
  REMEMBERED_KEYS.some((key) => {
    const value = window.localStorage.getItem(key);
    return value !== null && value !== "disconnected" && value !== '"disconnected"';
  });

/** Forgets any remembered connection, so the next page load does not reconnect. */
export function forgetWalletConnection() {
  for (const key of Object.keys(window.localStorage)) {
    if (key.startsWith("wagmi.") || key.startsWith("@appkit/")) window.localStorage.removeItem(key);
  }
  rememberWallet(null);
}

/**
 * Holds the wallet for the whole page. The wallet stack (AppKit, wagmi) is downloaded only when
 * the member opens the wallet, or at once when the browser remembers a previous connection.
 */
export function WalletProvider({
  config,
  appName,
  dark,
  signedIn,
  walletSession,
  remembered,
  children,
}: {
  config: ChainConfig;
  appName: string;
  dark: boolean;
  signedIn: boolean;
  /** Whether the current session was started by a wallet signature. */
  walletSession: boolean;
  /** The connection this browser remembers (a cookie), shown (`shownAddress`) from the first paint until the wallet stack says otherwise. */
  remembered: RememberedWallet | null;
  children: ReactNode;
}) {
  const [status, setStatus] = useState<WalletStatus>("idle");
  const [address, setAddress] = useState<string | null>(null);
  const [chainId, setChainId] = useState<number | null>(null);
  // Until the wallet stack has said whether the remembered wallet is still connected.
  const [settled, setSettled] = useState(false);
  const settledOnce = useRef<{ promise: Promise<void>; resolve: () => void } | null>(null);
  settledOnce.current ??= (() => {
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  })();
  const kit = useRef<Promise<AppKit> | null>(null);
  const navigate = useNavigate();
  const revalidator = useRevalidator();

  // The wallet stack calls back long after render: it reads the latest values through a ref.
  const latest = useRef({ signedIn, walletSession, navigate, revalidator, dark });
  useEffect(() => {
    latest.current = { signedIn, walletSession, navigate, revalidator, dark };
  });

  const load = useCallback(() => {
    kit.current ??= (async () => {
      setStatus("loading");
      const { createWallet } = await import("./appkit.client");
      const appKit = createWallet({
        config,
        appName,
        themeMode: latest.current.dark ? "dark" : "light",
        callbacks: {
          isSignedIn: () => latest.current.signedIn,
          onSignedIn: ({ linked, newWallet }) => {
            toast.success(!linked ? "Signed in with your wallet" : newWallet ? "Wallet linked" : "Wallet signed on this network");
            if (linked) void latest.current.revalidator.revalidate();
            else void latest.current.navigate("/dashboard");
          },
          onWalletSignOut: () => {
            if (latest.current.signedIn && latest.current.walletSession && !signingOut.current) {
              void fetch("/logout", { method: "POST", credentials: "same-origin" }).then(() => latest.current.navigate("/"));
            }
          },
        },
      });
      const connection = { address: null as string | null, chainId: null as number | null };
      const remember = () =>
        rememberWallet(connection.address && connection.chainId ? { address: connection.address as `0x${string}`, chainId: connection.chainId } : null);
      // The stack reports "not connected" while it reconnects a remembered wallet: only its
      // settled answers are remembered.
      appKit.subscribeAccount((account) => {
        if (account.status !== "connected" && account.status !== "disconnected") return;
        connection.address = account.isConnected ? (account.address ?? null) : null;
        setAddress(connection.address);
        setSettled(true);
        settledOnce.current?.resolve();
        remember();
      });
      appKit.subscribeNetwork((network) => {
        connection.chainId = typeof network.chainId === "number" ? network.chainId : Number(network.chainId) || null;
        setChainId(connection.chainId);
        if (connection.address) remember();
      });
      setStatus("ready");
      return appKit;
    })().catch((error: unknown) => {
      kit.current = null;
      setStatus("error");
      toast.error("The wallet could not be loaded. Check your connection and try again.");
      throw error;
    });
    return kit.current;
  }, [config, appName]);

  // A remembered connection (in the stack's storage, or the cookie the first paint used) is
  // restored at once; the stack then confirms it or says it is gone.
  const rememberedAtStart = useRef(remembered !== null);
  useEffect(() => {
    if (remembersConnection() || rememberedAtStart.current) void load().catch(() => undefined);
  }, [load]);

  useEffect(() => {
    void kit.current?.then((appKit) => appKit.setThemeMode(dark ? "dark" : "light"));
  }, [dark]);

  const open = useCallback(
    async (view: WalletView = "Connect") => {
      const appKit = await load();
      await appKit.open({ view });
    },
    [load],
  );

  const switchChain = useCallback(
    async (target: number) => {
      const appKit = await load();
      // A remembered wallet is asked once the stack has reconnected it: before that the stack
      // would only change its own network, not the wallet's.
      if (rememberedAtStart.current || remembersConnection()) await settledOnce.current?.promise;
      if (!appKit.getAddress()) throw new Error("Connect your wallet first.");
      const network = appKit.getCaipNetworks().find((n) => Number(n.id) === target);
      if (!network) throw new Error("Network not found");
      try {
        try {
          await appKit.switchNetwork(network, { throwOnFailure: true });
        } catch (error) {
          // A connection the stack restored after a reload can lack its switch: the wallet is asked itself, as the stack would.
          if (!(error instanceof Error && /programmatic chain switching/i.test(error.message))) throw error;
          await askWalletToSwitch(appKit.getWalletProvider() as EIP1193Provider | undefined, network);
        }
      } catch (error) {
        const refused = error instanceof Error && /reject|denied|refus/i.test(error.message);
        throw new Error(
          refused
            ? `The wallet refused to switch to ${CHAIN_NAMES[target] ?? network.name}.`
            : `The wallet could not switch to ${CHAIN_NAMES[target] ?? network.name}.`,
          { cause: error },
        );
      }
    },
    [load],
  );

  // Set while the member signs out: the wallet's disconnect then must not sign out a second time.
  const signingOut = useRef(false);
  const disconnect = useCallback(async () => {
    signingOut.current = true;
    forgetWalletConnection();
    try {
      if (kit.current) await (await kit.current).disconnect();
    } finally {
      // The page lives on after a sign-out (client-side): a later wallet session must sign out again.
      signingOut.current = false;
    }
  }, []);

  const writeContract = useCallback(
    async (call: ContractCall) => {
      const appKit = await load();
      if (rememberedAtStart.current || remembersConnection()) await settledOnce.current?.promise;
      const provider = appKit.getWalletProvider() as EIP1193Provider | undefined;
      const from = appKit.getAddress();
      if (!provider || !from) throw new TxError("chain", "Connect your wallet first.");
      const { sendContractCall } = await import("./transactions.client");
      return sendContractCall(provider, from, call);
    },
    [load],
  );

  // One answer for the header and the page's cards alike: until the stack has settled, the remembered wallet.
  const restoring = !settled && address === null && remembered !== null;
  const shown = restoring ? remembered : { address, chainId };
  const value = useMemo(
    () => ({
      status,
      address: shown.address,
      chainId: shown.chainId,
      restoring,
      cloud: hasWalletCloud(config),
      open,
      switchChain,
      disconnect,
      writeContract,
    }),
    [status, shown.address, shown.chainId, restoring, config, open, switchChain, disconnect, writeContract],
  );
  return <WalletContext value={value}>{children}</WalletContext>;
}

export function useWallet() {
  const state = useContext(WalletContext);
  if (!state) throw new Error("useWallet must be used inside <WalletProvider>");
  return state;
}

/**
 * `wallet_switchEthereumChain` (EIP-3326) on the wallet's own provider; a wallet that does not know
 * the network (4902) is asked to add it first (EIP-3085), with the name, coin and node the stack has for it.
 */
async function askWalletToSwitch(provider: EIP1193Provider | undefined, network: ReturnType<AppKit["getCaipNetworks"]>[number]) {
  if (!provider) throw new Error("Connect your wallet first.");
  const chainId = `0x${Number(network.id).toString(16)}` as const;
  try {
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
  } catch (error) {
    if ((error as { code?: number }).code !== 4902) throw error;
    await provider.request({
      method: "wallet_addEthereumChain",
      params: [{ chainId, chainName: network.name, nativeCurrency: network.nativeCurrency, rpcUrls: [...network.rpcUrls.default.http] }],
    });
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
  }
}
