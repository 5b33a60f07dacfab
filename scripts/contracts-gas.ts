// Gas per contract function, from the receipts of real transactions on a fresh anvil chain
// (the shipped, optimized bytecode). Prints `BENCH gas_<contract>_<function> <n> gas` lines.
//
//   npm run gas        (also part of `npm run bench`)

import { createPublicClient, createWalletClient, http, keccak256, parseEther, parseSignature, stringToHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anvil } from "viem/chains";
import { startLocalChain } from "../app/lib/local-chain.server.ts";
import { DEV_PRIVATE_KEYS } from "../contracts/dev-accounts.ts";
import { airdropDistributorAbi, airdropDistributorBytecode } from "../contracts/generated/airdrop-distributor.ts";
import { depositVaultAbi, depositVaultBytecode } from "../contracts/generated/deposit-vault.ts";
import { questTokenAbi, questTokenBytecode } from "../contracts/generated/quest-token.ts";
import { tokenSaleAbi, tokenSaleBytecode } from "../contracts/generated/token-sale.ts";
import { airdropTree } from "../contracts/merkle.ts";

const chain = await startLocalChain();
try {
  const transport = http(chain.url);
  const publicClient = createPublicClient({ chain: anvil, transport, pollingInterval: 10 });
  const walletOf = (key: Hex) => createWalletClient({ chain: anvil, transport, account: privateKeyToAccount(key), pollingInterval: 10 });
  const admin = walletOf(DEV_PRIVATE_KEYS[0]);
  const buyer = walletOf(DEV_PRIVATE_KEYS[1]);
  const member = walletOf(DEV_PRIVATE_KEYS[2]);
  const rows: { name: string; gas: bigint }[] = [];
  const measure = async (name: string, send: Promise<Hex>) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await send, pollingInterval: 10 });
    if (receipt.status !== "success") throw new Error(`${name} reverted`);
    rows.push({ name, gas: receipt.gasUsed });
    return receipt;
  };
  const adminAddress = admin.account.address;

  const token = (
    await measure(
      "questtoken_deploy",
      admin.deployContract({ abi: questTokenAbi, bytecode: questTokenBytecode, args: ["Questline", "QUEST", parseEther("1000000000"), adminAddress] }),
    )
  ).contractAddress as Address;
  const asToken = { address: token, abi: questTokenAbi } as const;
  await measure("questtoken_mint", admin.writeContract({ ...asToken, functionName: "mint", args: [adminAddress, parseEther("100000")] }));
  await measure("questtoken_transfer", admin.writeContract({ ...asToken, functionName: "transfer", args: [member.account.address, parseEther("1000")] }));
  await measure(
    "questtoken_configurePublicMint",
    admin.writeContract({ ...asToken, functionName: "configurePublicMint", args: [true, parseEther("0.001"), parseEther("1000")] }),
  );
  await measure("questtoken_publicMint", buyer.writeContract({ ...asToken, functionName: "publicMint", args: [parseEther("10")], value: parseEther("0.01") }));
  await measure("questtoken_withdrawProceeds", admin.writeContract({ ...asToken, functionName: "withdrawProceeds", args: [adminAddress] }));

  const now = (await publicClient.getBlock()).timestamp;
  const sale = (
    await measure(
      "tokensale_deploy",
      admin.deployContract({
        abi: tokenSaleAbi,
        bytecode: tokenSaleBytecode,
        args: [token, parseEther("0.0005"), now, now + 86_400n, parseEther("1000000"), parseEther("1000"), adminAddress],
      }),
    )
  ).contractAddress as Address;
  const minter = await publicClient.readContract({ address: token, abi: questTokenAbi, functionName: "MINTER_ROLE" });
  await measure("questtoken_grantRole", admin.writeContract({ ...asToken, functionName: "grantRole", args: [minter, sale] }));
  const asSale = { address: sale, abi: tokenSaleAbi } as const;
  await measure("tokensale_buy_first", buyer.writeContract({ ...asSale, functionName: "buy", args: [parseEther("100")], value: parseEther("0.05") }));
  await measure("tokensale_buy", buyer.writeContract({ ...asSale, functionName: "buy", args: [parseEther("100")], value: parseEther("0.05") }));
  await measure("tokensale_withdraw", admin.writeContract({ ...asSale, functionName: "withdraw", args: [adminAddress] }));

  const vault = (
    await measure(
      "depositvault_deploy",
      admin.deployContract({ abi: depositVaultAbi, bytecode: depositVaultBytecode, args: [token, adminAddress, adminAddress] }),
    )
  ).contractAddress as Address;
  const asVault = { address: vault, abi: depositVaultAbi } as const;
  const ref = keccak256(stringToHex("member:1"));
  await measure("questtoken_approve", member.writeContract({ ...asToken, functionName: "approve", args: [vault, parseEther("100")] }));
  await measure("depositvault_deposit", member.writeContract({ ...asVault, functionName: "deposit", args: [parseEther("100"), ref] }));
  const deadline = now + 3600n;
  const signature = await member.signTypedData({
    domain: { name: "Questline", version: "1", chainId: anvil.id, verifyingContract: token },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    message: { owner: member.account.address, spender: vault, value: parseEther("50"), nonce: 0n, deadline },
  });
  const { r, s, yParity } = parseSignature(signature);
  const v = yParity + 27;
  await measure(
    "depositvault_depositWithPermit",
    member.writeContract({ ...asVault, functionName: "depositWithPermit", args: [parseEther("50"), ref, deadline, v, r, s] }),
  );
  await measure(
    "depositvault_withdraw",
    admin.writeContract({ ...asVault, functionName: "withdraw", args: [keccak256(stringToHex("w1")), member.account.address, parseEther("30")] }),
  );
  // The allow-list's paths, in the vault's own token (listed from the start; another ERC-20 costs what its transfers cost).
  await publicClient.waitForTransactionReceipt({
    hash: await member.writeContract({ ...asToken, functionName: "approve", args: [vault, parseEther("100")] }),
    pollingInterval: 10,
  });
  await measure("depositvault_depositToken", member.writeContract({ ...asVault, functionName: "depositToken", args: [token, parseEther("100"), ref] }));
  await measure(
    "depositvault_withdrawToken",
    admin.writeContract({ ...asVault, functionName: "withdrawToken", args: [token, keccak256(stringToHex("w2")), member.account.address, parseEther("30")] }),
  );
  // Any address other than the vault's token: only the list's write is measured.
  await measure("depositvault_setTokenAllowed", admin.writeContract({ ...asVault, functionName: "setTokenAllowed", args: [sale, true] }));
  await measure("depositvault_pause", admin.writeContract({ ...asVault, functionName: "pause" }));
  await measure("depositvault_unpause", admin.writeContract({ ...asVault, functionName: "unpause" }));

  const distributor = (
    await measure(
      "airdropdistributor_deploy",
      admin.deployContract({ abi: airdropDistributorAbi, bytecode: airdropDistributorBytecode, args: [token, adminAddress, adminAddress] }),
    )
  ).contractAddress as Address;
  const asDistributor = { address: distributor, abi: airdropDistributorAbi } as const;
  // 1,000 entries: proofs of 10 hashes.
  const entries = Array.from({ length: 1000 }, (_, i) => ({
    index: BigInt(i),
    account: `0x${(i + 1).toString(16).padStart(40, "0")}` as Address,
    amount: parseEther("1"),
  }));
  const tree = airdropTree(entries);
  await admin
    .writeContract({ ...asToken, functionName: "approve", args: [distributor, parseEther("1000")] })
    .then((hash) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 }));
  await measure(
    "airdropdistributor_createRound",
    admin.writeContract({ ...asDistributor, functionName: "createRound", args: [tree.root, parseEther("1000"), now + 86_400n] }),
  );
  for (const i of [0, 1]) {
    await measure(
      i === 0 ? "airdropdistributor_claim_first" : "airdropdistributor_claim",
      buyer.writeContract({ ...asDistributor, functionName: "claim", args: [0n, entries[i]!.index, entries[i]!.account, entries[i]!.amount, tree.proofs[i]!] }),
    );
  }
  await publicClient.request({ method: "evm_increaseTime" as never, params: [86_400] as never });
  await publicClient.request({ method: "evm_mine" as never });
  await measure("airdropdistributor_sweep", admin.writeContract({ ...asDistributor, functionName: "sweep", args: [0n, adminAddress] }));

  for (const { name, gas } of rows) console.log(`BENCH gas_${name} ${gas} gas`);
} finally {
  await chain.stop();
}
