import type RealUniversalProvider from "@walletconnect/universal-provider";

/**
 * Stands in for `@walletconnect/universal-provider` in the client build (vite.config.ts points
 * every import of it here, except this module's own). AppKit creates its WalletConnect provider
 * when it starts; the real one brings WalletConnect's sign client, relay and crypto (~140 KiB
 * gzip) and opens a relay connection. Here `init` hands AppKit a provider that holds listeners
 * and answers "no session" until something really uses WalletConnect (a member picks it: AppKit
 * calls `authenticate` or `connect`), then loads the real provider and forwards everything to it.
 * When the browser remembers a WalletConnect connection, the real provider is created at once, so
 * that the session is restored as before.
 */

type Provider = RealUniversalProvider;
type InitOptions = Parameters<typeof RealUniversalProvider.init>[0];
type Listener = (...args: unknown[]) => void;
type ListenerCall = { method: "on" | "once" | "removeListener" | "off"; event: string; listener: Listener };

const loadReal = async () => (await import("@walletconnect/universal-provider")).default;

/** Whether AppKit or wagmi remember a WalletConnect connection in this browser. */
function remembersWalletConnect(): boolean {
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i) ?? "";
      if (!key.startsWith("@appkit/") && !key.startsWith("wagmi.")) continue;
      if ((window.localStorage.getItem(key) ?? "").includes("walletConnect")) return true;
    }
  } catch {
    // storage unavailable: nothing remembered
  }
  return false;
}

/** Members that must answer synchronously, as an idle provider (no session), before the real one exists. */
const IDLE_VALUES = new Set<PropertyKey>(["session", "namespaces", "optionalNamespaces", "sessionProperties", "rpcProviders", "client", "uri"]);
const LISTENER_METHODS = new Set<PropertyKey>(["on", "once", "removeListener", "off"]);

function lazyProvider(options: InitOptions): Provider {
  let real: Provider | null = null;
  let loading: Promise<Provider> | null = null;
  let unlimitedListeners = false;
  const calls: ListenerCall[] = [];
  const overrides = new Map<PropertyKey, unknown>();

  const load = () =>
    (loading ??= loadReal()
      .then((UniversalProvider) => UniversalProvider.init(options))
      .then((provider) => {
        if (unlimitedListeners) provider.events.setMaxListeners(Number.POSITIVE_INFINITY);
        for (const { method, event, listener } of calls) provider[method](event, listener);
        calls.length = 0;
        real = provider;
        return provider;
      })
      .catch((error: unknown) => {
        loading = null;
        throw error;
      }));

  const idleEvents = {
    setMaxListeners: () => {
      unlimitedListeners = true;
    },
  };

  const proxy: Provider = new Proxy({} as Provider, {
    get(_target, prop) {
      if (overrides.has(prop)) return overrides.get(prop);
      if (real) {
        const value: unknown = Reflect.get(real, prop);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(real) : value;
      }
      // Not a thenable; no conversions.
      if (typeof prop === "symbol" || prop === "then" || prop === "toJSON") return undefined;
      if (IDLE_VALUES.has(prop)) return undefined;
      if (prop === "events") return idleEvents;
      if (LISTENER_METHODS.has(prop)) {
        return (event: string, listener: Listener) => {
          if (real) (real as Provider)[prop as ListenerCall["method"]](event, listener);
          else calls.push({ method: prop as ListenerCall["method"], event, listener });
          return proxy;
        };
      }
      // Nothing to disconnect from before WalletConnect is used.
      if (prop === "disconnect") return async () => (real ? (real as Provider).disconnect() : undefined);
      // Any other method uses WalletConnect: load it, then call the real method.
      return async (...args: unknown[]) => {
        const provider = await load();
        return (Reflect.get(provider, prop) as (...a: unknown[]) => unknown).apply(provider, args);
      };
    },
    set(_target, prop, value) {
      // AppKit wraps `disconnect`; the wrapper stays on this object and calls through to the real one.
      overrides.set(prop, value);
      return true;
    },
  });
  return proxy;
}

export default class UniversalProvider {
  static async init(options: InitOptions): Promise<Provider> {
    if (remembersWalletConnect()) return (await loadReal()).init(options);
    return lazyProvider(options);
  }
}

export { UniversalProvider };
