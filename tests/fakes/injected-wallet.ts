/**
 * A fake browser-extension wallet for the e2e tests: an EIP-1193 provider that announces itself
 * through EIP-6963 ("Questline Test Wallet"), installed in a page with
 *
 *   const wallet = await installTestWallet(page);
 *
 * The page only holds a thin provider object; every request goes to Node through
 * `page.exposeFunction`, where this wallet keeps its state and signs with a viem local account,
 * so the private key never enters the page. Read-only calls (eth_blockNumber, eth_getBalance,
 * eth_call, …) are forwarded from Node to the node of the chain the wallet is on (the app's local
 * chains, anvil, whose URLs the page gets in the root loader's `chains.localRpcs`), as a real extension would make them from its own
 * background (the page's Content-Security-Policy does not apply to it).
 *
 * Like a real wallet it remembers, per page and across reloads, whether the site was approved:
 * `eth_accounts` answers `[]` until `eth_requestAccounts` (or `wallet_requestPermissions`) was
 * approved, otherwise the wallet modal would connect on its own.
 */
import type { Page } from "@playwright/test";
import { createWalletClient, defineChain, hexToBigInt, http, numberToHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

const TEST_WALLET_INFO = {
  uuid: "6f1c1a52-9a2e-4c3b-8f6a-7b1d2c3e4f50",
  name: "Questline Test Wallet",
  rdns: "dev.questline.testwallet",
  icon:
    "data:image/svg+xml;base64," +
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#bbf451"/>' +
        '<path d="M8 11h16v11H8z" fill="none" stroke="#1a2e05" stroke-width="2.5" stroke-linejoin="round"/>' +
        '<circle cx="20" cy="16.5" r="1.8" fill="#1a2e05"/></svg>',
    ).toString("base64"),
} as const;

/** Chains the wallet knows without being asked to add them. */
const KNOWN_CHAINS = [31337, 31338, 56, 11155111];

/** The local chains' nodes by chain id, as the page props name them. */
type Nodes = Partial<Record<number, string>>;

/** Calls a wallet may answer by forwarding them to a node. */
const READ_ONLY = new Set([
  "eth_blockNumber",
  "eth_getBalance",
  "eth_call",
  "eth_estimateGas",
  "eth_getCode",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getTransactionCount",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_getLogs",
  "eth_getStorageAt",
]);

type RpcError = { code: number; message: string; data?: unknown };
type WalletEvent = { event: "accountsChanged" | "chainChanged" | "connect" | "disconnect"; data: unknown };
type Reply = { result?: unknown; error?: RpcError; events?: WalletEvent[] };

export type TestWalletOptions = {
  /**
   * The connected account's key: a new random one by default, so each test is a new member (a
   * wallet belongs to one member only; tests fund it with `anvil_setBalance`).
   */
  privateKey?: Hex;
  /** The chain the wallet is on at first. */
  chainId?: number;
};

export class TestWallet {
  readonly account: PrivateKeyAccount;
  chainId: number;
  /** Whether the member approved this site (persists over reloads, as in a real wallet). */
  approved = false;
  /** When set, `wallet_switchEthereumChain` is refused as if the member clicked "Reject" (code 4001). */
  refuseSwitch = false;
  /** When set, signing is refused as if the member clicked "Reject" (code 4001). */
  refuseSign = false;
  /** When set, transactions are refused as if the member clicked "Reject" (code 4001). */
  refuseTransactions = false;
  /** The transactions this wallet signed and sent (`eth_sendTransaction`), in order. */
  readonly sentTransactions: { hash: Hex; to: Address | undefined; data: Hex | undefined; value: bigint }[] = [];
  /** Every request the page made, in order (method names). */
  readonly calls: string[] = [];
  /** The messages the member was asked to sign (decoded text). */
  readonly signRequests: string[] = [];
  private signer: PrivateKeyAccount;
  private knownChains = new Set(KNOWN_CHAINS);

  constructor({ privateKey = generatePrivateKey(), chainId = 31337 }: TestWalletOptions = {}) {
    this.account = privateKeyToAccount(privateKey);
    this.signer = this.account;
    this.chainId = chainId;
  }

  get address() {
    return this.account.address;
  }

  /** Makes the wallet sign with another key while it still reports the connected account (a broken or malicious wallet). */
  signWithKey(privateKey: Hex) {
    this.signer = privateKeyToAccount(privateKey);
  }

  /** Answers one EIP-1193 request from the page. */
  async handle(method: string, params: unknown[], nodes: Nodes): Promise<Reply> {
    this.calls.push(method);
    const hexChain = numberToHex(this.chainId);
    switch (method) {
      case "eth_chainId":
        return { result: hexChain };
      case "net_version":
        return { result: String(this.chainId) };
      case "eth_accounts":
        return { result: this.approved ? [this.address] : [] };
      case "eth_requestAccounts": {
        const events: WalletEvent[] = this.approved ? [] : [{ event: "accountsChanged", data: [this.address] }];
        this.approved = true;
        return { result: [this.address], events };
      }
      case "wallet_requestPermissions":
        this.approved = true;
        return { result: [this.permission()] };
      case "wallet_getPermissions":
        return { result: this.approved ? [this.permission()] : [] };
      case "wallet_revokePermissions":
        this.approved = false;
        return { result: null, events: [{ event: "accountsChanged", data: [] }] };
      case "wallet_switchEthereumChain": {
        const target = Number((params[0] as { chainId: string }).chainId);
        if (this.refuseSwitch) return rejected("User rejected the request.");
        if (!this.knownChains.has(target)) return { error: { code: 4902, message: `Unrecognized chain ID ${numberToHex(target)}.` } };
        return this.switchTo(target);
      }
      case "wallet_addEthereumChain": {
        const target = Number((params[0] as { chainId: string }).chainId);
        if (this.refuseSwitch) return rejected("User rejected the request.");
        this.knownChains.add(target);
        return this.switchTo(target);
      }
      case "personal_sign": {
        const [data, address] = params as [Hex, string];
        const notApproved = this.requireAccount(address);
        if (notApproved) return notApproved;
        this.signRequests.push(Buffer.from(data.slice(2), "hex").toString("utf8"));
        if (this.refuseSign) return rejected("User rejected the request.");
        return { result: await this.signer.signMessage({ message: { raw: data } }) };
      }
      case "eth_signTypedData_v4": {
        const [address, json] = params as [string, string];
        const notApproved = this.requireAccount(address);
        if (notApproved) return notApproved;
        this.signRequests.push(json);
        if (this.refuseSign) return rejected("User rejected the request.");
        const typed = JSON.parse(json) as Parameters<PrivateKeyAccount["signTypedData"]>[0];
        return { result: await this.signer.signTypedData(typed) };
      }
      case "eth_sendTransaction":
        return this.sendTransaction(params[0] as TxParams, nodes[this.chainId] ?? null);
      case "eth_sign":
      case "wallet_sendCalls":
        return { error: { code: 4200, message: `The test wallet does not support ${method}` } };
      case "wallet_getCapabilities":
        return { error: { code: 4200, message: "The test wallet does not support wallet_getCapabilities" } };
      default:
        // A chain the tests run no node for is read on the first local chain: nothing they read there depends on it.
        if (READ_ONLY.has(method)) return this.forward(method, params, nodes[this.chainId] ?? nodes[31337] ?? null);
        return { error: { code: 4200, message: `The test wallet does not support ${method}` } };
    }
  }

  /**
   * Signs with the wallet's key and sends through `eth_sendRawTransaction` to the node of the chain
   * the wallet is on (a local chain: the only nodes the tests have), filling nonce, gas and fees as a wallet does.
   */
  private async sendTransaction(tx: TxParams, rpcUrl: string | null): Promise<Reply> {
    const notApproved = this.requireAccount(tx?.from ?? "");
    if (notApproved) return notApproved;
    if (this.refuseTransactions) return rejected("User rejected the request.");
    if (!rpcUrl) return { error: { code: -32603, message: `The test wallet cannot reach chain ${this.chainId}` } };
    const chain = defineChain({
      id: this.chainId,
      name: `Local chain ${this.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const client = createWalletClient({ account: this.signer, chain, transport: http(rpcUrl) });
    const value = tx.value ? hexToBigInt(tx.value) : 0n;
    try {
      const hash = await client.sendTransaction({
        to: tx.to,
        data: tx.data ?? tx.input,
        value,
        gas: tx.gas ? hexToBigInt(tx.gas) : undefined,
      });
      this.sentTransactions.push({ hash, to: tx.to, data: tx.data ?? tx.input, value });
      return { result: hash };
    } catch (error) {
      const cause = error as { shortMessage?: string; message?: string; walk?: () => { code?: number; data?: unknown } };
      const root = cause.walk?.() ?? {};
      return {
        error: { code: typeof root.code === "number" ? root.code : -32603, message: cause.shortMessage ?? cause.message ?? String(error), data: root.data },
      };
    }
  }

  private permission() {
    return {
      parentCapability: "eth_accounts",
      invoker: "http://localhost",
      caveats: [{ type: "restrictReturnedAccounts", value: [this.address] }],
    };
  }

  private requireAccount(address: string): Reply | null {
    if (!this.approved) return { error: { code: 4100, message: "The requested account has not been authorized by the user." } };
    if (address?.toLowerCase() !== this.address.toLowerCase()) {
      return { error: { code: 4100, message: `The test wallet does not hold ${address}` } };
    }
    return null;
  }

  private switchTo(target: number): Reply {
    if (target === this.chainId) return { result: null };
    this.chainId = target;
    return { result: null, events: [{ event: "chainChanged", data: numberToHex(target) }] };
  }

  /** A read-only call, answered by `rpcUrl`'s node. */
  private async forward(method: string, params: unknown[], rpcUrl: string | null): Promise<Reply> {
    if (!rpcUrl) return { error: { code: -32603, message: "The test wallet has no node to ask (no local chain)" } };
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      const body = (await response.json()) as { result?: unknown; error?: RpcError };
      return body.error ? { error: body.error } : { result: body.result };
    } catch (error) {
      return { error: { code: -32603, message: `The node did not answer: ${String(error)}` } };
    }
  }
}

type TxParams = { from: string; to?: Address; data?: Hex; input?: Hex; value?: Hex; gas?: Hex };

function rejected(message: string): Reply {
  return { error: { code: 4001, message } };
}

const BINDING = "__questlineTestWallet";

/**
 * Installs the test wallet in `page` (before its next navigation) and returns its Node side.
 * `rpcUrl` overrides the first local chain's URL the page reports.
 */
export async function installTestWallet(page: Page, options: TestWalletOptions & { rpcUrl?: string } = {}) {
  const wallet = new TestWallet(options);
  await page.exposeFunction(BINDING, (method: string, params: unknown[], pageNodes: Nodes) =>
    wallet.handle(method, params ?? [], options.rpcUrl ? { ...pageNodes, 31337: options.rpcUrl } : pageNodes),
  );
  await page.addInitScript(injectProvider, { info: TEST_WALLET_INFO, binding: BINDING });
  return wallet;
}

/** Runs in the page before its own scripts: the provider object and the EIP-6963 announcement. */
function injectProvider({ info, binding }: { info: typeof TEST_WALLET_INFO; binding: string }) {
  type Listener = (data: unknown) => void;
  type Call = (method: string, params: unknown[], nodes: Nodes) => Promise<Reply>;
  const listeners = new Map<string, Set<Listener>>();
  const emit = (event: string, data: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(data);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  };
  // The root loader's page props name the local chains' nodes.
  const nodes = (): Nodes => {
    const router = (window as unknown as { __reactRouterDataRouter?: { state: { loaderData: Record<string, unknown> } } }).__reactRouterDataRouter;
    const root = router?.state.loaderData.root as { chains?: { localRpcs?: Nodes } } | undefined;
    return root?.chains?.localRpcs ?? {};
  };
  class ProviderRpcError extends Error {
    code: number;
    data?: unknown;
    constructor({ code, message, data }: { code: number; message: string; data?: unknown }) {
      super(message);
      this.code = code;
      if (data !== undefined) this.data = data;
    }
  }
  const provider = {
    isQuestlineTestWallet: true,
    async request({ method, params }: { method: string; params?: unknown[] | Record<string, unknown> }) {
      const call = (window as unknown as Record<string, Call>)[binding]!;
      const reply = await call(method, Array.isArray(params) ? params : params === undefined ? [] : [params], nodes());
      // Events follow the answer, as a wallet sends them after the request that caused them.
      for (const { event, data } of reply.events ?? []) setTimeout(() => emit(event, data));
      if (reply.error) throw new ProviderRpcError(reply.error);
      return reply.result;
    },
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return provider;
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };
  const announce = () =>
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info: Object.freeze({ ...info }), provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
}
